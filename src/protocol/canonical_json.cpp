// The canonical JSON writer: sorted members, ordered arrays, fixed number format, minimal string escaping.
#include "tickwire/protocol/canonical_json.h"

#include <fmt/format.h>

#include <cmath>

#include "tickwire/core/assert.h"

namespace tickwire {

std::string canonical_json_number(double value) {
  TW_ASSERT(std::isfinite(value), "canonical JSON has no NaN or infinity");
  std::string text = fmt::format("{:.{}f}", value, kCanonicalJsonDecimals);
  const std::size_t point = text.find('.');
  if (point != std::string::npos) {
    std::size_t end = text.size();
    while (end > point + 1 && text[end - 1] == '0') --end;
    if (end == point + 1) --end;  // no fraction left: drop the point too
    text.resize(end);
  }
  if (text == "-0") text = "0";
  return text;
}

std::string canonical_json_string(std::string_view value) {
  static constexpr char kHexDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(value.size() + 2);
  out.push_back('"');
  for (const char c : value) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out.push_back('\\');
      out.push_back(c);
    } else if (byte < 0x20) {
      out += "\\u00";
      out.push_back(kHexDigits[byte >> 4]);
      out.push_back(kHexDigits[byte & 15]);
    } else {
      out.push_back(c);
    }
  }
  out.push_back('"');
  return out;
}

void CanonicalJsonObject::add(std::string_view key, std::string rendered) {
  const bool inserted = members_.emplace(std::string(key), std::move(rendered)).second;
  TW_ASSERT(inserted, "a canonical JSON object may not repeat a key");
}

void CanonicalJsonObject::integer(std::string_view key, int64_t value) { add(key, std::to_string(value)); }
void CanonicalJsonObject::unsigned_integer(std::string_view key, uint64_t value) { add(key, std::to_string(value)); }
void CanonicalJsonObject::number(std::string_view key, double value) { add(key, canonical_json_number(value)); }
void CanonicalJsonObject::string(std::string_view key, std::string_view value) {
  add(key, canonical_json_string(value));
}
void CanonicalJsonObject::boolean(std::string_view key, bool value) { add(key, value ? "true" : "false"); }
void CanonicalJsonObject::object(std::string_view key, const CanonicalJsonObject& value) { add(key, value.text()); }
void CanonicalJsonObject::array(std::string_view key, const std::vector<CanonicalJsonObject>& elements) {
  std::string out = "[";
  for (std::size_t i = 0; i < elements.size(); ++i) {
    if (i != 0) out.push_back(',');
    out += elements[i].text();
  }
  out.push_back(']');
  add(key, std::move(out));
}

std::string CanonicalJsonObject::text() const {
  std::string out = "{";
  bool first = true;
  for (const auto& [key, rendered] : members_) {
    if (!first) out.push_back(',');
    first = false;
    out += canonical_json_string(key);
    out.push_back(':');
    out += rendered;
  }
  out.push_back('}');
  return out;
}

}  // namespace tickwire

// Address parsing and printing without the C resolver: text from config files and the command line
// is turned into an endpoint here, strictly (no DNS, no octal, no zone ids), so every caller agrees
// on what "127.0.0.1:40000" or "[::1]:40000" means and printing gives back text that parses again.
#include "tickwire/transport/address.h"

#include <bit>
#include <cstdio>
#include <cstring>

namespace tickwire {
namespace {

constexpr std::size_t kMaxAddressTextChars = 64;  // "[ffff:...:255.255.255.255]:65535" fits well under this

bool is_digit(char c) { return c >= '0' && c <= '9'; }

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Decimal without sign or leading zeros ("0" itself is fine), at most max_value.
std::optional<uint32_t> parse_decimal(std::string_view text, uint32_t max_value) {
  if (text.empty() || text.size() > 5) return std::nullopt;
  if (text.size() > 1 && text[0] == '0') return std::nullopt;
  uint32_t value = 0;
  for (char c : text) {
    if (!is_digit(c)) return std::nullopt;
    value = value * 10 + static_cast<uint32_t>(c - '0');
  }
  if (value > max_value) return std::nullopt;
  return value;
}

std::optional<std::array<uint8_t, 4>> parse_ipv4_bytes(std::string_view text) {
  std::array<uint8_t, 4> out{};
  for (std::size_t i = 0; i < 4; ++i) {
    const std::size_t dot = text.find('.');
    const bool last = i == 3;
    if (last != (dot == std::string_view::npos)) return std::nullopt;
    const std::string_view part = last ? text : text.substr(0, dot);
    if (part.size() > 3) return std::nullopt;
    const auto value = parse_decimal(part, 255);
    if (!value) return std::nullopt;
    out[i] = static_cast<uint8_t>(*value);
    if (!last) text.remove_prefix(dot + 1);
  }
  return out;
}

// Splits IPv6 text on ':' into groups; a trailing dotted IPv4 counts as two groups. Returns the
// number of groups written, or nullopt if any piece is malformed.
std::optional<std::size_t> parse_ipv6_groups(std::string_view text, uint16_t* out, std::size_t max_groups,
                                             bool allow_dotted_tail) {
  std::size_t count = 0;
  while (!text.empty()) {
    const std::size_t colon = text.find(':');
    const std::string_view piece = colon == std::string_view::npos ? text : text.substr(0, colon);
    if (colon == std::string_view::npos && piece.find('.') != std::string_view::npos) {
      const auto v4 = parse_ipv4_bytes(piece);
      if (!allow_dotted_tail || !v4 || count + 2 > max_groups) return std::nullopt;
      out[count++] = static_cast<uint16_t>((*v4)[0] << 8 | (*v4)[1]);
      out[count++] = static_cast<uint16_t>((*v4)[2] << 8 | (*v4)[3]);
      return count;
    }
    if (piece.empty() || piece.size() > 4 || count >= max_groups) return std::nullopt;
    uint32_t value = 0;
    for (char c : piece) {
      const int h = hex_value(c);
      if (h < 0) return std::nullopt;
      value = value << 4 | static_cast<uint32_t>(h);
    }
    out[count++] = static_cast<uint16_t>(value);
    if (colon == std::string_view::npos) break;
    text.remove_prefix(colon + 1);
    if (text.empty()) return std::nullopt;  // a trailing single ':'
  }
  return count;
}

std::optional<std::array<uint16_t, 8>> parse_ipv6_text(std::string_view text) {
  std::array<uint16_t, 8> groups{};
  const std::size_t gap = text.find("::");
  if (gap == std::string_view::npos) {
    const auto n = parse_ipv6_groups(text, groups.data(), 8, true);
    if (!n || *n != 8) return std::nullopt;
    return groups;
  }
  if (text.find("::", gap + 1) != std::string_view::npos) return std::nullopt;  // only one "::"
  uint16_t head[8]{};
  uint16_t tail[8]{};
  const auto n_head = parse_ipv6_groups(text.substr(0, gap), head, 7, false);
  if (!n_head) return std::nullopt;
  const std::string_view tail_text = text.substr(gap + 2);
  if (!tail_text.empty() && tail_text[0] == ':') return std::nullopt;  // ":::"
  const auto n_tail = parse_ipv6_groups(tail_text, tail, 7, true);
  if (!n_tail || *n_head + *n_tail > 7) return std::nullopt;  // "::" stands for at least one group
  for (std::size_t i = 0; i < *n_head; ++i) groups[i] = head[i];
  for (std::size_t i = 0; i < *n_tail; ++i) groups[8 - *n_tail + i] = tail[i];
  return groups;
}

bool equals_ignore_case(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    char c = a[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != b[i]) return false;
  }
  return true;
}

std::optional<Address> parse_host(std::string_view host, uint16_t port) {
  if (equals_ignore_case(host, "localhost")) return Address::ipv4(127, 0, 0, 1, port);
  if (host.find(':') != std::string_view::npos) {
    const auto groups = parse_ipv6_text(host);
    if (!groups) return std::nullopt;
    return Address::ipv6(*groups, port);
  }
  const auto v4 = parse_ipv4_bytes(host);
  if (!v4) return std::nullopt;
  return Address::ipv4((*v4)[0], (*v4)[1], (*v4)[2], (*v4)[3], port);
}

std::array<uint16_t, 8> groups_of(const std::array<uint8_t, 16>& bytes) {
  std::array<uint16_t, 8> groups{};
  for (std::size_t i = 0; i < 8; ++i) groups[i] = static_cast<uint16_t>(bytes[2 * i] << 8 | bytes[2 * i + 1]);
  return groups;
}

// RFC 5952: lowercase hex, no leading zeros, the longest run (>= 2) of zero groups as "::".
std::string ipv6_text(const std::array<uint8_t, 16>& bytes, bool mapped) {
  if (mapped) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "::ffff:%u.%u.%u.%u", bytes[12], bytes[13], bytes[14], bytes[15]);
    return buf;
  }
  const auto groups = groups_of(bytes);
  std::size_t best_start = 8, best_len = 0;
  for (std::size_t i = 0; i < 8;) {
    if (groups[i] != 0) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < 8 && groups[j] == 0) ++j;
    if (j - i > best_len) {
      best_start = i;
      best_len = j - i;
    }
    i = j;
  }
  if (best_len < 2) best_start = 8;
  std::string out;
  for (std::size_t i = 0; i < 8; ++i) {
    if (i == best_start) {
      out += "::";
      i += best_len - 1;
      continue;
    }
    if (!out.empty() && out.back() != ':') out += ':';
    char buf[8];
    std::snprintf(buf, sizeof buf, "%x", static_cast<unsigned>(groups[i]));
    out += buf;
  }
  return out;
}

}  // namespace

Address Address::ipv4(uint8_t a, uint8_t b, uint8_t c, uint8_t d, uint16_t port) {
  Address out;
  out.family_ = Family::ipv4;
  out.bytes_[0] = a;
  out.bytes_[1] = b;
  out.bytes_[2] = c;
  out.bytes_[3] = d;
  out.port_ = port;
  return out;
}

Address Address::ipv6(const std::array<uint16_t, 8>& groups, uint16_t port) {
  std::array<uint8_t, 16> bytes{};
  for (std::size_t i = 0; i < 8; ++i) {
    bytes[2 * i] = static_cast<uint8_t>(groups[i] >> 8);
    bytes[2 * i + 1] = static_cast<uint8_t>(groups[i] & 0xff);
  }
  return ipv6_from_bytes(bytes, port);
}

Address Address::ipv6_from_bytes(const std::array<uint8_t, 16>& bytes, uint16_t port) {
  Address out;
  out.family_ = Family::ipv6;
  out.bytes_ = bytes;
  out.port_ = port;
  return out;
}

Address Address::ipv4_mapped(const Address& v4) {
  if (v4.family_ != Family::ipv4) return v4;
  std::array<uint8_t, 16> bytes{};
  bytes[10] = 0xff;
  bytes[11] = 0xff;
  for (std::size_t i = 0; i < 4; ++i) bytes[12 + i] = v4.bytes_[i];
  return ipv6_from_bytes(bytes, v4.port_);
}

std::optional<Address> Address::parse(std::string_view text, std::optional<uint16_t> default_port) {
  if (text.empty() || text.size() > kMaxAddressTextChars) return std::nullopt;
  std::string_view host = text;
  std::optional<std::string_view> port_text;
  if (text[0] == '[') {
    const std::size_t close = text.find(']');
    if (close == std::string_view::npos) return std::nullopt;
    host = text.substr(1, close - 1);
    const std::string_view rest = text.substr(close + 1);
    if (!rest.empty()) {
      if (rest[0] != ':') return std::nullopt;
      port_text = rest.substr(1);
    }
    if (host.find(':') == std::string_view::npos) return std::nullopt;  // brackets are for IPv6 only
  } else {
    const std::size_t first = text.find(':');
    const bool bare_ipv6 = first != std::string_view::npos && text.find(':', first + 1) != std::string_view::npos;
    if (bare_ipv6) {
      if (!default_port) return std::nullopt;  // "::1:5" is ambiguous without brackets
    } else if (first != std::string_view::npos) {
      host = text.substr(0, first);
      port_text = text.substr(first + 1);
    }
  }
  uint16_t port = 0;
  if (port_text) {
    const auto value = parse_decimal(*port_text, 65535);
    if (!value) return std::nullopt;
    port = static_cast<uint16_t>(*value);
  } else if (default_port) {
    port = *default_port;
  } else {
    return std::nullopt;
  }
  return parse_host(host, port);
}

std::string Address::to_string() const {
  switch (family_) {
    case Family::ipv4: {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%u.%u.%u.%u:%u", bytes_[0], bytes_[1], bytes_[2], bytes_[3],
                    static_cast<unsigned>(port_));
      return buf;
    }
    case Family::ipv6: {
      // Appended piecewise: GCC 12 at -O3 reports a false -Wrestrict on "[" + std::string.
      std::string out;
      out.reserve(48);
      out.push_back('[');
      out.append(ipv6_text(bytes_, is_ipv4_mapped()));
      out.append("]:");
      out.append(std::to_string(port_));
      return out;
    }
    case Family::none:
      break;
  }
  return "none";
}

bool Address::is_loopback() const {
  if (family_ == Family::ipv4) return bytes_[0] == 127;
  if (family_ != Family::ipv6) return false;
  for (std::size_t i = 0; i < 15; ++i) {
    if (bytes_[i] != 0) return false;
  }
  return bytes_[15] == 1;
}

bool Address::is_unspecified() const {
  if (family_ == Family::none) return false;
  const std::size_t n = family_ == Family::ipv4 ? 4 : 16;
  for (std::size_t i = 0; i < n; ++i) {
    if (bytes_[i] != 0) return false;
  }
  return true;
}

bool Address::is_ipv4_mapped() const {
  if (family_ != Family::ipv6) return false;
  for (std::size_t i = 0; i < 10; ++i) {
    if (bytes_[i] != 0) return false;
  }
  return bytes_[10] == 0xff && bytes_[11] == 0xff;
}

std::optional<Address> Address::unmapped_ipv4() const {
  if (!is_ipv4_mapped()) return std::nullopt;
  return ipv4(bytes_[12], bytes_[13], bytes_[14], bytes_[15], port_);
}

std::size_t AddressHash::operator()(const Address& a) const noexcept {
  // The address bytes as two words and the family with the port as a third, each folded in by a
  // multiply and the result finished by a 64-bit mixer (every input bit reaches every output bit):
  // a handful of multiplies where a byte-at-a-time hash took one per byte. Stable across runs,
  // used for lookup only.
  constexpr uint64_t kOdd = 0x9E3779B97F4A7C15ULL;
  uint64_t low = 0, high = 0;
  std::memcpy(&low, a.bytes().data(), sizeof low);
  std::memcpy(&high, a.bytes().data() + sizeof low, sizeof high);
  const uint64_t rest = (static_cast<uint64_t>(a.port()) << 8) | static_cast<uint64_t>(a.family());
  uint64_t h = (low * kOdd) ^ std::rotl(high * kOdd + rest, 29);
  h ^= h >> 32;
  h *= 0xD6E8FEB86659FD93ULL;
  h ^= h >> 32;
  h *= 0xD6E8FEB86659FD93ULL;
  h ^= h >> 32;
  return static_cast<std::size_t>(h);
}

}  // namespace tickwire

// The HTTP/1.x response reader (fleet/http_response.h): the status line, then the header lines up to
// the blank line, then the body by Content-Length or to the close. Strict where leniency would let a
// confused peer smuggle a second meaning (two Content-Lengths that differ, a folded header line, a
// Transfer-Encoding), and every count and length bounded before it is believed.
#include "tickwire/fleet/http_response.h"

#include <optional>
#include <string_view>

namespace tickwire::fleet {
namespace {

constexpr std::string_view kLineEnd = "\r\n";
constexpr std::string_view kHeadEnd = "\r\n\r\n";

HttpResponseParse failed(HttpGetFailure why) {
  HttpResponseParse parse;
  parse.state = HttpParseState::failed;
  parse.failure = why;
  return parse;
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// RFC 9110's tchar: what a header name is made of.
bool is_token_char(char c) {
  if (is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) return true;
  return std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
}

// Visible text, spaces and tabs, and obs-text (bytes past 0x7f): no other control byte.
bool is_field_text(std::string_view text) {
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if ((byte < 0x20 && c != '\t') || byte == 0x7f) return false;
  }
  return true;
}

bool same_name(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
    if (lower(a[i]) != lower(b[i])) return false;
  }
  return true;
}

std::string_view trim_whitespace(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

// "HTTP/1.0 200 OK" or "HTTP/1.1 404" (the reason phrase may be absent): the status, or nullopt.
std::optional<unsigned> read_status_line(std::string_view line) {
  constexpr std::string_view kVersion = "HTTP/1.";
  if (line.size() < kVersion.size() + 5 || line.substr(0, kVersion.size()) != kVersion) return std::nullopt;
  line.remove_prefix(kVersion.size());
  if ((line[0] != '0' && line[0] != '1') || line[1] != ' ') return std::nullopt;
  line.remove_prefix(2);
  if (!is_digit(line[0]) || !is_digit(line[1]) || !is_digit(line[2])) return std::nullopt;
  const unsigned status = static_cast<unsigned>((line[0] - '0') * 100 + (line[1] - '0') * 10 + (line[2] - '0'));
  line.remove_prefix(3);
  if (!line.empty() && (line[0] != ' ' || !is_field_text(line))) return std::nullopt;
  if (status < 200 || status > 599) return std::nullopt;  // 1xx: never owed to a GET without Expect
  return status;
}

// A Content-Length value: decimal digits only, at most `cap` (anything past the cap is too large
// to take, whatever its exact value).
struct Length {
  bool valid = false;
  bool past_cap = false;
  std::size_t bytes = 0;
};
Length read_content_length(std::string_view text, std::size_t cap) {
  Length length;
  if (text.empty()) return length;
  for (const char c : text) {
    if (!is_digit(c)) return length;
    const auto digit = static_cast<std::size_t>(c - '0');
    if (digit > cap || length.bytes > (cap - digit) / 10) length.past_cap = true;  // stops growing: no overflow
    if (!length.past_cap) length.bytes = length.bytes * 10 + digit;
  }
  length.valid = true;
  return length;
}

// What the header lines say about the body and the content type.
struct Head {
  std::optional<std::size_t> content_length;
  std::string_view content_type;
  bool has_content_type = false;
};

// Reads the header lines in `lines` (each ending in CRLF); nullopt and `why` set on failure.
std::optional<Head> read_header_lines(std::string_view lines, std::size_t cap, HttpGetFailure& why) {
  Head head;
  std::size_t count = 0;
  while (!lines.empty()) {
    const std::size_t end = lines.find(kLineEnd);  // present: the block ends in CRLF
    const std::string_view line = lines.substr(0, end);
    lines.remove_prefix(end + kLineEnd.size());
    why = HttpGetFailure::too_large;
    if (++count > kMaxHttpResponseHeaderLines) return std::nullopt;
    why = HttpGetFailure::malformed;
    const std::size_t colon = line.find(':');
    if (colon == std::string_view::npos || colon == 0) return std::nullopt;  // a folded line starts with a space: no name
    const std::string_view name = line.substr(0, colon);
    for (const char c : name)
      if (!is_token_char(c)) return std::nullopt;
    const std::string_view value = trim_whitespace(line.substr(colon + 1));
    if (!is_field_text(value)) return std::nullopt;
    if (same_name(name, "Transfer-Encoding")) {
      why = HttpGetFailure::chunked_refused;
      return std::nullopt;
    }
    if (same_name(name, "Content-Length")) {
      const Length length = read_content_length(value, cap);
      if (!length.valid) return std::nullopt;
      if (length.past_cap) {
        why = HttpGetFailure::too_large;
        return std::nullopt;
      }
      if (head.content_length && *head.content_length != length.bytes) return std::nullopt;
      head.content_length = length.bytes;
    } else if (same_name(name, "Content-Type") && !head.has_content_type) {
      head.content_type = value;
      head.has_content_type = true;
    }
  }
  return head;
}

}  // namespace

HttpResponseParse parse_http_response(std::span<const uint8_t> received, bool closed, std::size_t max_response_bytes) {
  if (received.size() > max_response_bytes) return failed(HttpGetFailure::too_large);
  const std::string_view text(reinterpret_cast<const char*>(received.data()), received.size());
  const std::size_t head_end = text.find(kHeadEnd);
  if (head_end == std::string_view::npos) {
    return closed ? failed(HttpGetFailure::closed_early) : HttpResponseParse{};
  }
  const std::size_t status_end = text.find(kLineEnd);  // at or before head_end
  const auto status = read_status_line(text.substr(0, status_end));
  if (!status) return failed(HttpGetFailure::malformed);
  const std::size_t body_at = head_end + kHeadEnd.size();
  HttpGetFailure why = HttpGetFailure::malformed;
  const std::size_t lines_at = status_end + kLineEnd.size();  // each header line with its CRLF
  const std::string_view lines = text.substr(lines_at, head_end + kLineEnd.size() - lines_at);
  const auto head = read_header_lines(lines, max_response_bytes, why);
  if (!head) return failed(why);

  HttpResponseParse parse;
  parse.response.status = *status;
  parse.response.content_type = std::string(head->content_type);
  const std::string_view rest = text.substr(body_at);
  if (*status == 204 || *status == 304) {
    parse.state = HttpParseState::complete;  // never a body, whatever a header says
    return parse;
  }
  if (head->content_length) {
    if (*head->content_length > max_response_bytes - body_at) return failed(HttpGetFailure::too_large);
    if (rest.size() < *head->content_length) {
      return closed ? failed(HttpGetFailure::closed_early) : HttpResponseParse{};
    }
    parse.response.body = std::string(rest.substr(0, *head->content_length));
  } else {
    if (!closed) return HttpResponseParse{};  // the body runs to the close
    parse.response.body = std::string(rest);
  }
  parse.state = HttpParseState::complete;
  return parse;
}

}  // namespace tickwire::fleet

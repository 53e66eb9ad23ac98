// libFuzzer target: the HTTP response reader (fleet/http_response.h), which reads whatever a peer
// sends a bot's GET. The input is read whole (open and closed) and under a cap the input picks;
// whatever it makes of the bytes must hold: a body never longer than what was received, a status
// in 200..599, never "incomplete" once closed, and a complete answer that stays the same answer
// when more bytes follow it (the reader is handed every prefix on the wire, and stops at the first
// complete one).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <vector>

#include "tickwire/fleet/http_response.h"

using namespace tickwire::fleet;

namespace {

bool same(const HttpResponseParse& a, const HttpResponseParse& b) {
  if (a.state != b.state) return false;
  if (a.state == HttpParseState::failed) return a.failure == b.failure;
  return a.state != HttpParseState::complete ||
         (a.response.status == b.response.status && a.response.content_type == b.response.content_type &&
          a.response.body == b.response.body);
}

void check(const HttpResponseParse& p, std::size_t received) {
  if (p.state != HttpParseState::complete) return;
  if (p.response.status < 200 || p.response.status > 599 || p.response.body.size() > received) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::size_t cap = 64 + static_cast<std::size_t>(data[0]) * 16;  // 64..4144: caps the input can reach
  const std::span<const uint8_t> bytes(data + 1, size - 1);
  const HttpResponseParse open = parse_http_response(bytes, false, cap);
  const HttpResponseParse closed = parse_http_response(bytes, true, cap);
  check(open, bytes.size());
  check(closed, bytes.size());
  if (closed.state == HttpParseState::incomplete) std::abort();  // nothing more will come: an answer or a reason
  if (open.state == HttpParseState::complete && !same(open, closed)) std::abort();
  if (open.state == HttpParseState::complete && bytes.size() < cap) {
    std::vector<uint8_t> longer(bytes.begin(), bytes.end());
    longer.push_back('X');
    if (!same(parse_http_response(longer, false, cap), open)) std::abort();
  }
  // Every shorter prefix (the reader sees each on the wire): once complete, the whole is that same
  // answer, or too large (more bytes than the cap) for good.
  for (std::size_t cut = 0; cut < bytes.size(); cut += 1 + bytes.size() / 64) {
    const HttpResponseParse prefix = parse_http_response(bytes.first(cut), false, cap);
    if (prefix.state != HttpParseState::complete) continue;
    const bool past_cap = open.state == HttpParseState::failed && open.failure == HttpGetFailure::too_large;
    if (open.state == HttpParseState::complete ? !same(prefix, open) : !past_cap) std::abort();
  }
  return 0;
}

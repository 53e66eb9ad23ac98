// Reading an HTTP/1.x response off a socket, as a pure function of the bytes received so far and
// whether the peer has closed: fleet::http_get calls it after every read, the unit tests and the
// fuzz target call it on any bytes. It never reads past what it was given, never trusts a length it
// has not bounded, and says by name why a response cannot be taken.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "tickwire/core/reasons.h"
#include "tickwire/fleet/http_route.h"

namespace tickwire::fleet {

// Why a GET gave no response. The parser's are the last four; the socket's are the first five.
TW_REASONS(HttpGetFailure,
           bad_address,      // not a numeric HOST:PORT with a port (nothing here resolves DNS)
           bad_target,       // the path?query is empty, does not start with '/', is past its cap, or holds a space or control byte
           connect_failed,   // refused, unreachable, or no socket could be made
           send_failed,      // the connection broke while the request went out
           timed_out,        // the whole exchange (connect, send, read) outlasted its timeout
           closed_early,     // the connection ended (or was reset) before the response was whole
           too_large,        // past the response cap (headers and body), or past kMaxHttpResponseHeaderLines
           malformed,        // not an HTTP/1.x response: its status line, a header line, its Content-Length
           chunked_refused)  // a Transfer-Encoding (chunked or any): only Content-Length or the close ends a body here

inline constexpr std::size_t kDefaultMaxHttpResponseBytes = 64 * 1024;
inline constexpr std::size_t kMaxHttpResponseHeaderLines = 64;

enum class HttpParseState : uint8_t {
  incomplete,  // more bytes are needed (never returned once the peer has closed)
  complete,    // `response` holds the answer; any bytes past its end are not part of it
  failed,      // `failure` says why
};

struct HttpResponseParse {
  HttpParseState state = HttpParseState::incomplete;
  HttpGetFailure failure = HttpGetFailure::malformed;  // meaningful when failed
  HttpResponse response;  // when complete: status, Content-Type ("" when absent), body
};

// `received`: every byte read so far, from the first; `closed`: the peer closed its side (nothing
// more will come). More than `max_response_bytes` received, or announced by Content-Length, is
// too_large. A body ends at its Content-Length, or without one at the close; 204 and 304 have none.
// A 1xx interim answer is malformed (a GET without Expect is never owed one).
HttpResponseParse parse_http_response(std::span<const uint8_t> received, bool closed,
                                      std::size_t max_response_bytes = kDefaultMaxHttpResponseBytes);

}  // namespace tickwire::fleet

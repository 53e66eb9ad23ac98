// A small blocking HTTP/1.1 GET client, for the fleet's own services (a bot asking the matchmaker
// for a seat): one request per connection (Connection: close), a numeric address (nothing here
// resolves DNS), one overall timeout over connect, send and read, and a cap on what it takes back.
// It blocks its caller, so it belongs on a worker thread, never on a frame or tick loop. Like a
// socket, it reads the real clock (clock/system_clock.h) for its deadline.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

#include "tickwire/clock/time.h"
#include "tickwire/fleet/http_response.h"
#include "tickwire/fleet/http_route.h"

namespace tickwire::fleet {

inline constexpr std::size_t kMaxHttpTargetBytes = 8192;  // a longer path?query is refused (bad_target)
inline constexpr std::size_t kMaxHttpGetResponseBytes = 16 * 1024 * 1024;  // the largest cap a caller may ask for

struct HttpGetResult {
  std::optional<HttpGetFailure> failure;  // set: no response
  HttpResponse response;                  // the status, Content-Type and body, any status
  explicit operator bool() const { return !failure; }
};

// GET `target` ("/match?actor=7": a path, and a query already percent-encoded, see
// http_query_value.h) from `host_port` ("127.0.0.1:8080", "[::1]:8080"). `max_response_bytes`
// (headers and body) is at most kMaxHttpGetResponseBytes.
HttpGetResult http_get(std::string_view host_port, std::string_view target, Duration timeout,
                       std::size_t max_response_bytes = kDefaultMaxHttpResponseBytes);

}  // namespace tickwire::fleet

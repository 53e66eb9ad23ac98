// What the operator's HTTP endpoint serves, as plain values: a route is an exact path and the
// handler that answers a GET there. Apart from the endpoint itself (fleet/http_endpoint.h, its own
// library), so code that only builds answers (the probes, the metrics) links no HTTP server.
#pragma once

#include <functional>
#include <string>

namespace tickwire::fleet {

inline constexpr const char* kPlainTextContentType = "text/plain; charset=utf-8";

struct HttpResponse {
  unsigned status = 200;
  std::string content_type = kPlainTextContentType;
  std::string body;
};

// Runs on the endpoint's own thread, one request at a time: it may read only data that is safe to
// read from another thread (atomics, or a copy published under a mutex), never the loop's state.
using HttpHandler = std::function<HttpResponse()>;

struct HttpRoute {
  std::string path;  // matched exactly: "/metrics" (no query, no trailing-slash folding)
  HttpHandler handler;
};

}  // namespace tickwire::fleet

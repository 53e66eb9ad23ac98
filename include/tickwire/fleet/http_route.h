// What the operator's HTTP endpoint serves, as plain values: a route is an exact path and the
// handler that answers a GET there, given the request's query parameters. Apart from the endpoint
// itself (fleet/http_endpoint.h, its own library), so code that only builds answers (the probes,
// the metrics, the matchmaker's answers) links no HTTP server.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tickwire::fleet {

inline constexpr const char* kPlainTextContentType = "text/plain; charset=utf-8";

struct HttpResponse {
  unsigned status = 200;
  std::string content_type = kPlainTextContentType;
  std::string body;
};

inline constexpr std::size_t kMaxHttpQueryParams = 8;        // a request with more is refused (400)
inline constexpr std::size_t kMaxHttpQueryValueBytes = 2048;  // a longer key or value is refused (400)

// A GET's query parameters, percent-decoded, in the order given (a key given twice: the first wins).
struct HttpQuery {
  std::vector<std::pair<std::string, std::string>> params;

  const std::string* find(std::string_view key) const {
    for (const auto& [k, v] : params)
      if (k == key) return &v;
    return nullptr;
  }
};

// Runs on the endpoint's own thread, one request at a time: it may read only data that is safe to
// read from another thread (atomics, or a copy published under a mutex), never the loop's state.
using HttpHandler = std::function<HttpResponse(const HttpQuery&)>;

struct HttpRoute {
  std::string path;  // matched exactly: "/metrics" (no query, no trailing-slash folding)
  HttpHandler handler;
};

}  // namespace tickwire::fleet

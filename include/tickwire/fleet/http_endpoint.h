// The operator's HTTP/1.1 endpoint (/healthz, /readyz, /metrics, a dashboard): a small server on
// libmicrohttpd with a fixed table of GET routes and of server-sent-event streams (EventStream). It exists so a process can be probed and scraped by the tools
// a fleet runs on without the loop ever blocking on a socket: requests are parsed and answered on
// libmicrohttpd's one internal thread, which calls the handlers (fleet/http_route.h says what they
// may read); with streams, each connection has its own thread (a stream's reader waits for the
// next value), so the connection cap is also the thread cap. Everything is capped: connections, the time one may stay open, the bytes of a
// request's headers, a query's parameters; a request body is refused.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "tickwire/core/reasons.h"
#include "tickwire/fleet/event_stream.h"
#include "tickwire/fleet/http_route.h"
#include "tickwire/transport/address.h"

struct MHD_Daemon;

namespace tickwire::fleet {

inline constexpr std::size_t kMaxHttpRoutes = 16;
inline constexpr std::size_t kMaxHttpStreamRoutes = 4;

// A path answered with a server-sent-event stream of `stream`'s values ("data: VALUE\n\n", each
// newest value once, a comment line every keep_alive when nothing new comes). The stream must
// outlive the endpoint; its reader cap refuses a connection past it (503).
struct HttpStreamRoute {
  std::string path;
  EventStream* stream = nullptr;
};

struct HttpEndpointConfig {
  std::string listen = "127.0.0.1:0";     // numeric HOST:PORT ("[::1]:9100"); port 0: any free port
  uint32_t max_connections = 16;          // open at once; more wait in the listen backlog
  // Open at once from one address (0: no cap of its own): past it a connection is closed at once,
  // so one client holding half-sent requests cannot take every slot from the others.
  uint32_t max_connections_per_address = 0;
  uint32_t connection_timeout_s = 5;      // an idle or slow connection is closed after this long
  std::size_t max_header_bytes = 16384;   // a connection's request buffer (libmicrohttpd's memory limit)
  int listen_backlog = 16;
  uint32_t stream_keep_alive_ms = 1000;   // a stream with nothing new sends a comment this often
};

// Answers other than a route's own, by reason.
TW_REASONS(HttpRefusal,
           not_found,       // no route has this path: 404
           wrong_method,    // anything but GET: 405 with Allow: GET
           body_refused,    // the request carried a body: 413
           handler_failed,  // the handler threw: 500
           bad_query,       // past kMaxHttpQueryParams, or a key or value past kMaxHttpQueryValueBytes: 400
           streams_full)    // a stream's every reader seat is taken: 503

class HttpEndpoint;

struct HttpEndpointOpen {
  std::unique_ptr<HttpEndpoint> endpoint;  // null on failure
  std::string error;                       // e.g. "bind 127.0.0.1:80: Permission denied"
  explicit operator bool() const { return endpoint != nullptr; }
};

class HttpEndpoint {
 public:
  // Binds and listens on `config.listen`, then serves `routes` and `streams` (fixed from here on:
  // at most kMaxHttpRoutes and kMaxHttpStreamRoutes, paths unique and starting with '/') until
  // destroyed. Never throws.
  static HttpEndpointOpen open(const HttpEndpointConfig& config, std::vector<HttpRoute> routes,
                               std::vector<HttpStreamRoute> streams = {});
  ~HttpEndpoint();  // stops the thread and closes every connection
  HttpEndpoint(const HttpEndpoint&) = delete;
  HttpEndpoint& operator=(const HttpEndpoint&) = delete;

  // Where it listens, the port chosen when port 0 was asked: "127.0.0.1:43121".
  const Address& bound_address() const { return bound_; }
  // Requests answered by a route's handler, and the others by reason (readable from any thread).
  uint64_t answered() const { return answered_.load(std::memory_order_relaxed); }
  uint64_t refused(HttpRefusal reason) const {
    return refused_[static_cast<std::size_t>(reason)].load(std::memory_order_relaxed);
  }

  // libmicrohttpd's entry points (static trampolines in the .cpp call them); not for callers.
  HttpResponse answer(const char* path, const char* method, bool has_body, const HttpQuery* query);
  // The stream route at `path` with a reader seat taken for the caller (null: none there, or every
  // seat taken: counted streams_full); the caller leave()s it when the connection ends.
  EventStream* join_stream(const char* path, const char* method, bool has_body);
  uint32_t keep_alive_ms() const { return keep_alive_ms_; }
  void count_answered() { answered_.fetch_add(1, std::memory_order_relaxed); }

 private:
  HttpEndpoint(Address bound, std::vector<HttpRoute> routes, std::vector<HttpStreamRoute> streams, uint32_t keep_alive_ms)
      : bound_(bound), routes_(std::move(routes)), streams_(std::move(streams)), keep_alive_ms_(keep_alive_ms) {}

  Address bound_;
  const std::vector<HttpRoute> routes_;
  const std::vector<HttpStreamRoute> streams_;
  const uint32_t keep_alive_ms_;
  MHD_Daemon* daemon_ = nullptr;
  std::atomic<uint64_t> answered_{0};
  std::atomic<uint64_t> refused_[static_cast<std::size_t>(HttpRefusal::count_)] = {};
};

}  // namespace tickwire::fleet

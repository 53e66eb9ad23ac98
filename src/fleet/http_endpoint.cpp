// The operator's HTTP endpoint on libmicrohttpd (fleet/http_endpoint.h). We open the listening
// socket ourselves so a bind failure comes back as a plain message with its errno, and hand it to
// libmicrohttpd, which parses requests (answering malformed ones 400 itself) on its one internal
// thread (a thread per connection when it serves streams); this file only routes: exact path, GET
// only, no body, a capped query; and feeds each stream connection its EventStream's values.
#include "tickwire/fleet/http_endpoint.h"

#include <microhttpd.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <algorithm>
#include <chrono>
#include <cstring>
#include <optional>
#include <set>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "tickwire/transport/socket_address.h"

namespace tickwire::fleet {
namespace {

struct Listener {
  int fd = -1;
  Address bound;
  std::string error;
};

Listener listen_on(const Address& address, int backlog) {
  Listener l;
  const std::string where = address.to_string();
  const int family = address.family() == Address::Family::ipv4 ? AF_INET : AF_INET6;
  l.fd = ::socket(family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (l.fd < 0) {
    l.error = fmt::format("socket for {}: {}", where, std::strerror(errno));
    return l;
  }
  const int on = 1;
  (void)::setsockopt(l.fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);  // a restarted server rebinds at once
  if (family == AF_INET6) (void)::setsockopt(l.fd, IPPROTO_IPV6, IPV6_V6ONLY, &on, sizeof on);
  sockaddr_storage storage;
  socklen_t length = 0;
  const char* step = "bind";
  bool ok = to_sockaddr(address, family, storage, length) &&
            ::bind(l.fd, reinterpret_cast<const sockaddr*>(&storage), length) == 0;
  if (ok) {
    step = "listen";
    ok = ::listen(l.fd, backlog) == 0;
  }
  sockaddr_storage bound;
  socklen_t bound_length = sizeof bound;
  if (ok) {
    step = "getsockname";
    ok = ::getsockname(l.fd, reinterpret_cast<sockaddr*>(&bound), &bound_length) == 0;
  }
  if (!ok) {
    l.error = fmt::format("{} {}: {}", step, where, std::strerror(errno));
    ::close(l.fd);
    l.fd = -1;
    return l;
  }
  l.bound = from_sockaddr(bound);
  return l;
}

std::string check_path(std::set<std::string>& paths, const std::string& path) {
  if (path.empty() || path.front() != '/') return fmt::format("route \"{}\": a path starts with '/'", path);
  if (!paths.insert(path).second) return fmt::format("route {}: given twice", path);
  return {};
}

std::string check_routes(const std::vector<HttpRoute>& routes, const std::vector<HttpStreamRoute>& streams) {
  if (routes.size() > kMaxHttpRoutes) return fmt::format("{} routes (at most {})", routes.size(), kMaxHttpRoutes);
  if (streams.size() > kMaxHttpStreamRoutes) return fmt::format("{} streams (at most {})", streams.size(), kMaxHttpStreamRoutes);
  std::set<std::string> paths;
  for (const HttpRoute& r : routes) {
    if (std::string bad = check_path(paths, r.path); !bad.empty()) return bad;
    if (!r.handler) return fmt::format("route {}: no handler", r.path);
  }
  for (const HttpStreamRoute& r : streams) {
    if (std::string bad = check_path(paths, r.path); !bad.empty()) return bad;
    if (r.stream == nullptr) return fmt::format("stream {}: no EventStream", r.path);
  }
  return {};
}

// libmicrohttpd's complaints (a connection it gave up, a socket error) go to the log at debug:
// hostile or broken clients must not fill an operator's log.
void log_from_daemon(void*, const char* format, va_list args) {
  char line[512];
  std::vsnprintf(line, sizeof line, format, args);
  spdlog::debug("ops http: {}", line);
}

bool carries_body(MHD_Connection* connection) {
  const char* length = MHD_lookup_connection_value(connection, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
  if (length != nullptr && std::strcmp(length, "0") != 0) return true;
  return MHD_lookup_connection_value(connection, MHD_HEADER_KIND, MHD_HTTP_HEADER_TRANSFER_ENCODING) != nullptr;
}

MHD_Result respond(MHD_Connection* connection, const HttpResponse& answer) {
  MHD_Response* response =
      MHD_create_response_from_buffer(answer.body.size(), const_cast<char*>(answer.body.data()), MHD_RESPMEM_MUST_COPY);
  if (response == nullptr) return MHD_NO;
  (void)MHD_add_response_header(response, MHD_HTTP_HEADER_CONTENT_TYPE, answer.content_type.c_str());
  (void)MHD_add_response_header(response, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
  (void)MHD_add_response_header(response, "X-Content-Type-Options", "nosniff");
  if (answer.status == MHD_HTTP_METHOD_NOT_ALLOWED) (void)MHD_add_response_header(response, MHD_HTTP_HEADER_ALLOW, "GET");
  const MHD_Result queued = MHD_queue_response(connection, answer.status, response);
  MHD_destroy_response(response);
  return queued;
}

// The query's parameters (libmicrohttpd has percent-decoded them); null when past the caps.
MHD_Result add_query_param(void* into, MHD_ValueKind, const char* key, const char* value) {
  auto* query = static_cast<std::optional<HttpQuery>*>(into);
  const std::string_view v = value == nullptr ? std::string_view() : std::string_view(value);
  if (!*query || (*query)->params.size() >= kMaxHttpQueryParams || std::strlen(key) > kMaxHttpQueryValueBytes ||
      v.size() > kMaxHttpQueryValueBytes) {
    query->reset();
    return MHD_NO;
  }
  (*query)->params.emplace_back(key, v);
  return MHD_YES;
}

// One stream connection: the values it has seen and the event being written out.
struct StreamReader {
  HttpEndpoint* endpoint;
  EventStream* stream;
  uint64_t seen = 0;
  std::string event;  // "data: ...\n\n" or a keep-alive comment
  std::size_t sent = 0;
};

// An event for `value`: each of its lines a data line (a value is normally one JSON line).
void frame_event(const std::string& value, std::string& event) {
  event.clear();
  std::size_t from = 0;
  while (true) {
    const std::size_t end = value.find('\n', from);
    event += "data: ";
    event.append(value, from, end == std::string::npos ? std::string::npos : end - from);
    event += '\n';
    if (end == std::string::npos) break;
    from = end + 1;
  }
  event += '\n';
}

// libmicrohttpd asks for the next bytes (a connection's own thread, so waiting here is allowed).
ssize_t read_stream(void* cls, uint64_t, char* out, size_t max) {
  auto* r = static_cast<StreamReader*>(cls);
  try {
    while (r->sent == r->event.size()) {
      if (r->stream->released()) return MHD_CONTENT_READER_END_OF_STREAM;
      const auto value = r->stream->wait_newer(r->seen, std::chrono::milliseconds(r->endpoint->keep_alive_ms()));
      if (value != nullptr) {
        frame_event(*value, r->event);
      } else {
        r->event = ": keep-alive\n\n";  // also how a vanished client is found: the write fails
      }
      r->sent = 0;
    }
  } catch (...) {  // out of memory: end this stream, never unwind into C
    return MHD_CONTENT_READER_END_WITH_ERROR;
  }
  const std::size_t n = std::min(max, r->event.size() - r->sent);
  std::memcpy(out, r->event.data() + r->sent, n);
  r->sent += n;
  return static_cast<ssize_t>(n);
}

void free_stream(void* cls) {
  auto* r = static_cast<StreamReader*>(cls);
  r->stream->leave();
  delete r;
}

MHD_Result respond_stream(MHD_Connection* connection, HttpEndpoint& endpoint, EventStream& stream) {
  auto* reader = new StreamReader{&endpoint, &stream, 0, {}, 0};
  MHD_Response* response = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 16 * 1024, &read_stream, reader, &free_stream);
  if (response == nullptr) {
    free_stream(reader);
    return MHD_NO;
  }
  (void)MHD_add_response_header(response, MHD_HTTP_HEADER_CONTENT_TYPE, "text/event-stream");
  (void)MHD_add_response_header(response, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
  const MHD_Result queued = MHD_queue_response(connection, MHD_HTTP_OK, response);
  MHD_destroy_response(response);
  if (queued == MHD_YES) endpoint.count_answered();
  return queued;
}

// Called by libmicrohttpd once a request's headers are in (first call): answered there and then,
// so a body is never read (libmicrohttpd closes the connection after the answer instead).
MHD_Result on_request(void* self, MHD_Connection* connection, const char* url, const char* method, const char*,
                      const char*, size_t*, void**) {
  try {
    auto* endpoint = static_cast<HttpEndpoint*>(self);
    if (EventStream* stream = endpoint->join_stream(url, method, carries_body(connection))) {
      return respond_stream(connection, *endpoint, *stream);
    }
    std::optional<HttpQuery> query{HttpQuery{}};
    (void)MHD_get_connection_values(connection, MHD_GET_ARGUMENT_KIND, &add_query_param, &query);
    return respond(connection, endpoint->answer(url, method, carries_body(connection), query ? &*query : nullptr));
  } catch (...) {  // out of memory: the connection is dropped; nothing may unwind into C
    return MHD_NO;
  }
}

HttpResponse refusal(unsigned status, std::string body) { return HttpResponse{status, kPlainTextContentType, std::move(body)}; }

}  // namespace

HttpEndpointOpen HttpEndpoint::open(const HttpEndpointConfig& config, std::vector<HttpRoute> routes,
                                    std::vector<HttpStreamRoute> streams) {
  HttpEndpointOpen result;
  const auto address = Address::parse(config.listen);
  if (!address) {
    result.error = fmt::format("\"{}\": not a numeric HOST:PORT", config.listen);
    return result;
  }
  if (std::string bad = check_routes(routes, streams); !bad.empty()) {
    result.error = std::move(bad);
    return result;
  }
  Listener listener = listen_on(*address, config.listen_backlog);
  if (listener.fd < 0) {
    result.error = std::move(listener.error);
    return result;
  }
  // A stream's reader waits for values: each connection then needs its own thread.
  const unsigned threads = streams.empty() ? MHD_USE_AUTO_INTERNAL_THREAD
                                           : MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD;
  std::unique_ptr<HttpEndpoint> endpoint(
      new HttpEndpoint(listener.bound, std::move(routes), std::move(streams), config.stream_keep_alive_ms));
  endpoint->daemon_ = MHD_start_daemon(
      threads | MHD_USE_ERROR_LOG, 0, nullptr, nullptr, &on_request, endpoint.get(),
      MHD_OPTION_LISTEN_SOCKET, static_cast<MHD_socket>(listener.fd), MHD_OPTION_CONNECTION_LIMIT,
      static_cast<unsigned int>(config.max_connections), MHD_OPTION_PER_IP_CONNECTION_LIMIT,
      static_cast<unsigned int>(config.max_connections_per_address), MHD_OPTION_CONNECTION_TIMEOUT,
      static_cast<unsigned int>(config.connection_timeout_s), MHD_OPTION_CONNECTION_MEMORY_LIMIT,
      config.max_header_bytes, MHD_OPTION_EXTERNAL_LOGGER, &log_from_daemon, nullptr, MHD_OPTION_END);
  if (endpoint->daemon_ == nullptr) {
    ::close(listener.fd);
    result.error = fmt::format("serve {}: the HTTP server did not start (see the debug log)", listener.bound.to_string());
    return result;
  }
  result.endpoint = std::move(endpoint);
  return result;
}

HttpEndpoint::~HttpEndpoint() {
  for (const HttpStreamRoute& route : streams_) route.stream->release();  // waiting readers end their streams
  if (daemon_ != nullptr) MHD_stop_daemon(daemon_);  // joins its thread; closes the listening socket
}

HttpResponse HttpEndpoint::answer(const char* path, const char* method, bool has_body, const HttpQuery* query) {
  const auto refuse = [&](HttpRefusal reason, unsigned status, std::string body) {
    refused_[static_cast<std::size_t>(reason)].fetch_add(1, std::memory_order_relaxed);
    return refusal(status, std::move(body));
  };
  if (std::strcmp(method, MHD_HTTP_METHOD_GET) != 0) return refuse(HttpRefusal::wrong_method, 405, "only GET\n");
  if (has_body) return refuse(HttpRefusal::body_refused, 413, "a GET carries no body\n");
  if (query == nullptr) return refuse(HttpRefusal::bad_query, 400, "query past its caps\n");
  for (const HttpRoute& route : routes_) {
    if (route.path != path) continue;
    try {
      HttpResponse response = route.handler(*query);
      answered_.fetch_add(1, std::memory_order_relaxed);
      return response;
    } catch (...) {  // a handler's failure is the one request's, never the process's
      return refuse(HttpRefusal::handler_failed, 500, "handler failed\n");
    }
  }
  for (const HttpStreamRoute& route : streams_) {  // join_stream() found every seat taken
    if (route.path == path) return refuse(HttpRefusal::streams_full, 503, "every stream seat is taken\n");
  }
  return refuse(HttpRefusal::not_found, 404, "not found\n");
}

EventStream* HttpEndpoint::join_stream(const char* path, const char* method, bool has_body) {
  if (std::strcmp(method, MHD_HTTP_METHOD_GET) != 0 || has_body) return nullptr;  // answer() refuses it
  for (const HttpStreamRoute& route : streams_) {
    if (route.path != path) continue;
    if (route.stream->join()) return route.stream;
    break;
  }
  return nullptr;
}

}  // namespace tickwire::fleet

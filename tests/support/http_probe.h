// The tests' HTTP client: a raw TCP connection on loopback that writes whatever bytes a test gives
// it (a well-formed GET, garbage, half a request) and reads until the server closes, so a test sees
// exactly what the operator endpoint sent back. Blocking with poll() timeouts; header-only.
#pragma once

#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <string>
#include <string_view>

#include "tickwire/transport/address.h"
#include "tickwire/transport/socket_address.h"

namespace tickwire::test {

class TcpProbe {
 public:
  TcpProbe() = default;
  TcpProbe(const TcpProbe&) = delete;
  TcpProbe& operator=(const TcpProbe&) = delete;
  ~TcpProbe() { close(); }

  // Connects to a numeric HOST:PORT, from `from` (a numeric HOST:PORT, port 0: any) when given;
  // false when it could not.
  bool connect(const std::string& host_port, const std::string& from = {}) {
    const auto address = Address::parse(host_port);
    if (!address) return false;
    const int family = address->family() == Address::Family::ipv4 ? AF_INET : AF_INET6;
    fd_ = ::socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_storage storage;
    socklen_t length = 0;
    if (!from.empty()) {
      const auto source = Address::parse(from);
      if (!source || fd_ < 0 || !to_sockaddr(*source, family, storage, length) ||
          ::bind(fd_, reinterpret_cast<const sockaddr*>(&storage), length) != 0) {
        return false;
      }
    }
    return fd_ >= 0 && to_sockaddr(*address, family, storage, length) &&
           ::connect(fd_, reinterpret_cast<const sockaddr*>(&storage), length) == 0;
  }
  bool send(std::string_view bytes) {
    while (!bytes.empty()) {
      const ssize_t n = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
      if (n <= 0) return false;
      bytes.remove_prefix(static_cast<std::size_t>(n));
    }
    return true;
  }
  // Reads until the server closes the connection (true) or `timeout_ms` passes (false).
  bool read_until_closed(int timeout_ms) { return read_until(timeout_ms, [] { return false; }) == Read::closed; }
  // Reads until `needle` has arrived at or after byte `from` of everything received (true), or the
  // connection closes or `timeout_ms` passes (false): a stream's next event.
  bool read_until_contains(std::string_view needle, int timeout_ms, std::size_t from = 0) {
    const auto found = [&] { return received_.find(needle, std::min(from, received_.size())) != std::string::npos; };
    return found() || read_until(timeout_ms, found) == Read::found;
  }
  const std::string& received() const { return received_; }
  void close() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

 private:
  enum class Read { found, closed, timed_out };
  template <class Found>
  Read read_until(int timeout_ms, Found found) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    for (;;) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) return Read::timed_out;
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, static_cast<int>(left.count())) <= 0) continue;
      char buffer[4096];
      const ssize_t n = ::recv(fd_, buffer, sizeof buffer, 0);
      if (n <= 0) return Read::closed;  // closed (or reset): the answer, if any, is whole
      received_.append(buffer, static_cast<std::size_t>(n));
      if (found()) return Read::found;
    }
  }

  int fd_ = -1;
  std::string received_;
};

struct HttpAnswer {
  int status = 0;  // 0: no answer (refused, timed out, not HTTP)
  std::string headers;  // the header block, status line included
  std::string body;
  std::string header(std::string_view name) const {
    const std::string key = "\r\n" + std::string(name) + ": ";
    const std::size_t at = headers.find(key);
    if (at == std::string::npos) return {};
    const std::size_t begin = at + key.size();
    return headers.substr(begin, headers.find("\r\n", begin) - begin);
  }
};

// Splits a whole HTTP/1.1 response (the connection was closed after it).
inline HttpAnswer parse_http_answer(const std::string& raw) {
  HttpAnswer answer;
  const std::size_t end = raw.find("\r\n\r\n");
  if (raw.rfind("HTTP/1.1 ", 0) != 0 || end == std::string::npos) return answer;
  answer.status = std::atoi(raw.c_str() + 9);
  answer.headers = raw.substr(0, end);
  answer.body = raw.substr(end + 4);
  return answer;
}

// Sends `request` as it is on a new connection and reads the answer to the close.
inline HttpAnswer http_exchange(const std::string& host_port, std::string_view request, int timeout_ms = 5000) {
  TcpProbe probe;
  if (!probe.connect(host_port) || !probe.send(request) || !probe.read_until_closed(timeout_ms)) return {};
  return parse_http_answer(probe.received());
}

// GET `path` (Connection: close, so the answer ends with the connection).
inline HttpAnswer http_get(const std::string& host_port, const std::string& path, int timeout_ms = 5000) {
  return http_exchange(host_port, "GET " + path + " HTTP/1.1\r\nHost: tickwire\r\nConnection: close\r\n\r\n", timeout_ms);
}

}  // namespace tickwire::test

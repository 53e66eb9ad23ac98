// The blocking GET (fleet/http_get.h): a non-blocking socket driven by poll() against one deadline,
// so a peer that accepts and stalls, or trickles, costs at most the timeout. The reply is read into
// a buffer that never holds more than the cap and one byte (the one that proves it too large), and
// handed to parse_http_response after every read, which says when it is whole.
#include "tickwire/fleet/http_get.h"

#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "tickwire/clock/system_clock.h"
#include "tickwire/core/assert.h"
#include "tickwire/transport/address.h"
#include "tickwire/transport/socket_address.h"

namespace tickwire::fleet {
namespace {

constexpr std::size_t kReadChunkBytes = 4096;

class SocketFd {
 public:
  explicit SocketFd(int fd) : fd_(fd) {}
  ~SocketFd() {
    if (fd_ >= 0) ::close(fd_);
  }
  SocketFd(const SocketFd&) = delete;
  SocketFd& operator=(const SocketFd&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

HttpGetResult failure(HttpGetFailure why) {
  HttpGetResult result;
  result.failure = why;
  return result;
}

// A request target we may put on the request line as it is: '/' first, visible ASCII only.
bool is_request_target(std::string_view target) {
  if (target.empty() || target.front() != '/' || target.size() > kMaxHttpTargetBytes) return false;
  return std::all_of(target.begin(), target.end(), [](char c) { return c > ' ' && c < 0x7f; });
}

enum class Wait : uint8_t { ready, timed_out, failed };

// Until `fd` is ready for `events` or the deadline passes.
Wait wait_for(int fd, short events, MonoTime deadline) {
  for (;;) {
    const Duration left = deadline - mono_now();
    if (left <= Duration()) return Wait::timed_out;
    const int64_t left_ms = (left.ns() + 999'999) / 1'000'000;  // rounded up: never a busy 0 ms poll
    pollfd p{fd, events, 0};
    const int n = ::poll(&p, 1, static_cast<int>(std::min<int64_t>(left_ms, 60'000)));
    if (n > 0) return Wait::ready;  // an error or hang-up is seen by the call that follows
    if (n < 0 && errno != EINTR) return Wait::failed;
  }
}

// Connects `fd` to `address`; nullopt once connected.
std::optional<HttpGetFailure> connect_to(int fd, const Address& address, int family, MonoTime deadline) {
  sockaddr_storage storage;
  socklen_t length = 0;
  if (!to_sockaddr(address, family, storage, length)) return HttpGetFailure::bad_address;
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&storage), length) == 0) return std::nullopt;
  if (errno != EINPROGRESS && errno != EINTR) return HttpGetFailure::connect_failed;
  const Wait waited = wait_for(fd, POLLOUT, deadline);
  if (waited == Wait::timed_out) return HttpGetFailure::timed_out;
  int error = 0;
  socklen_t error_length = sizeof error;
  if (waited == Wait::failed || ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &error_length) != 0 || error != 0)
    return HttpGetFailure::connect_failed;
  return std::nullopt;
}

std::optional<HttpGetFailure> send_all(int fd, std::string_view bytes, MonoTime deadline) {
  while (!bytes.empty()) {
    const ssize_t n = ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (n > 0) {
      bytes.remove_prefix(static_cast<std::size_t>(n));
      continue;
    }
    if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) return HttpGetFailure::send_failed;
    const Wait waited = wait_for(fd, POLLOUT, deadline);
    if (waited == Wait::timed_out) return HttpGetFailure::timed_out;
    if (waited == Wait::failed) return HttpGetFailure::send_failed;
  }
  return std::nullopt;
}

HttpGetResult read_response(int fd, std::size_t max_response_bytes, MonoTime deadline) {
  std::vector<uint8_t> received;
  received.reserve(std::min(max_response_bytes + 1, kReadChunkBytes));
  uint8_t chunk[kReadChunkBytes];
  for (;;) {
    const std::size_t room = max_response_bytes + 1 - received.size();  // the byte past the cap proves too_large
    const ssize_t n = ::recv(fd, chunk, std::min(room, sizeof chunk), 0);
    bool closed = false;
    if (n > 0) {
      received.insert(received.end(), chunk, chunk + n);
    } else if (n == 0) {
      closed = true;
    } else if (errno == ECONNRESET) {
      return failure(HttpGetFailure::closed_early);  // a reset is no end of a body
    } else if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
      const Wait waited = wait_for(fd, POLLIN, deadline);
      if (waited == Wait::timed_out) return failure(HttpGetFailure::timed_out);
      if (waited == Wait::failed) return failure(HttpGetFailure::closed_early);
      continue;
    } else {
      return failure(HttpGetFailure::closed_early);
    }
    HttpResponseParse parse = parse_http_response(received, closed, max_response_bytes);
    if (parse.state == HttpParseState::failed) return failure(parse.failure);
    if (parse.state == HttpParseState::complete) {
      HttpGetResult result;
      result.response = std::move(parse.response);
      return result;
    }
    if (mono_now() >= deadline) return failure(HttpGetFailure::timed_out);  // a trickle ends too
  }
}

}  // namespace

HttpGetResult http_get(std::string_view host_port, std::string_view target, Duration timeout,
                       std::size_t max_response_bytes) {
  TW_ASSERT(max_response_bytes <= kMaxHttpGetResponseBytes, "a response cap within what one buffer may hold");
  const auto address = Address::parse(host_port);
  if (!address || address->port() == 0) return failure(HttpGetFailure::bad_address);
  if (!is_request_target(target)) return failure(HttpGetFailure::bad_target);
  const MonoTime deadline = mono_now() + timeout;
  const int family = address->family() == Address::Family::ipv4 ? AF_INET : AF_INET6;
  const SocketFd socket(::socket(family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
  if (socket.get() < 0) return failure(HttpGetFailure::connect_failed);
  if (const auto failed = connect_to(socket.get(), *address, family, deadline)) return failure(*failed);
  const std::string request = fmt::format(
      "GET {} HTTP/1.1\r\nHost: {}\r\nUser-Agent: tickwire\r\nAccept: */*\r\nConnection: close\r\n\r\n", target,
      address->to_string());
  if (const auto failed = send_all(socket.get(), request, deadline)) return failure(*failed);
  return read_response(socket.get(), max_response_bytes, deadline);
}

}  // namespace tickwire::fleet

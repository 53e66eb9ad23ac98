// A raw TCP listener on loopback that takes one connection, reads the request's head and answers as
// its script says (garbage, a stall, a trickle, too much, half an answer, a reset), so a test can
// show fleet::http_get every way a peer can fail it. One thread; every wait in it is bounded, and
// the destructor joins it.
#pragma once

#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <functional>
#include <string>
#include <string_view>
#include <thread>

#include "tickwire/transport/address.h"
#include "tickwire/transport/socket_address.h"

namespace tickwire::test {

class ScriptedTcpPeer {
 public:
  using Script = std::function<void(int connection)>;

  explicit ScriptedTcpPeer(Script script) {
    listener_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_storage storage;
    socklen_t length = 0;
    if (!to_sockaddr(*Address::parse("127.0.0.1:0"), AF_INET, storage, length) ||
        ::bind(listener_, reinterpret_cast<const sockaddr*>(&storage), length) != 0 || ::listen(listener_, 4) != 0)
      return;
    socklen_t bound_length = sizeof storage;
    (void)::getsockname(listener_, reinterpret_cast<sockaddr*>(&storage), &bound_length);
    address_ = from_sockaddr(storage).to_string();
    thread_ = std::thread([this, script = std::move(script)] { serve(script); });
  }
  ~ScriptedTcpPeer() { finish(); }
  ScriptedTcpPeer(const ScriptedTcpPeer&) = delete;
  ScriptedTcpPeer& operator=(const ScriptedTcpPeer&) = delete;

  const std::string& address() const { return address_; }  // empty when it could not listen
  // The request's head as the client sent it (the script has run to its end).
  const std::string& request() {
    finish();
    return request_;
  }

  // Script steps.
  static void send_text(int connection, std::string_view text) {
    while (!text.empty()) {
      const ssize_t n = ::send(connection, text.data(), text.size(), MSG_NOSIGNAL);
      if (n <= 0) return;  // the client gave up: that is its answer
      text.remove_prefix(static_cast<std::size_t>(n));
    }
  }
  // Until the client closes its side (or 5 s): a peer that accepted and says nothing.
  static void wait_for_client_close(int connection) {
    for (int waited_ms = 0; waited_ms < 5000; waited_ms += 50) {
      pollfd p{connection, POLLIN, 0};
      char byte;
      if (::poll(&p, 1, 50) > 0 && ::recv(connection, &byte, 1, 0) <= 0) return;
    }
  }
  // Closes with a reset (RST) instead of a FIN.
  static void reset(int connection) {
    const linger hard_close{1, 0};
    (void)::setsockopt(connection, SOL_SOCKET, SO_LINGER, &hard_close, sizeof hard_close);
  }

 private:
  void serve(const Script& script) {
    pollfd p{listener_, POLLIN, 0};
    if (::poll(&p, 1, 5000) <= 0) return;
    const int connection = ::accept4(listener_, nullptr, nullptr, SOCK_CLOEXEC);
    if (connection < 0) return;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
    while (request_.find("\r\n\r\n") == std::string::npos && std::chrono::steady_clock::now() < deadline) {
      pollfd in{connection, POLLIN, 0};
      if (::poll(&in, 1, 50) <= 0) continue;
      char buffer[1024];
      const ssize_t n = ::recv(connection, buffer, sizeof buffer, 0);
      if (n <= 0) break;
      request_.append(buffer, static_cast<std::size_t>(n));
    }
    script(connection);
    ::close(connection);
  }
  void finish() {
    if (thread_.joinable()) thread_.join();
    if (listener_ >= 0) ::close(listener_);
    listener_ = -1;
  }

  int listener_ = -1;
  std::string address_;
  std::string request_;
  std::thread thread_;
};

}  // namespace tickwire::test

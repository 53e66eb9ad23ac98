// The real socket behind the DatagramSocket seam: non-blocking UDP over IPv4 or IPv6 (dual stack
// when bound to "[::]"), batched with recvmmsg/sendmmsg. Opening reports a named error instead of
// throwing; send and receive never block and count what went wrong.
//
// Address choice: a dual-stack socket reports an IPv4 peer as its IPv4-mapped IPv6 address
// ([::ffff:1.2.3.4]:p), always, so one peer has one Address. Sending to a plain IPv4 Address from an
// IPv6 socket maps it; sending to an IPv4-mapped Address from an IPv4 socket unmaps it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "tickwire/core/reasons.h"
#include "tickwire/core/reason_counters.h"
#include "tickwire/transport/datagram_socket.h"

namespace tickwire {

enum class SocketOpenError : uint8_t {
  none = 0,
  invalid_address,      // not a usable Address
  family_unsupported,   // the kernel has no IPv6 (or IPv4)
  address_in_use,       // EADDRINUSE
  address_unavailable,  // EADDRNOTAVAIL: no such local address (e.g. ::1 disabled)
  permission_denied,    // EACCES / EPERM
  system,               // anything else; see system_errno
};
std::string_view socket_open_error_name(SocketOpenError error);

struct UdpSocketOptions {
  int receive_buffer_bytes = 4 << 20;  // requested; capped by net.core.rmem_max without CAP_NET_ADMIN
  int send_buffer_bytes = 4 << 20;
};

class UdpSocket;

struct UdpOpenResult {
  std::unique_ptr<UdpSocket> socket;  // null on failure
  SocketOpenError error = SocketOpenError::none;
  int system_errno = 0;
  std::string message;  // e.g. "bind 127.0.0.1:40000: Address already in use"
  explicit operator bool() const { return socket != nullptr; }
};

TW_REASONS(UdpDrop,
  would_block,      // send buffer full: this and later datagrams of the batch not sent
  send_error,       // the kernel refused one datagram (unreachable, EMSGSIZE, ...); skipped
  family_mismatch,  // an IPv6 destination on an IPv4 socket, or an invalid Address
  oversize,         // larger than kMaxDatagramBytes: not sent
  truncated,        // a received datagram larger than kMaxDatagramBytes: dropped
  receive_error    // recvmmsg failed with something other than EAGAIN
)

struct UdpSocketStats {
  uint64_t sent = 0;
  uint64_t sent_bytes = 0;
  uint64_t received = 0;
  uint64_t received_bytes = 0;
  ReasonCounters<UdpDrop> dropped;
};

class UdpSocket final : public DatagramSocket {
 public:
  // Binds `bind_address` (port 0 = any free port). Never throws.
  static UdpOpenResult open(const Address& bind_address, const UdpSocketOptions& options = {});
  ~UdpSocket() override;
  UdpSocket(const UdpSocket&) = delete;
  UdpSocket& operator=(const UdpSocket&) = delete;

  Address local_address() const override { return local_; }
  // Returns how many datagrams the kernel accepted. Stops at the first would-block (the rest of the
  // batch is not sent); a datagram refused for its own reason is skipped and counted.
  std::size_t send_batch(std::span<const OutgoingDatagram> datagrams) override;
  // Receives what is already waiting, up to out.size(); truncated datagrams are dropped and counted.
  std::size_t receive_batch(std::span<Datagram> out) override;

  int fd() const { return fd_; }  // for poll()/epoll in apps
  const UdpSocketStats& stats() const { return stats_; }
  int receive_buffer_bytes() const;  // as granted by the kernel
  int send_buffer_bytes() const;

 private:
  UdpSocket(int fd, int family, const Address& local) : fd_(fd), family_(family), local_(local) {}
  std::size_t send_chunk(std::span<const OutgoingDatagram> chunk, bool& blocked);

  int fd_;
  int family_;  // AF_INET or AF_INET6
  Address local_;
  UdpSocketStats stats_;
};

}  // namespace tickwire

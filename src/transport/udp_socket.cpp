// Linux UDP behind the DatagramSocket seam (its sockaddr conversions: transport/socket_address.h);
// batches go through sendmmsg/recvmmsg in chunks of kSyscallBatch so one syscall moves many datagrams.
#include "tickwire/transport/udp_socket.h"

#include <arpa/inet.h>
#include <cerrno>
#include <cstring>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <array>

#include "tickwire/transport/socket_address.h"

namespace tickwire {
namespace {

constexpr std::size_t kSyscallBatch = 64;     // datagrams per sendmmsg/recvmmsg call
constexpr int kMaxInterruptedRetries = 8;      // EINTR retries before giving the batch up

UdpOpenResult open_failure(SocketOpenError error, int errno_value, const std::string& what) {
  UdpOpenResult result;
  result.error = error;
  result.system_errno = errno_value;
  result.message = what + (errno_value != 0 ? std::string(": ") + std::strerror(errno_value) : std::string());
  return result;
}

SocketOpenError classify_bind_errno(int e) {
  switch (e) {
    case EADDRINUSE: return SocketOpenError::address_in_use;
    case EADDRNOTAVAIL: return SocketOpenError::address_unavailable;
    case EACCES:
    case EPERM: return SocketOpenError::permission_denied;
    case EAFNOSUPPORT: return SocketOpenError::family_unsupported;
    default: return SocketOpenError::system;
  }
}

int get_int_option(int fd, int level, int name) {
  int value = 0;
  socklen_t length = sizeof value;
  if (getsockopt(fd, level, name, &value, &length) != 0) return -1;
  return value;
}

// Buffer sizes are requests. The FORCE variants pass net.core.rmem_max/wmem_max when the process
// may (CAP_NET_ADMIN); otherwise the kernel silently caps the plain request, which is not an error.
void set_buffer_sizes(int fd, const UdpSocketOptions& options) {
  if (::setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &options.receive_buffer_bytes, sizeof(int)) != 0) {
    (void)::setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &options.receive_buffer_bytes, sizeof(int));
  }
  if (::setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &options.send_buffer_bytes, sizeof(int)) != 0) {
    (void)::setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &options.send_buffer_bytes, sizeof(int));
  }
}

bool is_would_block(int e) { return e == EAGAIN || e == EWOULDBLOCK || e == ENOBUFS; }

}  // namespace

std::string_view socket_open_error_name(SocketOpenError error) {
  switch (error) {
    case SocketOpenError::none: return "none";
    case SocketOpenError::invalid_address: return "invalid_address";
    case SocketOpenError::family_unsupported: return "family_unsupported";
    case SocketOpenError::address_in_use: return "address_in_use";
    case SocketOpenError::address_unavailable: return "address_unavailable";
    case SocketOpenError::permission_denied: return "permission_denied";
    case SocketOpenError::system: return "system";
  }
  return "unknown";
}

UdpOpenResult UdpSocket::open(const Address& bind_address, const UdpSocketOptions& options) {
  const std::string where = bind_address.to_string();
  if (!bind_address.valid()) return open_failure(SocketOpenError::invalid_address, 0, "bind " + where);
  const int family = bind_address.family() == Address::Family::ipv4 ? AF_INET : AF_INET6;
  const int fd = ::socket(family, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, IPPROTO_UDP);
  if (fd < 0) {
    const int e = errno;
    return open_failure(classify_bind_errno(e), e, "socket for " + where);
  }
  if (family == AF_INET6) {
    // Dual stack only for the wildcard (and IPv4-mapped binds, which need it); a specific IPv6
    // address stays IPv6-only.
    const int v6only = bind_address.is_unspecified() || bind_address.is_ipv4_mapped() ? 0 : 1;
    if (::setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &v6only, sizeof v6only) != 0) {
      const int e = errno;
      ::close(fd);
      return open_failure(SocketOpenError::system, e, "IPV6_V6ONLY on " + where);
    }
  }
  set_buffer_sizes(fd, options);
  sockaddr_storage storage;
  socklen_t length = 0;
  to_sockaddr(bind_address, family, storage, length);
  if (::bind(fd, reinterpret_cast<const sockaddr*>(&storage), length) != 0) {
    const int e = errno;
    ::close(fd);
    return open_failure(classify_bind_errno(e), e, "bind " + where);
  }
  sockaddr_storage bound;
  socklen_t bound_length = sizeof bound;
  if (::getsockname(fd, reinterpret_cast<sockaddr*>(&bound), &bound_length) != 0) {
    const int e = errno;
    ::close(fd);
    return open_failure(SocketOpenError::system, e, "getsockname " + where);
  }
  UdpOpenResult result;
  result.socket.reset(new UdpSocket(fd, family, from_sockaddr(bound)));
  return result;
}

UdpSocket::~UdpSocket() { ::close(fd_); }

int UdpSocket::receive_buffer_bytes() const { return get_int_option(fd_, SOL_SOCKET, SO_RCVBUF); }
int UdpSocket::send_buffer_bytes() const { return get_int_option(fd_, SOL_SOCKET, SO_SNDBUF); }

std::size_t UdpSocket::send_chunk(std::span<const OutgoingDatagram> chunk, bool& blocked) {
  std::array<mmsghdr, kSyscallBatch> messages{};
  std::array<iovec, kSyscallBatch> vectors{};
  std::array<sockaddr_storage, kSyscallBatch> addresses;
  unsigned count = 0;
  for (const OutgoingDatagram& datagram : chunk) {
    if (datagram.bytes.size() > kMaxDatagramBytes) {
      stats_.dropped.add(UdpDrop::oversize);
      continue;
    }
    socklen_t length = 0;
    if (!to_sockaddr(datagram.to, family_, addresses[count], length)) {
      stats_.dropped.add(UdpDrop::family_mismatch);
      continue;
    }
    vectors[count].iov_base = const_cast<uint8_t*>(datagram.bytes.data());
    vectors[count].iov_len = datagram.bytes.size();
    messages[count].msg_hdr.msg_name = &addresses[count];
    messages[count].msg_hdr.msg_namelen = length;
    messages[count].msg_hdr.msg_iov = &vectors[count];
    messages[count].msg_hdr.msg_iovlen = 1;
    ++count;
  }
  std::size_t sent = 0;
  unsigned offset = 0;
  int interrupted = 0;
  while (offset < count) {
    const int result = ::sendmmsg(fd_, messages.data() + offset, count - offset, MSG_DONTWAIT);
    if (result > 0) {
      for (unsigned i = offset; i < offset + static_cast<unsigned>(result); ++i) stats_.sent_bytes += messages[i].msg_len;
      offset += static_cast<unsigned>(result);
      sent += static_cast<std::size_t>(result);
      continue;
    }
    const int e = errno;
    if (e == EINTR && ++interrupted <= kMaxInterruptedRetries) continue;
    if (is_would_block(e) || e == EINTR) {
      stats_.dropped.add(UdpDrop::would_block, count - offset);
      blocked = true;
      break;
    }
    stats_.dropped.add(UdpDrop::send_error);  // this one datagram is refused; go on with the rest
    ++offset;
  }
  stats_.sent += sent;
  return sent;
}

std::size_t UdpSocket::send_batch(std::span<const OutgoingDatagram> datagrams) {
  std::size_t sent = 0;
  bool blocked = false;
  for (std::size_t start = 0; start < datagrams.size() && !blocked; start += kSyscallBatch) {
    const std::size_t n = std::min(kSyscallBatch, datagrams.size() - start);
    sent += send_chunk(datagrams.subspan(start, n), blocked);
    if (blocked) stats_.dropped.add(UdpDrop::would_block, datagrams.size() - start - n);
  }
  return sent;
}

std::size_t UdpSocket::receive_batch(std::span<Datagram> out) {
  std::array<mmsghdr, kSyscallBatch> messages{};
  std::array<iovec, kSyscallBatch> vectors{};
  std::array<sockaddr_storage, kSyscallBatch> addresses;
  std::size_t filled = 0;
  int interrupted = 0;
  while (filled < out.size()) {
    const std::size_t want = std::min(kSyscallBatch, out.size() - filled);
    for (std::size_t i = 0; i < want; ++i) {
      vectors[i].iov_base = out[filled + i].data;
      vectors[i].iov_len = kMaxDatagramBytes;
      messages[i].msg_hdr = msghdr{};
      messages[i].msg_hdr.msg_name = &addresses[i];
      messages[i].msg_hdr.msg_namelen = sizeof(sockaddr_storage);
      messages[i].msg_hdr.msg_iov = &vectors[i];
      messages[i].msg_hdr.msg_iovlen = 1;
    }
    const int result = ::recvmmsg(fd_, messages.data(), static_cast<unsigned>(want), MSG_DONTWAIT, nullptr);
    if (result < 0) {
      const int e = errno;
      if (e == EINTR && ++interrupted <= kMaxInterruptedRetries) continue;
      if (!is_would_block(e) && e != EINTR) stats_.dropped.add(UdpDrop::receive_error);
      break;
    }
    // Compact in place: a truncated datagram's slot is reused by the next good one.
    const std::size_t base = filled;
    for (std::size_t i = 0; i < static_cast<std::size_t>(result); ++i) {
      if ((messages[i].msg_hdr.msg_flags & MSG_TRUNC) != 0) {
        stats_.dropped.add(UdpDrop::truncated);
        continue;
      }
      Datagram& slot = out[filled];
      if (filled != base + i) std::memcpy(slot.data, out[base + i].data, messages[i].msg_len);
      slot.address = from_sockaddr(addresses[i]);
      slot.size = messages[i].msg_len;
      stats_.received_bytes += messages[i].msg_len;
      ++stats_.received;
      ++filled;
    }
    if (static_cast<std::size_t>(result) < want) break;  // nothing more waiting
  }
  return filled;
}

}  // namespace tickwire

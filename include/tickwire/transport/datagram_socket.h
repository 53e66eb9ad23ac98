// The socket seam: connection code sends and receives datagrams through this interface and never
// knows whether it is a real non-blocking UDP socket (UdpSocket) or an endpoint on the in-memory
// SimNetwork (SimSocket). Batched on both sides so the real socket can use sendmmsg/recvmmsg.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "tickwire/transport/address.h"

namespace tickwire {

inline constexpr std::size_t kMaxDatagramBytes = 1500;  // receive buffer size; we send at most 1200+overhead

struct Datagram {
  Address address;  // destination when sending, source when received
  std::size_t size = 0;
  uint8_t data[kMaxDatagramBytes];
};

// A datagram to send: address + bytes owned by the caller until send_batch returns.
struct OutgoingDatagram {
  Address to;
  std::span<const uint8_t> bytes;
};

class DatagramSocket {
 public:
  virtual ~DatagramSocket() = default;
  // The bound local address (port resolved if 0 was requested).
  virtual Address local_address() const = 0;
  // Sends every datagram it can without blocking; returns how many were handed to the network.
  virtual std::size_t send_batch(std::span<const OutgoingDatagram> datagrams) = 0;
  // Receives up to out.size() datagrams already waiting, without blocking; returns the count.
  virtual std::size_t receive_batch(std::span<Datagram> out) = 0;

  bool send(const Address& to, std::span<const uint8_t> bytes) {
    OutgoingDatagram d{to, bytes};
    return send_batch(std::span<const OutgoingDatagram>(&d, 1)) == 1;
  }
};

}  // namespace tickwire

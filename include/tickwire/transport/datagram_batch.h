// Outgoing packets gathered into one batch so a real socket hands them to the kernel with one
// sendmmsg: a fixed pool of packet buffers, filled in place by the packet writers, flushed when
// full or when the owner's update ends.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "tickwire/transport/datagram_socket.h"
#include "tickwire/transport/netcode_constants.h"

namespace tickwire::netcode {

class DatagramBatch {
 public:
  static constexpr std::size_t kDefaultPackets = 64;
  explicit DatagramBatch(std::size_t capacity_packets = kDefaultPackets);

  // A buffer for the next packet; call commit() with its real size or simply drop it.
  std::span<uint8_t, kMaxPacketBytes> buffer();
  // Queues the packet written into buffer(); flushes through `socket` first if the batch is full.
  void commit(DatagramSocket& socket, const Address& to, std::size_t bytes);
  // Sends everything queued; returns how many the socket refused.
  std::size_t flush(DatagramSocket& socket);

  std::size_t pending() const { return count_; }
  uint64_t datagrams_sent() const { return datagrams_sent_; }
  uint64_t bytes_sent() const { return bytes_sent_; }
  uint64_t datagrams_refused() const { return datagrams_refused_; }

 private:
  std::vector<std::array<uint8_t, kMaxPacketBytes>> buffers_;
  std::vector<OutgoingDatagram> outgoing_;
  std::size_t count_ = 0;
  uint64_t datagrams_sent_ = 0;
  uint64_t bytes_sent_ = 0;
  uint64_t datagrams_refused_ = 0;
};

}  // namespace tickwire::netcode

// The header every reliability-layer packet starts with: its own 16-bit sequence and, once the
// peer has sent anything, the newest peer sequence received plus 32 bits for the 32 before it, so
// every ack is repeated in up to 33 packets. Little-endian; unknown flag bits are refused.
#pragma once

#include <cstddef>
#include <cstdint>

#include "tickwire/core/status.h"
#include "tickwire/transport/byte_cursor.h"

namespace tickwire {

inline constexpr std::size_t kMinPacketHeaderBytes = 3;  // flags + sequence
inline constexpr std::size_t kMaxPacketHeaderBytes = 9;  // + ack + ack_bits

struct PacketHeader {
  uint16_t sequence = 0;
  bool has_ack = false;   // false until the sender has received a packet from us
  uint16_t ack = 0;       // newest sequence received from the peer
  uint32_t ack_bits = 0;  // bit i set: sequence (ack - 1 - i) was received too

  std::size_t encoded_bytes() const { return has_ack ? kMaxPacketHeaderBytes : kMinPacketHeaderBytes; }
  void write(ByteWriter& w) const;
  // Reads a header; truncated or unknown_flag_bits on bad input (and then the packet is dropped).
  Status read(ByteReader& r);

  friend bool operator==(const PacketHeader&, const PacketHeader&) = default;
};

}  // namespace tickwire

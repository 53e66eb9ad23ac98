// Packet header layout: u8 flags (bit 0 = acks present, others zero), u16 sequence, then when
// acks are present u16 ack and u32 ack_bits.
#include "tickwire/transport/packet_header.h"

namespace tickwire {
namespace {
constexpr uint8_t kFlagHasAck = 0x01;
}

void PacketHeader::write(ByteWriter& w) const {
  w.u8(has_ack ? kFlagHasAck : 0);
  w.u16(sequence);
  if (has_ack) {
    w.u16(ack);
    w.u32(ack_bits);
  }
}

Status PacketHeader::read(ByteReader& r) {
  const uint8_t flags = r.u8();
  sequence = r.u16();
  if (!r.ok()) return r.error();
  if ((flags & ~kFlagHasAck) != 0) return Error::unknown_flag_bits;
  has_ack = (flags & kFlagHasAck) != 0;
  ack = 0;
  ack_bits = 0;
  if (has_ack) {
    ack = r.u16();
    ack_bits = r.u32();
  }
  return r.error();
}

}  // namespace tickwire

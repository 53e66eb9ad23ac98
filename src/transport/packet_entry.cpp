// Entry layouts. Tag byte: bits 0-1 channel, bits 2-3 kind, bits 4-7 zero. A ping is the tag alone
// (channel 0). Messages: u16 message_id, u16 length, bytes. Fragments: u16 message_id,
// u16 fragment_index, u16 fragment_count, u32 block_bytes, u32 offset, u16 length, bytes.
#include "tickwire/transport/packet_entry.h"

namespace tickwire {
namespace {

constexpr uint8_t kChannelMask = 0x03;
constexpr uint8_t kKindShift = 2;
constexpr uint8_t kKindMask = 0x03;
constexpr uint8_t kReservedMask = 0xf0;

uint8_t make_tag(EntryKind kind, uint8_t channel) {
  return static_cast<uint8_t>((static_cast<uint8_t>(kind) << kKindShift) | (channel & kChannelMask));
}

}  // namespace

void write_ping_entry(ByteWriter& w) { w.u8(make_tag(EntryKind::ping, 0)); }

void write_message_entry_head(ByteWriter& w, EntryKind kind, uint8_t channel, uint16_t message_id, uint16_t length) {
  TW_ASSERT(kind == EntryKind::reliable || kind == EntryKind::unreliable, "not a message kind");
  TW_ASSERT(channel <= kChannelMask, "channel out of range");
  w.u8(make_tag(kind, channel));
  w.u16(message_id);
  w.u16(length);
}

void write_fragment_entry_head(ByteWriter& w, uint8_t channel, uint16_t message_id, const FragmentHeader& fragment,
                               uint16_t length) {
  TW_ASSERT(channel <= kChannelMask, "channel out of range");
  w.u8(make_tag(EntryKind::fragment, channel));
  w.u16(message_id);
  w.u16(fragment.fragment_index);
  w.u16(fragment.fragment_count);
  w.u32(fragment.block_bytes);
  w.u32(fragment.offset);
  w.u16(length);
}

Status read_entry(ByteReader& r, EntryView& out) {
  const uint8_t tag = r.u8();
  if (!r.ok()) return r.error();
  if ((tag & kReservedMask) != 0) return Error::unknown_flag_bits;
  out.kind = static_cast<EntryKind>((tag >> kKindShift) & kKindMask);
  out.channel = tag & kChannelMask;
  out.message_id = 0;
  out.fragment = {};
  out.bytes = {};
  switch (out.kind) {
    case EntryKind::ping:
      return out.channel == 0 ? Status() : Status(Error::unknown_flag_bits);
    case EntryKind::reliable:
    case EntryKind::unreliable:
      out.message_id = r.u16();
      break;
    case EntryKind::fragment:
      out.message_id = r.u16();
      out.fragment.fragment_index = r.u16();
      out.fragment.fragment_count = r.u16();
      out.fragment.block_bytes = r.u32();
      out.fragment.offset = r.u32();
      break;
  }
  const uint16_t length = r.u16();
  if (!r.ok()) return r.error();
  if (length > r.remaining()) return Error::length_past_end;
  out.bytes = r.bytes(length);
  return r.error();
}

}  // namespace tickwire

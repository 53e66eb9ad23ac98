// Envelope layout: a u8 route tag, the u16 message type, then by the tag: 0 direct (nothing more);
// 1 addressed, u8 from owner and u8 to owner; 2 addressed wide, u16 from and u16 to (each within
// the owner id space, else refused). The writer takes tag 1 whenever both ids fit a byte, so a room
// of at most 255 clients sends what an 8-bit build sent; the payload follows to the end.
#include "tickwire/transport/message_envelope.h"

#include "tickwire/transport/byte_cursor.h"

namespace tickwire {
namespace {

enum RouteTag : uint8_t { kTagDirect = 0, kTagAddressed = 1, kTagAddressedWide = 2 };

bool fits_a_byte(OwnerId owner) { return owner <= 0xFF; }

}  // namespace

std::size_t write_envelope_head(const Envelope& envelope, std::span<uint8_t, kMaxEnvelopeBytes> out) {
  ByteWriter w(out);
  if (envelope.route == Route::direct) {
    w.u8(kTagDirect);
    w.u16(envelope.type);
  } else if (fits_a_byte(envelope.from) && fits_a_byte(envelope.to)) {
    w.u8(kTagAddressed);
    w.u16(envelope.type);
    w.u8(static_cast<uint8_t>(envelope.from));
    w.u8(static_cast<uint8_t>(envelope.to));
  } else {
    w.u8(kTagAddressedWide);
    w.u16(envelope.type);
    w.u16(envelope.from);
    w.u16(envelope.to);
  }
  TW_ASSERT(w.ok(), "an envelope head always fits");
  return w.size();
}

Status read_envelope(std::span<const uint8_t> message, Envelope& out) {
  ByteReader r(message);
  const uint8_t tag = r.u8();
  out.type = r.u16();
  if (!r.ok()) return r.error();
  if (tag > kTagAddressedWide) return Error::unknown_union_tag;
  out.route = tag == kTagDirect ? Route::direct : Route::addressed;
  out.from = 0;
  out.to = 0;
  if (tag == kTagAddressed) {
    out.from = r.u8();
    out.to = r.u8();
  } else if (tag == kTagAddressedWide) {
    out.from = r.u16();
    out.to = r.u16();
  }
  if (!r.ok()) return r.error();
  if (!owner_id_in_range(out.from) || !owner_id_in_range(out.to)) return Error::value_out_of_range;
  out.payload = r.bytes(r.remaining());
  return Status();
}

}  // namespace tickwire

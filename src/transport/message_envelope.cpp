// Envelope layout: u8 route (0 direct, 1 addressed), u16 message type, and when addressed u8 from
// owner and u8 to owner; the payload follows to the end of the message.
#include "tickwire/transport/message_envelope.h"

#include "tickwire/transport/byte_cursor.h"

namespace tickwire {

std::size_t write_envelope_head(const Envelope& envelope, std::span<uint8_t, kMaxEnvelopeBytes> out) {
  ByteWriter w(out);
  w.u8(static_cast<uint8_t>(envelope.route));
  w.u16(envelope.type);
  if (envelope.route == Route::addressed) {
    w.u8(envelope.from);
    w.u8(envelope.to);
  }
  TW_ASSERT(w.ok(), "an envelope head always fits");
  return w.size();
}

Status read_envelope(std::span<const uint8_t> message, Envelope& out) {
  ByteReader r(message);
  const uint8_t route = r.u8();
  out.type = r.u16();
  if (!r.ok()) return r.error();
  if (route > static_cast<uint8_t>(Route::addressed)) return Error::unknown_union_tag;
  out.route = static_cast<Route>(route);
  out.from = 0;
  out.to = 0;
  if (out.route == Route::addressed) {
    out.from = r.u8();
    out.to = r.u8();
    if (!r.ok()) return r.error();
  }
  out.payload = r.bytes(r.remaining());
  return Status();
}

}  // namespace tickwire

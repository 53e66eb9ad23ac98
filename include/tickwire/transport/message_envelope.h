// The few bytes NetChannel puts before every payload: the message type, and for addressed routing
// the sender and target owner ids, so the authority can relay a client's message to another client
// without reading its payload. Owner ids are core/owner_id.h's (0 is the authority).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "tickwire/core/owner_id.h"
#include "tickwire/core/status.h"

namespace tickwire {

using MessageType = uint16_t;
// Message types below this are the engine's (wire ids are one byte); from here on they are the
// game's own, which the engine carries (and relays) without reading.
inline constexpr MessageType kFirstGameMessageType = 256;

enum class Route : uint8_t { direct = 0, addressed = 1 };

inline constexpr std::size_t kDirectEnvelopeBytes = 3;         // u8 route tag, u16 type
inline constexpr std::size_t kAddressedEnvelopeBytes = 5;      // + u8 from, u8 to (both below 256)
inline constexpr std::size_t kWideAddressedEnvelopeBytes = 7;  // + u16 from, u16 to
inline constexpr std::size_t kMaxEnvelopeBytes = kWideAddressedEnvelopeBytes;

struct Envelope {
  Route route = Route::direct;
  MessageType type = 0;
  OwnerId from = 0;  // addressed only (direct: the connection's peer)
  OwnerId to = 0;    // addressed only (direct: the receiver)
  std::span<const uint8_t> payload;
};

// Writes the envelope's head (everything before the payload); returns the bytes used.
std::size_t write_envelope_head(const Envelope& envelope, std::span<uint8_t, kMaxEnvelopeBytes> out);
// Splits a delivered message into envelope and payload: truncated, unknown_union_tag (route tag) or
// value_out_of_range (a wide owner id past the space).
Status read_envelope(std::span<const uint8_t> message, Envelope& out);

}  // namespace tickwire

// NetChannel's typed face (seed 002's `send<T>(type, payload)`): a registered message's field
// table writes the payload and its wire id is the message type, so game code never handles bytes.
// Lives in wire/ because the transport below it only knows bytes.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "tickwire/protocol/constants.h"
#include "tickwire/transport/net_channel.h"
#include "tickwire/wire/codec.h"

namespace tickwire::wire {

namespace detail {
// Encodes into a stack buffer when the message fits a packet, else into a heap buffer sized by
// measure (large reliable payloads ride blocks and are rare), then hands the bytes to `send`.
template <class M, class Send>
SendResult encode_then(const M& message, Send&& send) {
  const std::size_t size = measure(message);
  if (size <= protocol::MaxPacketBytes) {
    std::array<uint8_t, protocol::MaxPacketBytes> buffer;
    auto written = encode(message, std::span<uint8_t>(buffer.data(), size));
    TW_ASSERT(written.ok(), "a measured message must encode");
    return send(std::span<const uint8_t>(buffer.data(), size));
  }
  std::vector<uint8_t> buffer(size);
  auto written = encode(message, buffer);
  TW_ASSERT(written.ok(), "a measured message must encode");
  return send(std::span<const uint8_t>(buffer));
}
}  // namespace detail

template <class M>
SendResult send_message(NetChannel& net, uint8_t channel, const M& message) {
  return detail::encode_then(message, [&](std::span<const uint8_t> bytes) { return net.send(channel, M::wire_id, bytes); });
}

template <class M>
SendResult send_message_to(NetChannel& net, OwnerId target, uint8_t channel, const M& message) {
  return detail::encode_then(
      message, [&](std::span<const uint8_t> bytes) { return net.send_to(target, channel, M::wire_id, bytes); });
}

// Reads a received message as M: a different type is unknown_message, a malformed body its decode
// error; either is counted.
template <class M>
Status read_message(const NetMessage& received, M& out, DecodeErrorCounters& counters) {
  if (received.type != M::wire_id) {
    counters.add(Error::unknown_message);
    return Error::unknown_message;
  }
  return decode_counted(received.payload, out, counters);
}

}  // namespace tickwire::wire

// NetChannel: envelope heads written on the stack and queued together with the caller's payload in
// one copy; on receipt the sender is taken from the connection, never from the client's claim.
#include "tickwire/transport/net_channel.h"

#include <array>

#include "tickwire/core/assert.h"

namespace tickwire {

NetChannel::NetChannel(ReliableEndpoint& endpoint, OwnerId local_owner, OwnerId remote_owner)
    : endpoint_(endpoint), local_(local_owner), remote_(remote_owner) {
  TW_ASSERT(local_owner != remote_owner, "a connection joins two different owners");
  TW_ASSERT(local_owner == kAuthorityOwner || remote_owner == kAuthorityOwner,
            "every connection has the authority at one end");
}

SendResult NetChannel::send_envelope(uint8_t channel, const Envelope& envelope) {
  std::array<uint8_t, kMaxEnvelopeBytes> head{};
  const std::size_t used = write_envelope_head(envelope, head);
  return endpoint_.send(channel, std::span<const uint8_t>(head.data(), used), envelope.payload);
}

SendResult NetChannel::send(uint8_t channel, MessageType type, std::span<const uint8_t> payload) {
  return send_envelope(channel, Envelope{Route::direct, type, 0, 0, payload});
}

SendResult NetChannel::send_to(OwnerId target, uint8_t channel, MessageType type, std::span<const uint8_t> payload) {
  if (target == remote_) return send(channel, type, payload);
  if (!owner_id_in_range(target)) return SendResult{SendError::no_such_owner};
  TW_ASSERT(!is_authority(), "the authority sends to a client on that client's channel");
  TW_ASSERT(target != local_, "an owner does not address itself");
  return send_envelope(channel, Envelope{Route::addressed, type, local_, target, payload});
}

SendResult NetChannel::relay(uint8_t channel, const NetMessage& message) {
  TW_ASSERT(is_authority(), "only the authority relays");
  TW_ASSERT(message.addressed && message.to == remote_, "relay on the target's own channel");
  return send_envelope(channel, Envelope{Route::addressed, message.type, message.from, message.to, message.payload});
}

bool NetChannel::accept(Envelope& envelope, NetMessage& out) {
  out.type = envelope.type;
  out.payload = envelope.payload;
  out.addressed = envelope.route == Route::addressed;
  if (!out.addressed) {
    out.from = remote_;
    out.to = local_;
    return true;
  }
  if (is_authority()) {
    // The client's claim of who it is does not matter: the connection says who sent it.
    out.from = remote_;
    out.to = envelope.to;
    if (out.to == remote_) return false;  // a client addressing itself
    out.addressed = out.to != kAuthorityOwner;
    return true;
  }
  out.from = envelope.from;
  out.to = envelope.to;
  return remote_ == kAuthorityOwner && out.to == local_ && out.from != local_;
}

std::optional<NetMessage> NetChannel::receive(uint8_t channel) {
  while (std::optional<std::span<const uint8_t>> bytes = endpoint_.receive(channel)) {
    Envelope envelope;
    if (!read_envelope(*bytes, envelope).ok()) {
      counters_.add(TransportReason::envelope_malformed);
      continue;
    }
    NetMessage message;
    if (!accept(envelope, message)) {
      counters_.add(TransportReason::misrouted);
      continue;
    }
    return message;
  }
  return std::nullopt;
}

}  // namespace tickwire

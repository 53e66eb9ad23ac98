// The per-connection send API of seed 002 over bytes: send a typed payload on a channel, send one
// addressed to another owner (the authority relays it without reading it), flush, receive, and the
// connection's statistics. A typed send<T> over field tables is a thin layer on send(channel, type, bytes).
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "tickwire/clock/time.h"
#include "tickwire/transport/connection_stats.h"
#include "tickwire/transport/message_envelope.h"
#include "tickwire/transport/reliable_endpoint.h"
#include "tickwire/transport/send_result.h"
#include "tickwire/transport/transport_reason.h"

namespace tickwire {

// A delivered message. `from` is trustworthy: on the authority it is the connection's own owner
// (whatever the client claimed); on a client, direct messages come from the authority and
// addressed ones carry the sender the authority stamped.
struct NetMessage {
  MessageType type = 0;
  OwnerId from = 0;
  OwnerId to = 0;
  bool addressed = false;            // sent with send_to (the authority relays those to `to`)
  std::span<const uint8_t> payload;  // valid until the next receive() on the same channel
};

class NetChannel {
 public:
  // `endpoint` is this connection's reliability layer; it must outlive the channel.
  NetChannel(ReliableEndpoint& endpoint, OwnerId local_owner, OwnerId remote_owner);

  OwnerId local_owner() const { return local_; }
  OwnerId remote_owner() const { return remote_; }
  bool is_authority() const { return local_ == kAuthorityOwner; }

  // To the peer of this connection.
  SendResult send(uint8_t channel, MessageType type, std::span<const uint8_t> payload);
  // From a client, to another owner through the authority (to the authority itself it is a send()).
  SendResult send_to(OwnerId target, uint8_t channel, MessageType type, std::span<const uint8_t> payload);
  // On the authority: forwards an addressed message received from another client to this
  // connection's client, payload untouched. `message.to` must be this connection's owner.
  SendResult relay(uint8_t channel, const NetMessage& message);
  // Writes this tick's packets now.
  void flush(MonoTime now, PacketSink& out) { endpoint_.write_packets(now, out); }

  // The next message on a channel; envelopes that do not decode or are misrouted are counted and skipped.
  std::optional<NetMessage> receive(uint8_t channel);

  ConnectionStats stats() const { return endpoint_.stats(); }
  // Envelope drops (envelope_malformed, misrouted); transport drops are in stats() and the endpoint.
  const TransportCounters& counters() const { return counters_; }

 private:
  SendResult send_envelope(uint8_t channel, const Envelope& envelope);
  bool accept(Envelope& envelope, NetMessage& out);

  ReliableEndpoint& endpoint_;
  OwnerId local_;
  OwnerId remote_;
  TransportCounters counters_;
};

}  // namespace tickwire

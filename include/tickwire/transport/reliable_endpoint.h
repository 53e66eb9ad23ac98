// One connection's reliability layer, as a step object over opaque payload bytes: it consumes the
// payloads the secure layer delivered (receive_packet) and produces the payloads to send
// (write_packets), so it runs over netcode, SimNetwork or anything else. Time is always passed in.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>

#include "tickwire/clock/time.h"
#include "tickwire/core/reason_counters.h"
#include "tickwire/core/status.h"
#include "tickwire/transport/connection_stats.h"
#include "tickwire/transport/endpoint_config.h"
#include "tickwire/transport/send_allowance.h"
#include "tickwire/transport/send_result.h"
#include "tickwire/transport/transport_reason.h"

namespace tickwire {

// Receives each outgoing payload (at most config.max_packet_bytes); the bytes are valid during the call.
class PacketSink {
 public:
  virtual ~PacketSink() = default;
  virtual void on_packet(uint16_t sequence, std::span<const uint8_t> payload) = 0;
};

// An unreliable message the peer acknowledged, and the packet that carried it.
struct AckedMessage {
  uint8_t channel = 0;
  uint16_t message_id = 0;
  uint16_t packet_sequence = 0;
};

class ReliableEndpoint {
 public:
  explicit ReliableEndpoint(const EndpointConfig& config);
  ~ReliableEndpoint();
  ReliableEndpoint(ReliableEndpoint&&) noexcept;
  ReliableEndpoint& operator=(ReliableEndpoint&&) noexcept;

  // Queues a message on a channel; on a reliable channel with blocks, a payload above
  // max_message_bytes is sent as a block of fragments. Every refusal is returned and counted.
  SendResult send(uint8_t channel, std::span<const uint8_t> payload);
  // The same, for a payload given as two parts (an envelope head and a body) sent as one message.
  SendResult send(uint8_t channel, std::span<const uint8_t> head, std::span<const uint8_t> body);
  // The next delivered message on a channel (reliable: in order, exactly once); the bytes stay
  // valid until the next receive() on that channel.
  std::optional<std::span<const uint8_t>> receive(uint8_t channel);

  // Takes one payload from the peer. A malformed payload is dropped whole and its decode error
  // returned (and counted); everything else returns ok, with drops counted by reason.
  Status receive_packet(std::span<const uint8_t> payload, MonoTime now);
  // Assembles this tick's packets (acks, due resends, queued messages, a keep-alive when idle)
  // within the packet and channel budgets, and hands each to `out`.
  void write_packets(MonoTime now, PacketSink& out);

  // Our packets the peer acknowledged, oldest notice first (capped; overflow counted).
  std::optional<uint16_t> pop_acked_packet();
  // Our unreliable messages the peer acknowledged (capped; overflow counted).
  std::optional<AckedMessage> pop_acked_message();

  // The link estimate and what the next `interval` (e.g. one tick) can carry: a sender sizes its
  // unreliable traffic (snapshots) from `unreliable_bytes`, so together with the reliable backlog it
  // stays within what the link delivers. Pacing enforces the total: reliable data waits for tokens,
  // unreliable messages always go and spend them.
  SendAllowance send_allowance(Duration interval) const;

  // After a fatal reason the endpoint stops; the owner must drop the connection.
  bool failed() const;
  TransportReason failure() const;
  ConnectionStats stats() const;
  const TransportCounters& counters() const;
  const SendCounters& send_refusals() const;
  const ReasonCounters<Error>& decode_errors() const;
  const EndpointConfig& config() const;
  // Bytes allocated at construction (all of it: nothing is allocated afterwards).
  std::size_t memory_bytes() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace tickwire

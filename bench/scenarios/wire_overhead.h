// What a snapshot message costs on the wire beyond its own bytes: every byte our transport and the
// network put around it, counted from the transport's own constants, so the bench's "wire bytes"
// figure moves when the transport's framing does.
#pragma once

#include <cstddef>

#include "tickwire/replication/fragments/snapshot_fragment_budget.h"

namespace tickwire::bench {

struct WireOverhead {
  static constexpr std::size_t kIpUdpHeaderBytes = 28;      // IPv4 (20) + UDP (8)
  static constexpr std::size_t kNetcodeSequenceBytes = 2;   // a packet sequence below 65,536 (18 min at 60 Hz)

  // Bytes around one message in its own packet: IPv4+UDP, the netcode prefix byte and sequence,
  // the AEAD tag, the reliability header with acks, the channel entry head and the direct envelope,
  // less the message's id byte (the envelope's type carries it).
  static std::size_t per_message_bytes();
  // Bytes on the wire for a snapshot message of `message_bytes` (id byte included): one packet when
  // it fits the snapshot channel whole, else one packet per fragment message.
  static std::size_t wire_bytes(std::size_t message_bytes);
  // Packets that message takes.
  static std::size_t packets(std::size_t message_bytes);
  static const SnapshotFragmentBudget& budget();
};

}  // namespace tickwire::bench

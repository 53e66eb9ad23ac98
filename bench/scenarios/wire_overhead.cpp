// The per-packet overhead of a snapshot message, summed from the transport's constants.
#include "wire_overhead.h"

#include "tickwire/protocol/snapshot_fragment.h"
#include "tickwire/transport/message_envelope.h"
#include "tickwire/transport/netcode_constants.h"
#include "tickwire/transport/packet_entry.h"
#include "tickwire/transport/packet_header.h"

namespace tickwire::bench {

std::size_t WireOverhead::per_message_bytes() {
  const std::size_t netcode_bytes = 1 + kNetcodeSequenceBytes + netcode::kMacBytes;  // prefix, sequence, AEAD tag
  const std::size_t reliability = kMaxPacketHeaderBytes;             // sequence, ack, ack bits
  const std::size_t entry = kMessageEntryOverheadBytes;              // tag, message id, length
  const std::size_t envelope = kDirectEnvelopeBytes - 1;             // route + type, less the id byte
  return kIpUdpHeaderBytes + netcode_bytes + reliability + entry + envelope;
}

const SnapshotFragmentBudget& WireOverhead::budget() {
  static const SnapshotFragmentBudget b = SnapshotFragmentBudget::for_channel(snapshot_channel_config());
  return b;
}

std::size_t WireOverhead::packets(std::size_t message_bytes) { return budget().fragments_for(message_bytes); }

std::size_t WireOverhead::wire_bytes(std::size_t message_bytes) {
  const std::size_t count = packets(message_bytes);
  if (count == 1) return message_bytes + per_message_bytes();
  // Each fragment is its own message: its header around a slice of the whole message.
  return message_bytes + count * (protocol::SnapshotFragmentHeaderBytes + per_message_bytes());
}

}  // namespace tickwire::bench

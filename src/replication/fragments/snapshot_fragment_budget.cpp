// The snapshot fragment budget's derivation from a channel and its sanity relations.
#include "tickwire/replication/fragments/snapshot_fragment_budget.h"

#include "tickwire/core/assert.h"
#include "tickwire/transport/message_envelope.h"

namespace tickwire {

SnapshotFragmentBudget SnapshotFragmentBudget::for_channel(const ChannelConfig& unreliable) {
  TW_ASSERT(unreliable.kind == ChannelKind::unreliable, "snapshots ride an unreliable channel");
  TW_ASSERT(unreliable.max_message_bytes > kDirectEnvelopeBytes, "the channel must carry more than an envelope");
  // Transport message = envelope + body; encoded message = id byte + body. A snapshot goes direct
  // (the authority's own, to its connection's peer), so its envelope is the direct one.
  return of(unreliable.max_message_bytes - kDirectEnvelopeBytes + 1);
}

SnapshotFragmentBudget SnapshotFragmentBudget::of(std::size_t message_cap_bytes) {
  TW_ASSERT(message_cap_bytes > protocol::SnapshotFragmentHeaderBytes, "a fragment message must have room for a slice");
  TW_ASSERT(message_cap_bytes <= protocol::MaxPacketBytes, "a snapshot message must fit one datagram");
  SnapshotFragmentBudget budget;
  budget.message_cap_bytes = message_cap_bytes;
  return budget;
}

std::size_t SnapshotFragmentBudget::fragments_for(std::size_t snapshot_bytes) const {
  if (snapshot_bytes <= whole_max_bytes()) return 1;
  return (snapshot_bytes + max_slice_bytes() - 1) / max_slice_bytes();
}

ChannelConfig snapshot_channel_config(uint32_t max_message_bytes) {
  ChannelConfig c = ChannelConfig::unreliable(max_message_bytes);
  const uint32_t sets = 2;
  const uint32_t messages = sets * static_cast<uint32_t>(protocol::MaxSnapshotFragments);
  const uint32_t chunked_message_bytes = (max_message_bytes + c.pool_chunk_bytes - 1) / c.pool_chunk_bytes * c.pool_chunk_bytes;
  c.unreliable_queue_messages = messages;
  c.send_queue_bytes = messages * chunked_message_bytes;
  c.receive_queue_bytes = messages * chunked_message_bytes;
  return c;
}

}  // namespace tickwire

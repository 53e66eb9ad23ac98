// How many snapshot bytes one unreliable message may carry, and so where a snapshot stops going
// whole, how long a slice may be and where the fragment ceiling lies. The slicer, the reassembler
// and the budget log all read these figures from one value, so they cannot disagree about a byte.
#pragma once

#include <cstddef>
#include <cstdint>

#include "tickwire/protocol/constants.h"
#include "tickwire/protocol/snapshot_fragment.h"
#include "tickwire/transport/endpoint_config.h"

namespace tickwire {

struct SnapshotFragmentBudget {
  // The most bytes one encoded message (its id byte included) may take on the snapshot channel.
  std::size_t message_cap_bytes = 0;

  // The budget of an unreliable channel: its message cap less the envelope NetChannel puts before
  // the body (the envelope carries the type, so the id byte itself costs nothing extra).
  static SnapshotFragmentBudget for_channel(const ChannelConfig& unreliable);
  // A budget of `message_cap_bytes`; asserts it leaves room for a slice and fits one datagram.
  static SnapshotFragmentBudget of(std::size_t message_cap_bytes);

  // A snapshot of at most this many bytes (id byte included) is sent whole.
  std::size_t whole_max_bytes() const { return message_cap_bytes; }
  // The longest slice a fragment message carries.
  std::size_t max_slice_bytes() const { return message_cap_bytes - protocol::SnapshotFragmentHeaderBytes; }
  // The largest snapshot that can be sent at all: MaxSnapshotFragments full slices.
  std::size_t ceiling_bytes() const { return protocol::MaxSnapshotFragments * max_slice_bytes(); }
  // Fragments a snapshot of `snapshot_bytes` needs (1 when it goes whole; may exceed the ceiling).
  std::size_t fragments_for(std::size_t snapshot_bytes) const;
};

// An unreliable channel sized for fragmented snapshots: its send and receive queues hold two whole
// sets of MaxSnapshotFragments largest messages (one tick's and the next's), where the default
// unreliable channel holds 8. The endpoint must also write that many packets in one call
// (EndpointConfig::max_packets_per_write >= MaxSnapshotFragments plus the other channels' share),
// or the fragments it could not write are expired unsent.
ChannelConfig snapshot_channel_config(uint32_t max_message_bytes = 1100);

}  // namespace tickwire

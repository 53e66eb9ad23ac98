// Helpers the snapshot fragmentation tests share: snapshots of a chosen size whose every byte
// depends on its tick and position (so a misplaced, missing or foreign slice shows), and the trip
// from the slicer's encoded messages back to decoded SnapshotFragments.
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "tickwire/clock/tick.h"
#include "tickwire/core/rng.h"
#include "tickwire/protocol/record_batch.h"
#include "tickwire/protocol/snapshot_fragment.h"
#include "tickwire/replication/fragments/snapshot_reassembler.h"
#include "tickwire/replication/fragments/snapshot_slicer.h"
#include "tickwire/transport/endpoint_config.h"
#include "tickwire/wire/codec.h"

namespace tickwire::test {

using Bytes = std::vector<uint8_t>;

// The budget of the default unreliable channel (1100-byte messages).
inline SnapshotFragmentBudget default_budget() { return SnapshotFragmentBudget::for_channel(ChannelConfig::unreliable()); }

// `bytes` bytes of a snapshot message: the snapshot id byte first, then bytes drawn from `salt`.
inline Bytes make_snapshot(std::size_t bytes, uint64_t salt) {
  Bytes out(bytes);
  Rng rng(salt * 0x9e3779b97f4a7c15ull + bytes);
  for (uint8_t& b : out) b = static_cast<uint8_t>(rng.next_u32());
  if (!out.empty()) out[0] = protocol::RecordBatch::wire_id;
  return out;
}

// An encoded fragment message (id byte first) read back through the field table.
inline protocol::SnapshotFragment decode_fragment(std::span<const uint8_t> message) {
  protocol::SnapshotFragment fragment;
  EXPECT_FALSE(message.empty());
  if (message.empty()) return fragment;
  EXPECT_EQ(message[0], protocol::SnapshotFragment::wire_id);
  EXPECT_TRUE(wire::decode(message.subspan(1), fragment).ok());
  return fragment;
}

// Slices `snapshot` and decodes every fragment written (empty unless it was fragmented).
inline std::vector<protocol::SnapshotFragment> slice_and_decode(SnapshotSlicer& slicer, Tick tick,
                                                                 std::span<const uint8_t> snapshot,
                                                                 SliceResult* result = nullptr) {
  const SliceResult sliced = slicer.slice(tick, snapshot);
  if (result) *result = sliced;
  std::vector<protocol::SnapshotFragment> out;
  for (std::size_t i = 0; i < sliced.fragment_count; ++i) out.push_back(decode_fragment(slicer.fragment(i)));
  return out;
}

inline std::span<const uint8_t> slice_bytes(const protocol::SnapshotFragment& f, Bytes& scratch) {
  scratch.clear();
  for (const protocol::SliceByte& b : f.slice) scratch.push_back(b.value);
  return scratch;
}

}  // namespace tickwire::test

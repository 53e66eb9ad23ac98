// Stateful fuzzing of snapshot reassembly: the input is a sequence of SnapshotFragment bodies read
// through the fragment's field table and fed to one reassembler, checked against a shadow of what
// it took: a completed snapshot must be exactly the concatenation of one tick's accepted slices in
// index order, ticks complete in increasing order, and malformed fragments are always refused.
//
// Input: one config byte, then records of u16 length (LE) and `length` body bytes. Config bits 0-5
// give the message cap (slices of 1..64 bytes), bit 6 a small maximum snapshot (4 full slices), bit
// 7 the default unreliable channel's budget instead. Odd records go through the span overload.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <vector>

#include "tickwire/core/assert.h"
#include "tickwire/protocol/snapshot_fragment.h"
#include "tickwire/replication/fragments/snapshot_reassembler.h"
#include "tickwire/transport/byte_cursor.h"
#include "tickwire/wire/codec.h"

namespace {

using namespace tickwire;

constexpr std::size_t kMaxRecords = 4096;

SnapshotReassemblerConfig config_from(uint8_t control) {
  SnapshotReassemblerConfig config;
  config.budget = (control & 0x80) ? SnapshotFragmentBudget::for_channel(ChannelConfig::unreliable())
                                   : SnapshotFragmentBudget::of(protocol::SnapshotFragmentHeaderBytes + 1 + (control & 0x3f));
  if (control & 0x40) config.max_snapshot_bytes = 4 * config.budget.max_slice_bytes();
  return config;
}

// What the reassembler has taken for the tick in progress, as the fuzzer saw it.
struct Shadow {
  std::optional<uint32_t> tick;
  std::map<uint8_t, std::vector<uint8_t>> slices;
  std::optional<uint32_t> last_completed;
};

bool malformed(const SnapshotReassemblerConfig& config, uint8_t index, uint8_t count, std::size_t slice_bytes) {
  return count == 0 || count > protocol::MaxSnapshotFragments || index >= count || slice_bytes == 0 ||
         slice_bytes > config.budget.max_slice_bytes();
}

void check(const SnapshotReassemblerConfig& config, const SnapshotReassembler& reassembler, Shadow& shadow,
           uint32_t tick, uint8_t index, uint8_t count, std::span<const uint8_t> slice, const FragmentVerdict& v) {
  if (malformed(config, index, count, slice.size())) {
    TW_ASSERT(v.outcome == FragmentOutcome::refused && !v.abandoned, "a malformed fragment was taken");
    return;
  }
  if (v.abandoned || (v.outcome != FragmentOutcome::refused && shadow.tick != tick)) {
    TW_ASSERT(!shadow.tick || tick > *shadow.tick, "only a newer tick replaces the set in progress");
    TW_ASSERT(v.abandoned == (shadow.tick.has_value() && !shadow.slices.empty()), "abandonment misreported");
    shadow.tick = tick;
    shadow.slices.clear();
  }
  if (v.outcome == FragmentOutcome::refused) {
    if (v.reason == FragmentRefusal::snapshot_too_large) {
      shadow.tick.reset();
      shadow.slices.clear();
    }
    return;
  }
  TW_ASSERT(shadow.slices.find(index) == shadow.slices.end(), "an index was taken twice");
  shadow.slices[index].assign(slice.begin(), slice.end());
  if (v.outcome == FragmentOutcome::stored) {
    TW_ASSERT(reassembler.in_progress() && reassembler.set_received_fragments() == shadow.slices.size(),
              "the set's progress disagrees with what was taken");
    return;
  }
  TW_ASSERT(v.tick == tick && shadow.slices.size() == count, "a set completed without all its slices");
  TW_ASSERT(!shadow.last_completed || tick > *shadow.last_completed, "ticks complete in increasing order");
  std::vector<uint8_t> expected;
  for (const auto& [i, bytes] : shadow.slices) expected.insert(expected.end(), bytes.begin(), bytes.end());
  TW_ASSERT(expected.size() <= config.max_snapshot_bytes, "a completed snapshot past the maximum");
  TW_ASSERT(std::equal(v.snapshot.begin(), v.snapshot.end(), expected.begin(), expected.end()),
            "a completed snapshot is not the concatenation of its tick's slices");
  shadow.last_completed = tick;
  shadow.tick.reset();
  shadow.slices.clear();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  ByteReader reader(std::span<const uint8_t>(data, size));
  const SnapshotReassemblerConfig config = config_from(reader.u8());
  if (!reader.ok()) return 0;
  SnapshotReassembler reassembler(config);
  Shadow shadow;
  protocol::SnapshotFragment fragment;
  std::array<uint8_t, protocol::MaxSnapshotSliceBytes> flat{};
  uint64_t decoded = 0;
  for (std::size_t record = 0; record < kMaxRecords && !reader.at_end(); ++record) {
    const uint16_t length = reader.u16();
    const std::span<const uint8_t> body = reader.bytes(std::min<std::size_t>(length, reader.remaining()));
    if (!reader.ok()) break;
    if (!wire::decode(body, fragment).ok()) continue;
    ++decoded;
    const std::size_t n = fragment.slice.size();
    for (std::size_t i = 0; i < n; ++i) flat[i] = fragment.slice[i].value;
    const std::span<const uint8_t> slice(flat.data(), n);
    const FragmentVerdict v = (record % 2 == 0)
                                  ? reassembler.accept(fragment)
                                  : reassembler.accept(fragment.tick, fragment.fragment_index, fragment.fragment_count, slice);
    check(config, reassembler, shadow, fragment.tick, fragment.fragment_index, fragment.fragment_count, slice, v);
  }
  TW_ASSERT(reassembler.stored_fragments() + reassembler.refusals().total() == decoded,
            "every fragment is either stored or refused with a reason");
  TW_ASSERT(reassembler.memory_bytes() == protocol::MaxSnapshotBytes, "the one buffer never grows");
  return 0;
}

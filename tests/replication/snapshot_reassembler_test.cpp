// The reassembler's rules one by one: the hostile table (counts of 0 and 17, an index past the
// count, duplicates, a count differing from its set's, stale and closed ticks, empty and oversized
// slices, a set that would complete past the maximum), each refused and counted under its reason
// with the set in progress left intact; and a newer tick abandoning a partial set.
#include "tickwire/replication/fragments/snapshot_reassembler.h"

#include <gtest/gtest.h>

#include "allocation_counter.h"
#include "snapshot_fragment_support.h"
#include "support.h"
#include "tickwire/core/rng.h"

namespace tickwire {
namespace {

using test::Bytes;
using R = FragmentRefusal;

constexpr std::size_t kMessageCap = 64;  // small slices keep the table readable: 55-byte slices

SnapshotReassemblerConfig small_config(std::size_t max_snapshot_bytes = protocol::MaxSnapshotBytes) {
  return {SnapshotFragmentBudget::of(kMessageCap), max_snapshot_bytes};
}

Bytes slice_of(std::size_t bytes, uint8_t fill) { return Bytes(bytes, fill); }

struct Hostile {
  const char* what;
  uint32_t tick;
  uint8_t index, count;
  std::size_t slice_bytes;
  FragmentRefusal reason;
};

// With tick 10 in progress (count 4, index 1 held) and tick 7 completed before it.
TEST(SnapshotReassembler, HostileFragmentsAreRefusedByReasonAndLeaveTheSetIntact) {
  const std::size_t max_slice = SnapshotFragmentBudget::of(kMessageCap).max_slice_bytes();
  const Hostile table[] = {
      {"count 0", 10, 0, 0, 10, R::count_zero},
      {"count 17", 10, 0, 17, 10, R::count_over_max},
      {"count 255", 11, 3, 255, 10, R::count_over_max},
      {"index == count", 10, 4, 4, 10, R::index_out_of_range},
      {"index > count", 10, 200, 4, 10, R::index_out_of_range},
      {"index 16 of 16", 11, 16, 16, 10, R::index_out_of_range},
      {"empty slice", 10, 2, 4, 0, R::empty_slice},
      {"oversized slice", 10, 2, 4, max_slice + 1, R::slice_too_large},
      {"newer tick, empty", 11, 0, 4, 0, R::empty_slice},
      {"duplicate index", 10, 1, 4, 10, R::duplicate_index},
      {"count mismatch (lower)", 10, 0, 3, 10, R::count_mismatch},
      {"count mismatch (higher)", 10, 0, 16, 10, R::count_mismatch},
      {"older than the set", 9, 0, 4, 10, R::stale_tick},
      {"older than the completed tick", 6, 0, 2, 10, R::stale_tick},
      {"the completed tick again", 7, 0, 2, 10, R::tick_closed},
      {"tick 0", 0, 0, 1, 10, R::stale_tick},
  };
  SnapshotReassembler r(small_config());
  const Bytes s = slice_of(10, 0x33);
  ASSERT_EQ(r.accept(7, 0, 2, s).outcome, FragmentOutcome::stored);
  ASSERT_EQ(r.accept(7, 1, 2, s).outcome, FragmentOutcome::completed);
  ASSERT_EQ(r.accept(10, 1, 4, s).outcome, FragmentOutcome::stored);

  FragmentRefusalCounters expected;
  for (const Hostile& h : table) {
    const Bytes slice = slice_of(h.slice_bytes, 0x44);
    const FragmentVerdict v = r.accept(h.tick, h.index, h.count, slice);
    expected.add(h.reason);
    EXPECT_EQ(v.outcome, FragmentOutcome::refused) << h.what;
    EXPECT_EQ(v.reason, h.reason) << h.what << ": " << reason_name(v.reason);
    EXPECT_FALSE(v.abandoned) << h.what;
    EXPECT_TRUE(r.in_progress()) << h.what;
    EXPECT_EQ(r.set_tick(), 10u) << h.what;
    EXPECT_EQ(r.set_received_fragments(), 1u) << h.what;
  }
  for (std::size_t i = 0; i < FragmentRefusalCounters::size(); ++i) {
    const auto reason = static_cast<FragmentRefusal>(i);
    EXPECT_EQ(r.refusals()[reason], expected[reason]) << reason_name(reason);
  }
  EXPECT_EQ(r.refusals().total(), std::size(table));
  EXPECT_EQ(r.abandoned_sets(), 0u);

  // The set in progress still completes, with the bytes it was sent.
  ASSERT_EQ(r.accept(10, 0, 4, slice_of(10, 0)).outcome, FragmentOutcome::stored);
  ASSERT_EQ(r.accept(10, 3, 4, slice_of(3, 3)).outcome, FragmentOutcome::stored);
  const FragmentVerdict done = r.accept(10, 2, 4, slice_of(10, 2));
  ASSERT_EQ(done.outcome, FragmentOutcome::completed);
  Bytes expected_bytes = slice_of(10, 0);
  for (const Bytes& part : {s, slice_of(10, 2), slice_of(3, 3)}) expected_bytes.insert(expected_bytes.end(), part.begin(), part.end());
  EXPECT_EQ(Bytes(done.snapshot.begin(), done.snapshot.end()), expected_bytes);
  EXPECT_EQ(r.last_completed_tick(), 10u);
}

TEST(SnapshotReassembler, ANewerTickAbandonsThePartialSet) {
  SnapshotReassembler r(small_config());
  ASSERT_EQ(r.accept(20, 0, 3, slice_of(55, 1)).outcome, FragmentOutcome::stored);
  ASSERT_EQ(r.accept(20, 2, 3, slice_of(5, 1)).outcome, FragmentOutcome::stored);
  const FragmentVerdict v = r.accept(21, 1, 2, slice_of(7, 2));
  EXPECT_EQ(v.outcome, FragmentOutcome::stored);
  EXPECT_TRUE(v.abandoned);
  EXPECT_EQ(r.abandoned_sets(), 1u);
  EXPECT_EQ(r.set_tick(), 21u);
  EXPECT_EQ(r.set_received_fragments(), 1u);
  // The abandoned tick's last fragment arrives late: stale, and it does not disturb tick 21.
  const FragmentVerdict late = r.accept(20, 1, 3, slice_of(55, 1));
  EXPECT_EQ(late.reason, R::stale_tick);
  const FragmentVerdict done = r.accept(21, 0, 2, slice_of(55, 3));
  ASSERT_EQ(done.outcome, FragmentOutcome::completed);
  EXPECT_EQ(done.tick, 21u);
  EXPECT_EQ(done.snapshot.size(), 62u);
  EXPECT_EQ(done.snapshot[0], 3);
  EXPECT_EQ(done.snapshot[61], 2);
  EXPECT_EQ(r.completed_sets(), 1u);
  EXPECT_FALSE(r.in_progress());
}

TEST(SnapshotReassembler, AHostileFragmentOfANewerTickDoesNotAbandonTheSet) {
  SnapshotReassembler r(small_config());
  ASSERT_EQ(r.accept(30, 0, 2, slice_of(55, 1)).outcome, FragmentOutcome::stored);
  EXPECT_EQ(r.accept(31, 5, 2, slice_of(5, 1)).reason, R::index_out_of_range);
  EXPECT_EQ(r.accept(31, 0, 0, slice_of(5, 1)).reason, R::count_zero);
  EXPECT_EQ(r.abandoned_sets(), 0u);
  EXPECT_EQ(r.accept(30, 1, 2, slice_of(5, 1)).outcome, FragmentOutcome::completed);
}

TEST(SnapshotReassembler, ASetThatWouldCompletePastTheMaximumIsRefusedWithItsTick) {
  // Three full 55-byte slices fit 180 bytes; a fourth would not.
  SnapshotReassembler r(small_config(/*max_snapshot_bytes=*/180));
  for (uint8_t i = 0; i < 3; ++i) ASSERT_EQ(r.accept(40, i, 4, slice_of(55, i)).outcome, FragmentOutcome::stored);
  const FragmentVerdict v = r.accept(40, 3, 4, slice_of(55, 3));
  EXPECT_EQ(v.reason, R::snapshot_too_large);
  EXPECT_FALSE(r.in_progress());
  EXPECT_EQ(r.accept(40, 3, 4, slice_of(10, 3)).reason, R::tick_closed) << "the refused tick stays closed";
  EXPECT_FALSE(r.last_completed_tick().has_value());
  // A set within the maximum at the next tick completes (180 bytes exactly).
  for (uint8_t i = 0; i < 3; ++i) ASSERT_EQ(r.accept(41, i, 4, slice_of(55, i)).outcome, FragmentOutcome::stored);
  const FragmentVerdict done = r.accept(41, 3, 4, slice_of(15, 3));
  ASSERT_EQ(done.outcome, FragmentOutcome::completed);
  EXPECT_EQ(done.snapshot.size(), 180u);
}

TEST(SnapshotReassembler, AOneFragmentSetCompletesAtOnce) {
  SnapshotReassembler r(small_config());
  const FragmentVerdict v = r.accept(5, 0, 1, slice_of(12, 9));
  ASSERT_EQ(v.outcome, FragmentOutcome::completed);
  EXPECT_EQ(v.snapshot.size(), 12u);
  EXPECT_EQ(r.accept(5, 0, 1, slice_of(12, 9)).reason, R::tick_closed) << "no tick completes twice";
}

TEST(SnapshotReassembler, SixteenFragmentsAtTheFullStrideFitTheOneBuffer) {
  // The largest budget a datagram allows: 16 slices of MaxSnapshotSliceBytes.
  SnapshotReassembler r({SnapshotFragmentBudget::of(protocol::MaxPacketBytes)});
  EXPECT_EQ(r.memory_bytes(), protocol::MaxSnapshotBytes);
  for (uint8_t i = 0; i < 15; ++i) {
    ASSERT_EQ(r.accept(1, i, 16, slice_of(protocol::MaxSnapshotSliceBytes, i)).outcome, FragmentOutcome::stored);
  }
  const FragmentVerdict v = r.accept(1, 15, 16, slice_of(protocol::MaxSnapshotSliceBytes, 15));
  ASSERT_EQ(v.outcome, FragmentOutcome::completed);
  ASSERT_EQ(v.snapshot.size(), 16 * protocol::MaxSnapshotSliceBytes);
  for (std::size_t i = 0; i < 16; ++i) EXPECT_EQ(v.snapshot[i * protocol::MaxSnapshotSliceBytes], i);
}

TEST(SnapshotReassembler, RandomHostileStreamsNeverAllocate) {
  const uint64_t seed = test::test_seed(0xbad'f7a6);
  Rng rng(seed);
  SnapshotReassembler r(small_config(120));
  Bytes slice(200, 0x5c);
  const uint64_t before = test::allocation_count();
  uint64_t outcomes = 0;
  uint32_t newest = 100;
  for (int i = 0; i < 200'000; ++i) {
    // Mostly the newest tick or the next, sometimes an older one.
    newest += static_cast<uint32_t>(rng.below(8) == 0);
    const auto tick = newest - static_cast<uint32_t>(rng.below(4) == 0 ? rng.below(5) : 0);
    const auto count = static_cast<uint8_t>(rng.below(20));
    const auto index = static_cast<uint8_t>(rng.below(20));
    const std::size_t length = static_cast<std::size_t>(rng.below(70));
    const FragmentVerdict v = r.accept(tick, index, count, std::span<const uint8_t>(slice.data(), length));
    outcomes += v.outcome == FragmentOutcome::refused ? 0 : 1;
  }
  const uint64_t allocations = test::allocation_count() - before;
  // The stream reached every rule, and some sets still completed between the refusals.
  for (std::size_t k = 0; k < FragmentRefusalCounters::size(); ++k) {
    const auto reason = static_cast<FragmentRefusal>(k);
    EXPECT_GT(r.refusals()[reason], 0u) << reason_name(reason);
  }
  EXPECT_GT(r.completed_sets(), 0u);
  EXPECT_GT(r.abandoned_sets(), 0u);
  EXPECT_EQ(outcomes, r.stored_fragments());
  EXPECT_EQ(r.stored_fragments() + r.refusals().total(), 200'000u);
  if (test::allocation_counting()) {
    EXPECT_EQ(allocations, 0u);
  }
}

}  // namespace
}  // namespace tickwire

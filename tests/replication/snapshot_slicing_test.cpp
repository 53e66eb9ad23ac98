// Slicer to reassembler round trips: every size from an empty message to MaxSnapshotBytes (whole
// below the budget, sliced up to the 16-fragment ceiling, refused past it), the boundaries one byte
// either side of a fragment, arrival in any order, no allocation after construction, and a set of
// 16 fragments carried by two real reliability endpoints through NetChannel.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "allocation_counter.h"
#include "snapshot_fragment_support.h"
#include "support.h"
#include "tickwire/replication/fragments/snapshot_reassembler.h"
#include "tickwire/replication/fragments/snapshot_slicer.h"
#include "tickwire/transport/net_channel.h"
#include "tickwire/transport/reliable_endpoint.h"

namespace tickwire {
namespace {

using protocol::SnapshotFragment;
using test::Bytes;

// Slices a snapshot of `size` bytes and reassembles it in the order `order` gives (identity when
// empty); checks every rule a round trip must keep.
void round_trip(std::size_t size, uint32_t tick, std::vector<std::size_t> order = {}) {
  const SnapshotFragmentBudget budget = test::default_budget();
  SnapshotSlicer slicer(budget);
  SnapshotReassembler reassembler({budget});
  const Bytes snapshot = test::make_snapshot(size, tick);
  SliceResult result;
  const std::vector<SnapshotFragment> fragments = test::slice_and_decode(slicer, Tick::from_value(tick), snapshot, &result);
  if (size <= budget.whole_max_bytes()) {
    EXPECT_EQ(result.outcome, SliceOutcome::whole) << size;
    EXPECT_TRUE(fragments.empty());
    return;
  }
  if (size > budget.ceiling_bytes()) {
    EXPECT_EQ(result.outcome, SliceOutcome::over_ceiling) << size;
    EXPECT_EQ(slicer.over_ceiling(), 1u);
    EXPECT_TRUE(fragments.empty());
    return;
  }
  ASSERT_EQ(result.outcome, SliceOutcome::fragmented) << size;
  ASSERT_EQ(result.fragment_count, budget.fragments_for(size)) << size;
  ASSERT_LE(result.fragment_count, protocol::MaxSnapshotFragments);
  for (std::size_t i = 0; i < result.fragment_count; ++i) {
    EXPECT_LE(slicer.fragment(i).size(), budget.message_cap_bytes);
    EXPECT_EQ(fragments[i].tick, tick);
    EXPECT_EQ(fragments[i].fragment_index, i);
    EXPECT_EQ(fragments[i].fragment_count, result.fragment_count);
    if (i + 1 < result.fragment_count) {
      EXPECT_EQ(fragments[i].slice.size(), budget.max_slice_bytes()) << size;
    }
  }
  if (order.empty()) {
    order.resize(fragments.size());
    std::iota(order.begin(), order.end(), 0);
  }
  for (std::size_t k = 0; k < order.size(); ++k) {
    const FragmentVerdict v = reassembler.accept(fragments[order[k]]);
    if (k + 1 < order.size()) {
      ASSERT_EQ(v.outcome, FragmentOutcome::stored) << "size " << size << " fragment " << order[k];
      continue;
    }
    ASSERT_EQ(v.outcome, FragmentOutcome::completed) << size;
    EXPECT_EQ(v.tick, tick);
    ASSERT_EQ(v.snapshot.size(), size);
    EXPECT_TRUE(std::equal(v.snapshot.begin(), v.snapshot.end(), snapshot.begin())) << size;
  }
  EXPECT_EQ(reassembler.refusals().total(), 0u);
  EXPECT_EQ(reassembler.completed_sets(), 1u);
}

TEST(SnapshotSlicing, SnapshotsWithinTheBudgetGoWhole) {
  SnapshotSlicer slicer(test::default_budget());
  for (std::size_t size : {std::size_t{0}, std::size_t{1}, std::size_t{500}, std::size_t{1097}, std::size_t{1098}}) {
    const Bytes snapshot = test::make_snapshot(size, 1);
    const SliceResult r = slicer.slice(Tick::from_value(1), snapshot);
    EXPECT_EQ(r.outcome, SliceOutcome::whole) << size;
    EXPECT_EQ(r.fragment_count, 0u);
  }
  EXPECT_EQ(slicer.whole_snapshots(), 5u);
  EXPECT_EQ(slicer.fragmented_snapshots(), 0u);
}

TEST(SnapshotSlicing, RoundTripsOneByteEitherSideOfEveryFragmentBoundary) {
  const SnapshotFragmentBudget budget = test::default_budget();
  std::vector<std::size_t> sizes{0, 1, budget.whole_max_bytes() - 1, budget.whole_max_bytes(), budget.whole_max_bytes() + 1};
  for (std::size_t k = 2; k <= protocol::MaxSnapshotFragments + 1; ++k) {
    const std::size_t edge = k * budget.max_slice_bytes();
    sizes.insert(sizes.end(), {edge - 1, edge, edge + 1});
  }
  sizes.push_back(protocol::MaxSnapshotBytes);
  uint32_t tick = 100;
  for (std::size_t size : sizes) round_trip(size, tick++);
}

TEST(SnapshotSlicing, RoundTripsEverySizeUpToMaxSnapshotBytesInSteps) {
  uint32_t tick = 1;
  for (std::size_t size = 0; size <= protocol::MaxSnapshotBytes; size += 97) round_trip(size, tick++);
}

TEST(SnapshotSlicing, SixteenFragmentsAreSentAndSeventeenAreNot) {
  const SnapshotFragmentBudget budget = test::default_budget();
  SnapshotSlicer slicer(budget);
  const Bytes sixteen = test::make_snapshot(16 * budget.max_slice_bytes(), 5);
  EXPECT_EQ(slicer.slice(Tick::from_value(5), sixteen).fragment_count, 16u);
  round_trip(sixteen.size(), 5);

  const Bytes seventeen = test::make_snapshot(16 * budget.max_slice_bytes() + 1, 6);
  const SliceResult r = slicer.slice(Tick::from_value(6), seventeen);
  EXPECT_EQ(r.outcome, SliceOutcome::over_ceiling);
  EXPECT_EQ(r.fragment_count, 0u);
  EXPECT_EQ(slicer.over_ceiling(), 1u);
  EXPECT_EQ(slicer.fragmented_snapshots(), 1u);
  test::ThrowOnAssert guard;
  EXPECT_THROW((void)slicer.fragment(0), test::AssertionFailure) << "nothing of a refused snapshot is there to send";
}

TEST(SnapshotSlicing, ArrivalInAnyOrderReassemblesTheSameBytes) {
  const uint64_t seed = test::test_seed(0x5eed'f4a9);
  Rng rng(seed);
  const SnapshotFragmentBudget budget = test::default_budget();
  for (std::size_t count : {std::size_t{2}, std::size_t{7}, std::size_t{16}}) {
    const std::size_t size = (count - 1) * budget.max_slice_bytes() + 1 + static_cast<std::size_t>(rng.below(budget.max_slice_bytes()));
    std::vector<std::size_t> reversed(count);
    std::iota(reversed.rbegin(), reversed.rend(), 0);
    round_trip(size, 9, reversed);
    for (int trial = 0; trial < 20; ++trial) {
      std::vector<std::size_t> order(count);
      std::iota(order.begin(), order.end(), 0);
      for (std::size_t i = count - 1; i > 0; --i) std::swap(order[i], order[rng.below(i + 1)]);
      round_trip(size, 10 + static_cast<uint32_t>(trial), order);
    }
  }
}

TEST(SnapshotSlicing, SlicingAndReassemblyAllocateNothingAfterConstruction) {
  const SnapshotFragmentBudget budget = test::default_budget();
  SnapshotSlicer slicer(budget);
  SnapshotReassembler reassembler({budget});
  const Bytes snapshot = test::make_snapshot(16 * budget.max_slice_bytes(), 3);
  // The client's receive path: one SnapshotFragment reused, its slice capacity reserved once.
  SnapshotFragment received;
  received.slice.reserve(protocol::MaxSnapshotSliceBytes);
  const uint64_t before = test::allocation_count();
  uint64_t completed = 0;
  for (uint32_t tick = 1; tick <= 20; ++tick) {
    const SliceResult r = slicer.slice(Tick::from_value(tick), snapshot);
    for (std::size_t i = 0; i < r.fragment_count; ++i) {
      const std::span<const uint8_t> message = slicer.fragment(i);
      if (!wire::decode(message.subspan(1), received).ok()) continue;
      if (reassembler.accept(received).outcome == FragmentOutcome::completed) ++completed;
    }
  }
  const uint64_t allocations = test::allocation_count() - before;
  EXPECT_EQ(completed, 20u);
  if (test::allocation_counting()) {
    EXPECT_EQ(allocations, 0u);
  }
}

// Sends every packet one endpoint writes straight into the other.
struct Wire final : PacketSink {
  ReliableEndpoint* to = nullptr;
  MonoTime now;
  std::size_t packets = 0;
  void on_packet(uint16_t, std::span<const uint8_t> payload) override {
    ++packets;
    EXPECT_TRUE(to->receive_packet(payload, now).ok());
  }
};

TEST(SnapshotSlicing, SixteenFragmentsCrossRealEndpointsThroughNetChannel) {
  EndpointConfig config = EndpointConfig::defaults();
  config.channels[1] = snapshot_channel_config();
  config.max_packets_per_write = 24;
  config.validate();
  ReliableEndpoint server_end(config), client_end(config);
  NetChannel server(server_end, kAuthorityOwner, 1), client(client_end, 1, kAuthorityOwner);
  const SnapshotFragmentBudget budget = SnapshotFragmentBudget::for_channel(config.channels[1]);
  SnapshotSlicer slicer(budget);
  SnapshotReassembler reassembler({budget});
  Wire wire;
  wire.to = &client_end;
  wire.now = MonoTime::from_ns(1'000'000'000);

  for (uint32_t tick = 1; tick <= 3; ++tick) {
    const Bytes snapshot = test::make_snapshot(16 * budget.max_slice_bytes() - 10 * tick, tick);
    const SliceResult r = slicer.slice(Tick::from_value(tick), snapshot);
    ASSERT_EQ(r.fragment_count, 16u);
    for (std::size_t i = 0; i < r.fragment_count; ++i) {
      const std::span<const uint8_t> message = slicer.fragment(i);
      ASSERT_TRUE(server.send(1, message[0], message.subspan(1)).ok()) << "fragment " << i;
    }
    server.flush(wire.now, wire);
    std::size_t received = 0;
    bool completed = false;
    while (const std::optional<NetMessage> m = client.receive(1)) {
      ++received;
      ASSERT_EQ(m->type, SnapshotFragment::wire_id);
      SnapshotFragment fragment;
      ASSERT_TRUE(wire::decode(m->payload, fragment).ok());
      const FragmentVerdict v = reassembler.accept(fragment);
      if (v.outcome != FragmentOutcome::completed) continue;
      completed = true;
      EXPECT_EQ(v.tick, tick);
      EXPECT_TRUE(std::equal(v.snapshot.begin(), v.snapshot.end(), snapshot.begin(), snapshot.end()));
    }
    EXPECT_EQ(received, 16u);
    EXPECT_TRUE(completed) << "tick " << tick;
    wire.now += Duration::milliseconds(16);
  }
  EXPECT_EQ(reassembler.completed_sets(), 3u);
  EXPECT_EQ(reassembler.refusals().total(), 0u);
}

}  // namespace
}  // namespace tickwire

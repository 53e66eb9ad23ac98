// Fragmented snapshots under loss: a seeded stream of 600 ticks of 5-fragment snapshots through the
// slicer, the wire encoding and the reassembler, with 5% of fragments lost and each tick's fragments
// reordered. Every loss costs exactly its tick: each tick whose fragments all arrived completes,
// during its own delivery (no backlog), with its own bytes, and no tick completes twice.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "snapshot_fragment_support.h"
#include "support.h"
#include "tickwire/core/rng.h"
#include "tickwire/replication/fragments/snapshot_reassembler.h"
#include "tickwire/replication/fragments/snapshot_slicer.h"

namespace tickwire {
namespace {

using protocol::SnapshotFragment;
using test::Bytes;

constexpr uint32_t kTicks = 600;
constexpr std::size_t kFragments = 5;

struct StreamLink {
  double loss = 0.0;       // a fragment is dropped
  double duplicate = 0.0;  // a fragment is delivered twice within its tick
  double straggle = 0.0;   // a fragment arrives after the next tick's fragments
};

struct Delivery {
  uint32_t tick;
  SnapshotFragment fragment;
};

// The fragments of every tick, shuffled within the tick, thinned, duplicated and delayed per `link`.
std::vector<Delivery> make_stream(Rng& rng, const StreamLink& link, std::map<uint32_t, Bytes>& snapshots) {
  const SnapshotFragmentBudget budget = test::default_budget();
  SnapshotSlicer slicer(budget);
  std::vector<Delivery> stream, stragglers;
  for (uint32_t tick = 1; tick <= kTicks; ++tick) {
    const std::size_t size = (kFragments - 1) * budget.max_slice_bytes() + 1 + rng.below(budget.max_slice_bytes());
    snapshots[tick] = test::make_snapshot(size, tick);
    std::vector<SnapshotFragment> fragments = test::slice_and_decode(slicer, Tick::from_value(tick), snapshots[tick]);
    EXPECT_EQ(fragments.size(), kFragments);
    for (std::size_t i = fragments.size() - 1; i > 0; --i) std::swap(fragments[i], fragments[rng.below(i + 1)]);
    std::vector<Delivery> late;
    for (SnapshotFragment& f : fragments) {
      if (rng.chance(link.loss)) continue;
      if (rng.chance(link.duplicate)) stream.push_back({tick, f});
      (rng.chance(link.straggle) ? late : stream).push_back({tick, std::move(f)});
    }
    stream.insert(stream.end(), stragglers.begin(), stragglers.end());  // the previous tick's late ones
    stragglers = std::move(late);
  }
  stream.insert(stream.end(), stragglers.begin(), stragglers.end());
  return stream;
}

// The reference: a tick completes iff all its indices arrive before any fragment of a newer tick,
// at the position where the last missing index arrives. Returns position -> tick.
std::map<std::size_t, uint32_t> expected_completions(const std::vector<Delivery>& stream) {
  std::map<uint32_t, std::size_t> first_newer;  // tick -> first position holding a newer tick
  uint32_t newest = 0;
  for (std::size_t k = 0; k < stream.size(); ++k) {
    for (uint32_t t = newest; t < stream[k].tick; ++t) first_newer.emplace(t, k);
    newest = std::max(newest, stream[k].tick);
  }
  std::map<uint32_t, std::set<uint8_t>> seen;
  std::map<std::size_t, uint32_t> out;
  for (std::size_t k = 0; k < stream.size(); ++k) {
    const uint32_t t = stream[k].tick;
    const auto cut = first_newer.find(t);
    if (cut != first_newer.end() && k >= cut->second) continue;
    std::set<uint8_t>& indices = seen[t];
    const bool fresh = indices.insert(stream[k].fragment.fragment_index).second;
    if (fresh && indices.size() == kFragments) out[k] = t;
  }
  return out;
}

struct StreamFigures {
  std::size_t delivered = 0, completed = 0, abandoned = 0, refused = 0;
};

StreamFigures run_stream(uint64_t seed, const StreamLink& link) {
  Rng rng(seed);
  std::map<uint32_t, Bytes> snapshots;
  const std::vector<Delivery> stream = make_stream(rng, link, snapshots);
  const std::map<std::size_t, uint32_t> expected = expected_completions(stream);
  SnapshotReassembler reassembler({test::default_budget()});
  std::map<std::size_t, uint32_t> completed;
  for (std::size_t k = 0; k < stream.size(); ++k) {
    const FragmentVerdict v = reassembler.accept(stream[k].fragment);
    if (v.outcome != FragmentOutcome::completed) continue;
    EXPECT_TRUE(completed.empty() || v.tick > completed.rbegin()->second) << "tick " << v.tick << " completed twice or late";
    completed[k] = v.tick;
    const Bytes& sent = snapshots[v.tick];
    EXPECT_TRUE(std::equal(v.snapshot.begin(), v.snapshot.end(), sent.begin(), sent.end())) << "tick " << v.tick;
  }
  EXPECT_EQ(completed, expected) << "a tick completed other than exactly when its last fragment arrived";
  StreamFigures figures;
  figures.delivered = stream.size();
  figures.completed = completed.size();
  figures.abandoned = reassembler.abandoned_sets();
  figures.refused = reassembler.refusals().total();
  return figures;
}

TEST(SnapshotFragmentLoss, EachLostFragmentCostsExactlyItsTick) {
  const uint64_t seed = test::test_seed(0x10553);
  const StreamLink link{0.05, 0.0, 0.0};
  Rng rng(seed);
  std::map<uint32_t, Bytes> snapshots;
  const std::vector<Delivery> stream = make_stream(rng, link, snapshots);
  // Which ticks lost anything, straight from the stream.
  std::map<uint32_t, std::size_t> arrived;
  for (const Delivery& d : stream) ++arrived[d.tick];
  std::set<uint32_t> whole_ticks;
  std::size_t partial_then_newer = 0;
  for (uint32_t t = 1; t <= kTicks; ++t) {
    if (arrived[t] == kFragments) whole_ticks.insert(t);
    const bool later_arrival = std::any_of(arrived.upper_bound(t), arrived.end(), [](auto& e) { return e.second > 0; });
    if (arrived[t] > 0 && arrived[t] < kFragments && later_arrival) ++partial_then_newer;
  }

  SnapshotReassembler reassembler({test::default_budget()});
  std::set<uint32_t> completed;
  for (const Delivery& d : stream) {
    const FragmentVerdict v = reassembler.accept(d.fragment);
    if (v.outcome != FragmentOutcome::completed) continue;
    EXPECT_EQ(v.tick, d.tick) << "a set completed on another tick's fragment";
    EXPECT_TRUE(completed.insert(v.tick).second) << "tick " << v.tick << " completed twice";
    const Bytes& sent = snapshots[v.tick];
    EXPECT_TRUE(std::equal(v.snapshot.begin(), v.snapshot.end(), sent.begin(), sent.end())) << "tick " << v.tick;
  }
  EXPECT_EQ(completed, whole_ticks);
  EXPECT_EQ(reassembler.refusals().total(), 0u);
  EXPECT_EQ(reassembler.abandoned_sets(), partial_then_newer);
  const std::size_t lost_fragments = kTicks * kFragments - stream.size();
  std::printf("[ loss ] %zu of %zu fragments lost, %zu of %u ticks lost (%zu abandoned partial sets)\n", lost_fragments,
              kTicks * kFragments, kTicks - completed.size(), kTicks, static_cast<std::size_t>(reassembler.abandoned_sets()));
  EXPECT_GT(lost_fragments, 0u);
  EXPECT_LE(kTicks - completed.size(), lost_fragments) << "a loss cost more than its own tick";

  // The same stream judged by the positional reference.
  const StreamFigures figures = run_stream(seed, link);
  EXPECT_EQ(figures.completed, completed.size());
}

TEST(SnapshotFragmentLoss, StragglersAndDuplicatesCostAtMostTheirOwnTick) {
  const uint64_t seed = test::test_seed(0x57a6);
  const StreamFigures figures = run_stream(seed, StreamLink{0.05, 0.03, 0.03});
  std::printf("[ loss ] %zu delivered, %zu completed of %u, %zu abandoned, %zu refused\n", figures.delivered,
              figures.completed, kTicks, figures.abandoned, figures.refused);
  EXPECT_GT(figures.refused, 0u) << "duplicates and stragglers were refused, not applied";
  EXPECT_GT(figures.completed, kTicks / 2);
}

}  // namespace
}  // namespace tickwire

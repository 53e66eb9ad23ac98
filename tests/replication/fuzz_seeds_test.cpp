// The seed corpus of fuzz_snapshot_reassembly (tests/fixtures/fuzz/fuzz_snapshot_reassembly/):
// fragment streams built with the real slicer, so the fuzzer starts with sets that complete,
// arrive out of order, repeat, get abandoned and break the rules. Checked here to be what they
// claim (each stream's effect on a reassembler); regenerated with TICKWIRE_FUZZ_SEEDS=write.
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <string>

#include "snapshot_fragment_support.h"
#include "fuzz_seed_check.h"
#include "support.h"
#include "tickwire/core/bytes.h"

namespace tickwire {
namespace {

using protocol::SnapshotFragment;
using test::Bytes;

// The fuzz input format: a config byte, then (u16 length, SnapshotFragment body) records.
// Config 0x20: a message cap of header + 1 + 32 bytes (33-byte slices); 0x40 adds a maximum
// snapshot of 4 slices; 0x80 takes the default channel's budget.
constexpr uint8_t kSmallConfig = 0x20;
constexpr uint8_t kSmallMaxConfig = 0x60;
constexpr uint8_t kDefaultConfig = 0x80;
const SnapshotFragmentBudget kSmallBudget = SnapshotFragmentBudget::of(protocol::SnapshotFragmentHeaderBytes + 1 + 32);

struct Seed {
  uint8_t config = 0;
  std::vector<Bytes> bodies;
  SnapshotReassemblerConfig reassembler;
  uint64_t completed = 0;  // sets the stream completes
};

Bytes body_of(const SnapshotFragment& f) {
  Bytes out(wire::measure(f));
  EXPECT_TRUE(wire::encode(f, out).ok());
  return out;
}

SnapshotFragment hand_made(uint32_t tick, uint8_t index, uint8_t count, std::size_t bytes) {
  SnapshotFragment f;
  f.tick = tick;
  f.fragment_index = index;
  f.fragment_count = count;
  f.slice.assign(bytes, protocol::SliceByte{0x7e});
  return f;
}

// The fragments of one snapshot of `size` bytes at `tick`, as bodies, in the order `order` gives.
std::vector<Bytes> sliced(const SnapshotFragmentBudget& budget, uint32_t tick, std::size_t size,
                          std::vector<std::size_t> order = {}) {
  SnapshotSlicer slicer(budget);
  const Bytes snapshot = test::make_snapshot(size, tick);
  const std::vector<SnapshotFragment> fragments = test::slice_and_decode(slicer, Tick::from_value(tick), snapshot);
  if (order.empty()) {
    for (std::size_t i = 0; i < fragments.size(); ++i) order.push_back(i);
  }
  std::vector<Bytes> out;
  for (std::size_t i : order) out.push_back(body_of(fragments.at(i)));
  return out;
}

std::map<std::string, Seed> build_seeds() {
  std::map<std::string, Seed> seeds;
  const SnapshotReassemblerConfig small{kSmallBudget};
  seeds["in_order"] = {kSmallConfig, sliced(kSmallBudget, 3, 100), small, 1};
  {
    Seed s{kSmallConfig, sliced(kSmallBudget, 5, 120, {2, 0, 0, 3, 1}), small, 1};
    std::vector<Bytes> six = sliced(kSmallBudget, 6, 90);
    std::vector<Bytes> seven = sliced(kSmallBudget, 7, 60, {1, 0});
    s.bodies.insert(s.bodies.end(), {six[1], six[0], seven[0], six[2], seven[1]});
    s.completed = 2;  // 5 and 7; 6 is abandoned and its straggler refused
    seeds["shuffled_duplicate_abandoned"] = s;
  }
  {
    Seed s{kSmallConfig, {}, small, 1};
    for (const SnapshotFragment& f : {hand_made(9, 0, 0, 4), hand_made(9, 0, 17, 4), hand_made(9, 3, 3, 4),
                                      hand_made(9, 0, 2, 40), hand_made(9, 1, 2, 4), hand_made(9, 1, 2, 4),
                                      hand_made(9, 0, 3, 4), hand_made(8, 0, 2, 4), hand_made(9, 0, 2, 5)}) {
      s.bodies.push_back(body_of(f));
    }
    seeds["hostile_headers"] = s;
  }
  {
    SnapshotReassemblerConfig capped{kSmallBudget, 4 * kSmallBudget.max_slice_bytes()};
    seeds["too_large"] = {kSmallMaxConfig, sliced(kSmallBudget, 11, 5 * 33), capped, 0};
  }
  {
    const SnapshotFragmentBudget budget = test::default_budget();
    seeds["default_budget"] = {kDefaultConfig, sliced(budget, 12, budget.whole_max_bytes() + 200), {budget}, 1};
  }
  return seeds;
}

Bytes serialize(const Seed& seed) {
  Bytes out{seed.config};
  for (const Bytes& body : seed.bodies) {
    test::append_length_prefixed(out, body);
  }
  return out;
}

TEST(SnapshotReassemblyFuzzSeeds, CheckedInSeedsAreTheStreamsTheyClaim) {
  const auto dir = test::fixtures_dir() / "fuzz" / "fuzz_snapshot_reassembly";
  for (const auto& [name, seed] : build_seeds()) {
    const Bytes fresh = serialize(seed);
    test::check_fuzz_seed(dir, name, fresh);
    SnapshotReassembler reassembler(seed.reassembler);
    for (const Bytes& body : seed.bodies) {
      SnapshotFragment f;
      ASSERT_TRUE(wire::decode(body, f).ok()) << name;
      (void)reassembler.accept(f);
    }
    EXPECT_EQ(reassembler.completed_sets(), seed.completed) << name;
    EXPECT_EQ(reassembler.stored_fragments() + reassembler.refusals().total(), seed.bodies.size()) << name;
  }
}

}  // namespace
}  // namespace tickwire

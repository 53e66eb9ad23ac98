// The seed corpus of fuzz_snapshot_delta (tests/fixtures/fuzz/fuzz_snapshot_delta/): bodies the
// real encoder wrote against each reference choice, plus bodies broken in the ways the decoder
// must refuse, so the fuzzer starts inside the format. Checked here to be what they claim (each
// decodes to its frame or is refused for its reason); regenerated with TICKWIRE_FUZZ_SEEDS=write.
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <optional>
#include <string>

#include "snapshot_delta_fuzz_input.h"
#include "fuzz_seed_check.h"
#include "support.h"

namespace tickwire {
namespace {

using test::kFuzzBaseline;
using test::kFuzzOlder;
using test::kFuzzRestFrame;
using test::fuzz_kinds;

struct Seed {
  uint8_t flags = 0;
  uint16_t frame_seed = 0;
  uint32_t tick = 0;
  std::vector<uint8_t> body;
  std::optional<ReplicaFrame> decodes_to;  // else refused for `refusal`
  DeltaRefusal refusal = DeltaRefusal::count_;
};

// A body the encoder writes for the frame 3 ticks after the seed's baseline, with `encode_flags`'
// references; the decoder is then given `decode_flags`' references.
Seed encoded(uint8_t encode_flags, uint8_t decode_flags, uint16_t frame_seed) {
  test::FuzzReferences refs;
  test::build_fuzz_references(encode_flags, frame_seed, refs);
  Rng rng(frame_seed + 1u);
  ReplicaFrame current = test::successor(rng, refs.baseline, 3, 48);
  current.owner = test::random_owner(rng);
  Seed seed{decode_flags, frame_seed, current.tick, {}, current};
  const auto stats = encode_snapshot_delta(current, refs.refs, fuzz_kinds(), seed.body);
  EXPECT_TRUE(stats.ok());
  if ((encode_flags & test::kFuzzHistory) != 0) {
    EXPECT_NE(stats->fit_frames, 0u) << "a seed that fits";
  }
  return seed;
}

Seed refused(Seed seed, DeltaRefusal reason) {
  seed.decodes_to.reset();
  seed.refusal = reason;
  return seed;
}

std::map<std::string, Seed> build_seeds() {
  std::map<std::string, Seed> seeds;
  const uint8_t both = kFuzzBaseline | kFuzzOlder;
  seeds["against_nothing"] = encoded(0, 0, 1);
  seeds["against_baseline"] = encoded(kFuzzBaseline, kFuzzBaseline, 2);
  seeds["baseline_and_older"] = encoded(both, both, 3);
  const uint8_t fitted = both | test::kFuzzHistory;
  seeds["fitted_over_history"] = encoded(fitted, fitted, 9);
  seeds["missing_history"] = refused(encoded(fitted, both, 10), DeltaRefusal::missing_history);
  seeds["against_rest_frame"] = encoded(kFuzzBaseline | kFuzzRestFrame, kFuzzBaseline | kFuzzRestFrame, 4);
  seeds["missing_older"] = refused(encoded(both, kFuzzBaseline, 5), DeltaRefusal::missing_older);
  seeds["missing_baseline"] = refused(encoded(kFuzzBaseline, 0, 6), DeltaRefusal::missing_baseline);
  {
    Seed s = encoded(kFuzzBaseline, kFuzzBaseline, 7);
    s.body.insert(s.body.end(), 12, 0x00);
    seeds["trailing_zeros"] = refused(s, DeltaRefusal::trailing_bytes);
  }
  {
    Seed s = encoded(both, both, 8);
    s.tick = 101;  // the baseline (103) is newer than the body
    seeds["baseline_from_the_future"] = refused(s, DeltaRefusal::reference_ticks);
  }
  return seeds;
}

TEST(SnapshotDeltaFuzzSeeds, CheckedInSeedsAreTheBodiesTheyClaim) {
  const auto dir = test::fixtures_dir() / "fuzz" / "fuzz_snapshot_delta";
  const ReplicaKinds kinds = fuzz_kinds();
  for (const auto& [name, seed] : build_seeds()) {
    const std::vector<uint8_t> fresh = test::fuzz_input(seed.flags, seed.frame_seed, seed.tick, seed.body);
    test::check_fuzz_seed(dir, name, fresh);
    test::FuzzReferences refs;
    test::build_fuzz_references(seed.flags, seed.frame_seed, refs);
    ReplicaFrame out;
    DeltaRefusal refusal = DeltaRefusal::count_;
    const Status status = decode_snapshot_delta(seed.body, seed.tick, refs.refs, kinds, out, &refusal);
    if (seed.decodes_to) {
      ASSERT_TRUE(status.ok()) << name << ": " << reason_name(refusal);
      EXPECT_EQ(out, *seed.decodes_to) << name;
    } else {
      ASSERT_FALSE(status.ok()) << name;
      EXPECT_EQ(refusal, seed.refusal) << name << ": " << reason_name(refusal);
    }
  }
}

}  // namespace
}  // namespace tickwire

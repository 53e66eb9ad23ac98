// Hostile SnapshotDelta bodies: each rule the decoder enforces, broken by a body crafted with the
// codec's own coder (unchecked), is refused with its reason, and nothing is misapplied: a body
// needing a reference it was not given, ids out of order or repeated, a step symbol no step has,
// too many channels or sections, a bad form, a corrupt stream, trailing bytes.
#include <gtest/gtest.h>

#include <limits>
#include <vector>

#include "../../src/replication/delta/delta_frame.h"
#include "replica_frame_support.h"
#include "support.h"
#include "tickwire/replication/delta/snapshot_delta_codec.h"

namespace tickwire {
namespace {

using delta::EncodeIO;
using delta::FrameModels;
using delta::RecordOp;
using delta::RecordStep;

// Writes a body by hand: header, no owner, then whatever ops the test scripts.
class Crafter {
 public:
  // `world`: the settings the body names (the baseline's are the defaults).
  Crafter(bool baseline, bool older, protocol::WorldSettings world = {}) : io_(bytes_, false), models_(FrameModels::fresh()) {
    uint64_t header = (baseline ? 1u : 0u) | (older ? 2u : 0u);
    io_.raw(header, 2);
    bool owner = false;
    io_.bit(models_.owner_present, owner);
    delta::code_world(io_, models_.world, protocol::WorldSettings{}, world);
    bool fit = false;  // the fixture's baseline is a snapshot: the body says it fits over no history
    if (baseline) io_.bit(models_.fit, fit);
  }
  void end(bool end) { delta::code_end(io_, models_, end); }
  // The step at a baseline record (none past the baseline: an addition follows uncoded). Bodies
  // here use no older frame, so every step is in the no_older context.
  void step(RecordStep step) {
    (void)delta::code_step(io_, models_, delta::KeepContext::no_older, previous_, step);
    if (step != RecordStep::kept && step <= RecordStep::removed) previous_ = delta::op_of(step);
  }
  void gap(uint64_t gap) { io_.uint(models_.id_gap, gap, 33); }
  void record(const ReplicaState& base, ReplicaState s, const ReplicaKinds& kinds) {
    delta::RecordRefs refs{&base, nullptr, {}, &kinds};
    delta::code_record(io_, models_.record, refs, s);
  }
  // An addition after `previous` (null: the frame's first record), coded as the encoder would.
  void add(const ReplicaState* previous, ReplicaState s, const ReplicaKinds& kinds) {
    const delta::RecordRefs refs = delta::added_refs(io_, models_.record.added_like_previous, s, previous, nullptr, kinds);
    delta::code_record(io_, models_.record, refs, s);
  }
  std::vector<uint8_t> finish() {
    io_.finish();
    return bytes_;
  }

 private:
  std::vector<uint8_t> bytes_;
  EncodeIO io_;
  FrameModels models_;
  RecordOp previous_ = RecordOp::changed;
};

struct Fixture {
  ReplicaKinds kinds = ReplicaKinds::defaults();
  ReplicaFrame older, baseline;
  Fixture() {
    Rng rng(11);
    older.tick = 4;
    baseline.tick = 7;
    for (uint32_t id : {2u, 5u, 9u}) {
      older.states.push_back(test::random_state(rng, id));
      baseline.states.push_back(test::random_state(rng, id));
    }
  }
  DeltaRefusal refused(const std::vector<uint8_t>& body, DeltaRefs refs, uint32_t tick = 10) {
    ReplicaFrame out;
    DeltaRefusal reason = DeltaRefusal::count_;
    const Status status = decode_snapshot_delta(body, tick, refs, kinds, out, &reason);
    EXPECT_FALSE(status.ok());
    return status.ok() ? DeltaRefusal::count_ : reason;
  }
};

TEST(SnapshotDeltaHostile, MissingReferencesAreRefused) {
  Fixture f;
  ReplicaFrame current = f.baseline;
  current.tick = 10;
  current.states[1].position[0] += 3;
  std::vector<uint8_t> body;
  ASSERT_TRUE(encode_snapshot_delta(current, {&f.baseline, &f.older}, f.kinds, body).ok());
  EXPECT_EQ(f.refused(body, {}), DeltaRefusal::missing_baseline);
  EXPECT_EQ(f.refused(body, {&f.baseline, nullptr}), DeltaRefusal::missing_older);
  EXPECT_EQ(f.refused(body, {&f.baseline, &f.older}, 7), DeltaRefusal::reference_ticks);
  EXPECT_EQ(f.refused(body, {&f.older, &f.baseline}), DeltaRefusal::reference_ticks);
  ReplicaFrame out;
  EXPECT_TRUE(decode_snapshot_delta(body, 10, {&f.baseline, &f.older}, f.kinds, out).ok());
  EXPECT_EQ(out, current);
}

// World settings out of range (a NaN time scale would step every pawn by NaN seconds) are refused;
// the same body naming settings in range decodes.
TEST(SnapshotDeltaHostile, WorldSettingsOutOfRangeAreRefused) {
  Fixture f;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const auto body_naming = [&](const protocol::WorldSettings& world) {
    Crafter c(true, false, world);
    c.end(true);  // every baseline record kept
    return c.finish();
  };
  for (const protocol::WorldSettings& bad : {protocol::WorldSettings{nan, 1.0f}, protocol::WorldSettings{1.0f, nan},
                                            protocol::WorldSettings{1.5f, 1.0f}, protocol::WorldSettings{-0.0001f, 1.0f},
                                            protocol::WorldSettings{1.0f, -0.5f}, protocol::WorldSettings{1.0f, 9.0f},
                                            protocol::WorldSettings{1.0f, std::numeric_limits<float>::infinity()}}) {
    EXPECT_FALSE(protocol::valid_world_settings(bad));
    EXPECT_EQ(f.refused(body_naming(bad), {&f.baseline, nullptr}), DeltaRefusal::value_out_of_range);
  }
  ReplicaFrame out;
  ASSERT_TRUE(decode_snapshot_delta(body_naming({0.0f, 4.0f}), 10, {&f.baseline, nullptr}, f.kinds, out).ok());
  EXPECT_EQ(out.world, (protocol::WorldSettings{0.0f, 4.0f}));
  EXPECT_EQ(out.states, f.baseline.states);
}

TEST(SnapshotDeltaHostile, AddedIdsMustAscendAndBeNew) {
  Fixture f;
  Rng rng(3);
  const ReplicaState fresh = test::random_state(rng, 0);
  for (const auto& [gap, reason] : {std::pair{3u, DeltaRefusal::id_out_of_order}, {2u, DeltaRefusal::duplicate_id}}) {
    Crafter c(true, false);  // id 2 kept, then an id added before 5: 6 (past it) or 5 (held)
    c.end(false);
    c.step(RecordStep::kept);
    c.step(RecordStep::added);
    c.gap(gap);
    c.record(ReplicaState{}, fresh, f.kinds);
    c.end(true);
    EXPECT_EQ(f.refused(c.finish(), {&f.baseline, nullptr}), reason);
  }
  {
    Crafter c(false, false);  // an id past 2^32 - 1 (no baseline: an addition, uncoded)
    c.end(false);
    c.gap(uint64_t{1} << 32);
    EXPECT_EQ(f.refused(c.finish(), {}), DeltaRefusal::id_out_of_order);
  }
}

TEST(SnapshotDeltaHostile, StepSymbolsNoStepHasAreRefused) {
  Fixture f;
  for (unsigned symbol = static_cast<unsigned>(RecordStep::removed) + 1; symbol < delta::kCdfSymbols; ++symbol) {
    Crafter c(true, false);  // the first baseline record kept, then a symbol past `removed`
    c.end(false);
    c.step(RecordStep::kept);
    c.step(static_cast<RecordStep>(symbol));
    EXPECT_EQ(f.refused(c.finish(), {&f.baseline, nullptr}), DeltaRefusal::corrupt_stream) << "symbol " << symbol;
  }
}

// Past the baseline's records no removal or change can be named: what follows is an addition.
TEST(SnapshotDeltaHostile, PastTheBaselineOnlyAdditionsFollow) {
  Fixture f;
  Rng rng(5);
  const ReplicaState fresh = test::random_state(rng, 0);
  Crafter c(true, false);  // all three baseline records kept, then an addition after id 9
  c.end(false);
  for (int k = 0; k < 3; ++k) c.step(RecordStep::kept);
  c.end(false);
  c.gap(2);
  c.add(&f.baseline.states[2], fresh, f.kinds);
  c.end(true);
  ReplicaFrame out;
  ASSERT_TRUE(decode_snapshot_delta(c.finish(), 10, {&f.baseline, nullptr}, f.kinds, out).ok());
  ASSERT_EQ(out.states.size(), 4u);
  EXPECT_EQ(out.states[3].id, 12u);
}

TEST(SnapshotDeltaHostile, OverCapShapesAreRefused) {
  Fixture f;
  ReplicaState channels = f.baseline.states[0];
  channels.payloads[0].channel_count = 5;
  ReplicaState sections = f.baseline.states[0];
  sections.payload_count = 5;
  ReplicaState form = f.baseline.states[0];
  form.form = static_cast<ReplicaForm>(3);
  const std::pair<ReplicaState, DeltaRefusal> cases[] = {{channels, DeltaRefusal::too_many_channels},
                                                         {sections, DeltaRefusal::too_many_sections},
                                                         {form, DeltaRefusal::bad_form}};
  for (const auto& [state, reason] : cases) {
    Crafter c(true, false);
    c.end(false);
    c.step(RecordStep::changed);
    c.record(f.baseline.states[0], state, f.kinds);
    c.end(true);
    EXPECT_EQ(f.refused(c.finish(), {&f.baseline, nullptr}), reason);
  }
}

TEST(SnapshotDeltaHostile, CorruptStreamsAndTrailingBytesAreRefused) {
  Fixture f;
  EXPECT_EQ(f.refused({0xFF, 0xFF, 0xFF, 0xFF}, {&f.baseline, nullptr}), DeltaRefusal::corrupt_stream);
  ReplicaFrame current = f.baseline;
  current.tick = 10;
  current.states.erase(current.states.begin() + 1);
  std::vector<uint8_t> body;
  ASSERT_TRUE(encode_snapshot_delta(current, {&f.baseline, nullptr}, f.kinds, body).ok());
  ReplicaFrame out;
  ASSERT_TRUE(decode_snapshot_delta(body, 10, {&f.baseline, nullptr}, f.kinds, out).ok());
  EXPECT_EQ(out, current);
  std::vector<uint8_t> longer = body;
  longer.insert(longer.end(), 16, 0x5A);
  EXPECT_FALSE(decode_snapshot_delta(longer, 10, {&f.baseline, nullptr}, f.kinds, out).ok());
  std::vector<uint8_t> padded = body;
  padded.insert(padded.end(), 8, 0x00);
  EXPECT_EQ(f.refused(padded, {&f.baseline, nullptr}), DeltaRefusal::trailing_bytes);
}

TEST(SnapshotDeltaHostile, RandomBytesNeverCrashAndNeverPassTheCaps) {
  const uint64_t seed = test::test_seed(0xbad);
  Rng rng(seed);
  Fixture f;
  std::size_t accepted = 0;
  ReplicaFrame out;
  for (int round = 0; round < 3000; ++round) {
    std::vector<uint8_t> body(rng.below(64));
    for (uint8_t& b : body) b = static_cast<uint8_t>(rng.below(256));
    if (decode_snapshot_delta(body, 10, {&f.baseline, &f.older}, f.kinds, out).ok()) {
      ++accepted;
      EXPECT_LE(out.states.size(), kMaxReplicaFrameStates);
      for (std::size_t k = 1; k < out.states.size(); ++k) EXPECT_LT(out.states[k - 1].id, out.states[k].id);
      for (const ReplicaState& s : out.states) {
        EXPECT_LE(s.payload_count, 4);
        for (const ReplicaPayload& p : s.payloads) EXPECT_LE(p.channel_count, 4);
      }
    }
  }
  std::printf("%zu of 3000 random bodies decoded to a valid frame\n", accepted);
}

}  // namespace
}  // namespace tickwire

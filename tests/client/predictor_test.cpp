// The predictor against an authority over a fixed-latency link (a tiny game on both ends): a replay
// reproduces the authority exactly when nothing is lost; every correction, a 0.5 m push or a
// noclip-speed mispredict of tens of metres, is eased out over ~100 ms and never snapped; a
// placement epoch and an overflowed ring snap; a server-authored crouch eases the eye; noclip and
// frozen come only from the acked state and never go into a claim.
#include "tickwire/client/predictor.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "prediction_link.h"
#include "support.h"
#include "tickwire/core/rng.h"
#include "tickwire/protocol/vec3_math.h"

namespace tickwire {
namespace {

using protocol::length;
using test::kLinkTickS;
using test::PredictionLink;
using test::walk;

constexpr Duration kFrame = Duration::nanoseconds(4166667);  // a 240 Hz render frame

float distance(const protocol::Vec3& a, const protocol::Vec3& b) { return length(a - b); }

// Runs ticks until a reconcile absorbs (or snaps) a correction of at least `min_m`; the test then
// sees the drawn pose the tick before and after it.
struct Correction {
  ReconcileOutcome outcome;
  protocol::Vec3 drawn_before, drawn_after;
  float eye_before = 0, eye_after = 0;
  float offset_before_m = 0, eye_offset_before_m = 0;
};
Correction run_until_correction(PredictionLink& link, const protocol::InputCmd& cmd, float min_m, int max_ticks) {
  for (int i = 0; i < max_ticks; ++i) {
    Correction c;
    const std::size_t seen = link.outcomes.size();
    link.client_send(cmd);
    link.authority_tick();
    c.drawn_before = link.predictor.drawn_position();
    c.eye_before = link.predictor.drawn_value(test::kTinyEye);
    c.offset_before_m = length(link.predictor.offset_m());
    c.eye_offset_before_m = link.predictor.value_offset(test::kTinyEye);
    link.deliver();
    ++link.now_tick;
    for (std::size_t k = seen; k < link.outcomes.size(); ++k) {
      const ReconcileOutcome& o = link.outcomes[k];
      if (o.correction_m >= min_m || o.value_correction >= min_m) {
        c.outcome = o;
        c.drawn_after = link.predictor.drawn_position();
        c.eye_after = link.predictor.drawn_value(test::kTinyEye);
        return c;
      }
    }
    link.predictor.decay(Duration::from_seconds(kLinkTickS));
  }
  ADD_FAILURE() << "no correction of " << min_m << " m within " << max_ticks << " ticks";
  return {};
}

TEST(Predictor, ReplayReproducesTheAuthorityExactlyWhenNothingIsLost) {
  const uint64_t seed = test::test_seed(0x7e01);
  // Replaying every snapshot, and keeping a confirmed prediction (the default): both exact.
  for (bool keep_confirmed : {false, true}) {
    Rng rng(seed);
    PredictorConfig config;
    config.keep_confirmed_prediction = keep_confirmed;
    PredictionLink link(4, 3, config);
    protocol::InputCmd cmd;
    for (int i = 0; i < 900; ++i) {
      if (i % 20 == 0) {  // raw floats: the predictor must step what the wire carries, not these
        cmd.move_x = static_cast<float>(rng.unit() * 2.0 - 1.0);
        cmd.move_y = static_cast<float>(rng.unit() * 2.0 - 1.0);
        cmd.buttons = rng.chance(0.3) ? test::kTinyCrouchButton : 0u;
      }
      link.tick(cmd);
      ASSERT_EQ(link.predictor.offset_m(), protocol::Vec3{}) << "tick " << i;
      ASSERT_EQ(link.predictor.value_offset(test::kTinyEye), 0.0f) << "tick " << i;
    }
    const PredictorStats& stats = link.predictor.stats();
    EXPECT_EQ(stats.corrections, 0u);
    EXPECT_EQ(stats.value_corrections, 0u);
    EXPECT_EQ(stats.residues_dropped, 0u);
    EXPECT_EQ(stats.snaps.total(), 0u);
    EXPECT_EQ(stats.skips.total(), 0u);
    ASSERT_GT(link.outcomes.size(), 890u);
    for (const ReconcileOutcome& o : link.outcomes) {
      ASSERT_TRUE(o.applied);
      ASSERT_EQ(o.correction_m, 0.0f);
      ASSERT_EQ(o.value_correction, 0.0f);
    }
    if (keep_confirmed) {
      // Only the first reconciles (before our first prediction was acked) replay.
      EXPECT_GT(stats.confirmed, link.outcomes.size() - 10);
      EXPECT_TRUE(link.outcomes.back().confirmed);
    } else {
      EXPECT_EQ(stats.confirmed, 0u);
      EXPECT_EQ(link.outcomes.back().replayed, 7u);  // the round trip's un-acked inputs
    }
    std::printf("%s: %llu reconciles, %llu confirmed, %llu inputs replayed, 0 corrections\n",
                keep_confirmed ? "keeping confirmed predictions" : "replaying every snapshot",
                static_cast<unsigned long long>(stats.reconciles), static_cast<unsigned long long>(stats.confirmed),
                static_cast<unsigned long long>(stats.replayed));
  }
}

TEST(Predictor, AHalfMetreCorrectionIsEasedOutOverAbout100ms) {
  PredictionLink link(3, 3);
  link.run(walk(), 60);
  link.on_authority_tick = [](int64_t tick, PredictedState& pawn) {
    if (tick == 60) pawn.position.x += 0.5f;  // something the client's game knows nothing of
  };
  const Correction c = run_until_correction(link, walk(), 0.4f, 20);
  EXPECT_NEAR(c.outcome.correction_m, 0.5f, 1e-4f);
  EXPECT_FALSE(c.outcome.snapped);
  // Absorbed whole: the camera has not moved at the instant of the correction.
  EXPECT_LT(distance(c.drawn_before, c.drawn_after), 1e-5f);
  EXPECT_NEAR(length(link.predictor.offset_m()), 0.5f, 1e-4f);

  // Then it eases out: strictly smaller every frame, a quarter left at 50 ms, gone at 100 ms.
  float last_m = length(link.predictor.offset_m());
  Duration elapsed;
  float at_50ms = -1, at_100ms = -1;
  while (last_m > 0) {
    link.predictor.decay(kFrame);
    elapsed += kFrame;
    const float now_m = length(link.predictor.offset_m());
    ASSERT_LT(now_m, last_m) << "at " << elapsed.milliseconds_f() << " ms";
    if (now_m == 0) {
      ASSERT_GE(elapsed, Duration::milliseconds(100)) << "zeroed before the ease ended";
    }
    if (at_50ms < 0 && elapsed >= Duration::milliseconds(50)) at_50ms = now_m;
    if (at_100ms < 0 && elapsed >= Duration::milliseconds(100)) at_100ms = now_m;
    last_m = now_m;
  }
  EXPECT_NEAR(at_50ms, 0.5f * 0.25f, 1e-3f);  // (1 - 1/2)^2 of it half way
  EXPECT_EQ(at_100ms, 0.0f);
  EXPECT_LE(elapsed, Duration::milliseconds(100) + kFrame);
  EXPECT_EQ(link.predictor.stats().snaps.total(), 0u);
  EXPECT_EQ(link.predictor.stats().corrections, 1u);
  EXPECT_NEAR(link.predictor.stats().correction_m.max_m(), 0.5, 1e-4);
  std::printf("0.5 m correction: %.4f m at 50 ms, %.4f m at 100 ms, zero after %.1f ms\n", at_50ms, at_100ms,
              elapsed.milliseconds_f());
}

TEST(Predictor, ANoclipSpeedMispredictIsEasedNotSnapped) {
  PredictionLink link(3, 3);
  link.run(walk(), 30);
  link.on_authority_tick = [](int64_t tick, PredictedState& pawn) {
    if (tick == 30) pawn.flags |= test::kTinyNoclip;  // the server grants flight
  };
  const Correction c = run_until_correction(link, walk(), 1.0f, 20);
  // Six inputs replayed at 400 m/s instead of 5: ~39.5 m, far beyond any threshold one could write.
  EXPECT_GT(c.outcome.correction_m, 30.0f);
  EXPECT_FALSE(c.outcome.snapped);
  EXPECT_LT(distance(c.drawn_before, c.drawn_after), 1e-3f);
  EXPECT_TRUE(test::has_flag(link.predictor.predicted(), test::kTinyNoclip));  // restored from the acked state
  float last_m = length(link.predictor.offset_m());
  for (int frame = 0; frame < 240 && last_m > 0; ++frame) {
    link.predictor.decay(kFrame);
    const float now_m = length(link.predictor.offset_m());
    ASSERT_LT(now_m, last_m);
    last_m = now_m;
  }
  EXPECT_EQ(last_m, 0.0f);
  EXPECT_EQ(link.predictor.stats().snaps.total(), 0u);
  std::printf("noclip mispredict of %.2f m eased, not snapped\n", c.outcome.correction_m);
}

TEST(Predictor, ATeleportSnapsBothOffsets) {
  PredictionLink link(3, 3);
  link.run(walk(1.0f, 0.0f, true), 30);  // crouch-walking
  // Tick 30: a push and a low ceiling the client learns of late (both eased: feet and eye offsets);
  // tick 32: a placement, which must snap whatever the offsets hold by then.
  link.on_authority_tick = [&](int64_t tick, PredictedState& pawn) {
    if (tick == 30) {
      pawn.position.x += 0.3f;
      link.authority_game.low_ceiling = true;
    }
    if (tick == 32) {
      pawn.position = {100.0f, 0.0f, -40.0f};
      ++pawn.placement_epoch;
    }
  };
  link.on_client_learns = [&](int64_t sent_tick) {
    if (sent_tick >= 30) link.client_game.low_ceiling = true;
  };
  const Correction eased = run_until_correction(link, walk(), 0.25f, 20);
  EXPECT_FALSE(eased.outcome.snapped);
  link.predictor.decay(Duration::from_seconds(kLinkTickS));
  const Correction c = run_until_correction(link, walk(), 10.0f, 20);
  ASSERT_TRUE(c.outcome.snapped);
  EXPECT_EQ(*c.outcome.snapped, SnapReason::placement_epoch);
  // Both offsets were still visible the tick before, and are zero now.
  EXPECT_GT(c.offset_before_m, 0.05f);
  EXPECT_GT(c.eye_offset_before_m, 0.1f);
  EXPECT_GT(distance(c.drawn_before, link.predictor.drawn_position()), 10.0f);
  EXPECT_EQ(link.predictor.offset_m(), protocol::Vec3{});
  EXPECT_EQ(link.predictor.value_offset(test::kTinyEye), 0.0f);
  EXPECT_EQ(link.predictor.drawn_position(), link.predictor.predicted().position);
  EXPECT_EQ(link.predictor.drawn_value(test::kTinyEye), test::kTinyCrouchEyeM);
  EXPECT_EQ(link.predictor.predicted().placement_epoch, 1);
  EXPECT_EQ(link.predictor.stats().snaps[SnapReason::placement_epoch], 1u);
  EXPECT_EQ(link.predictor.stats().corrections, 1u);  // the placement is no correction
  EXPECT_EQ(link.predictor.stats().value_corrections, 1u);
  link.predictor.set_forgiveness(0.5);
  ASSERT_TRUE(link.predictor.claim());
  EXPECT_EQ(link.predictor.claim()->placement_epoch, 1);
}

TEST(Predictor, AnOverflowedRingSnapsOnTheNextReconcileOnly) {
  PredictionLink link(3, 3);
  link.run(walk(), 30);
  link.drop_snapshots = true;  // the downlink dies; the authority keeps applying our inputs
  link.on_authority_tick = [](int64_t tick, PredictedState& pawn) {
    if (tick == 60) pawn.position.x += 3.0f;  // a correction that would otherwise be eased
  };
  link.run(walk(), static_cast<int>(kPredictorPendingCap) + 20);
  EXPECT_EQ(link.predictor.pending_count(), kPredictorPendingCap);
  EXPECT_GT(link.predictor.stats().overflowed, 0u);
  link.drop_snapshots = false;
  const uint64_t corrections_before = link.predictor.stats().corrections;
  const Correction c = run_until_correction(link, walk(), 1.0f, 20);
  ASSERT_TRUE(c.outcome.snapped);
  EXPECT_EQ(*c.outcome.snapped, SnapReason::ring_overflow);
  EXPECT_EQ(link.predictor.offset_m(), protocol::Vec3{});
  link.on_authority_tick = [](int64_t tick, PredictedState& pawn) {
    if (tick == 200) pawn.position.x += 0.5f;
  };
  link.run(walk(), 60);
  EXPECT_EQ(link.predictor.stats().snaps[SnapReason::ring_overflow], 1u);
  EXPECT_EQ(link.predictor.stats().snaps.total(), 1u);
  EXPECT_EQ(link.predictor.stats().corrections, corrections_before + 1);  // the later push eased
}

TEST(Predictor, AServerAuthoredCrouchEasesTheEye) {
  PredictionLink link(3, 3);
  link.run(walk(0.0f, 0.0f, true), 20);  // crouched, standing still
  // A low ceiling appears over the pawn on the authority at tick 20; the client learns of it with
  // the detail of that tick. Meanwhile it lets go of crouch and predicts standing up.
  link.on_authority_tick = [&](int64_t tick, PredictedState&) {
    if (tick == 20) link.authority_game.low_ceiling = true;
  };
  link.on_client_learns = [&](int64_t sent_tick) {
    if (sent_tick >= 20) link.client_game.low_ceiling = true;
  };
  const Correction c = run_until_correction(link, walk(0.0f), 0.5f, 20);
  EXPECT_FALSE(c.outcome.snapped);
  EXPECT_NEAR(c.outcome.value_correction, test::kTinyStandEyeM - test::kTinyCrouchEyeM, 1e-6f);
  EXPECT_EQ(c.outcome.correction_m, 0.0f);
  EXPECT_NEAR(c.eye_before, test::kTinyStandEyeM, 1e-6f);
  EXPECT_NEAR(c.eye_after, test::kTinyStandEyeM, 1e-6f);  // the camera did not drop at once...
  float last = link.predictor.drawn_value(test::kTinyEye);
  for (int frame = 0; frame < 120; ++frame) {
    link.predictor.decay(kFrame);
    const float now = link.predictor.drawn_value(test::kTinyEye);
    ASSERT_LE(now, last);  // ...it eases down
    last = now;
  }
  EXPECT_EQ(last, test::kTinyCrouchEyeM);
  EXPECT_EQ(link.predictor.stats().value_corrections, 1u);
  EXPECT_EQ(link.predictor.stats().snaps.total(), 0u);
}

TEST(Predictor, FrozenComesFromTheAckedStateAndNeverGoesIntoAClaim) {
  PredictionLink link(3, 3);
  link.run(walk(), 30);
  link.on_authority_tick = [](int64_t tick, PredictedState& pawn) {
    if (tick == 30) pawn.flags |= test::kTinyFrozen;
    if (tick == 90) pawn.flags &= static_cast<uint8_t>(~test::kTinyFrozen);
  };
  link.run(walk(), 10);  // the frozen detail has arrived: the replay stands still from it
  ASSERT_TRUE(test::has_flag(link.predictor.predicted(), test::kTinyFrozen));
  const protocol::Vec3 held = link.predictor.predicted().position;
  link.run(walk(), 40);
  EXPECT_EQ(link.predictor.predicted().position, held);
  link.predictor.set_forgiveness(0.0);
  const auto claim = link.predictor.claim();
  ASSERT_TRUE(claim);
  EXPECT_EQ(claim->flags & test::kTinyServerOwned, 0);
  link.run(walk(), 40);  // thawed by the authority at tick 90, learnt by the client
  EXPECT_FALSE(test::has_flag(link.predictor.predicted(), test::kTinyFrozen));
  EXPECT_GT(link.predictor.predicted().position.z, held.z + 1.0f);
}

// A game whose step claims flight and a freeze on its own: the predictor keeps what it stepped from.
class RogueGame final : public PredictionModel {
 public:
  PredictedState step(const PredictedState& s, const protocol::InputCmd& cmd, double dt_s) const override {
    PredictedState n = inner_.step(s, cmd, dt_s);
    n.flags |= test::kTinyNoclip | test::kTinyFrozen;
    ++n.placement_epoch;
    return n;
  }

 private:
  test::TinyGame inner_;
};

TEST(Predictor, AModelCannotToggleServerOwnedFlagsOrThePlacement) {
  RogueGame game;
  Predictor predictor(game, kLinkTickS, test::kTinyClaimable);
  protocol::OwnerDetail owner;
  owner.pawn = detail_from_predicted(test::standing_at({}), 1);
  predictor.predict(0, walk());
  predictor.predict(1, walk());
  ASSERT_TRUE(predictor.reconcile(owner).applied);  // no ack yet: both replayed
  EXPECT_EQ(predictor.predicted().flags & test::kTinyServerOwned, 0);
  EXPECT_EQ(predictor.predicted().placement_epoch, 0);
  predictor.predict(2, walk());
  EXPECT_EQ(predictor.predicted().flags & test::kTinyServerOwned, 0);
  EXPECT_EQ(predictor.predicted().placement_epoch, 0);
  EXPECT_NEAR(predictor.predicted().position.z, 3 * test::kTinyWalkMps * kLinkTickS, 1e-5);
}

TEST(Predictor, ClaimsOnlyBelowFullAuthorityAndAfterAState) {
  test::TinyGame game;
  Predictor predictor(game, kLinkTickS, test::kTinyClaimable);
  predictor.set_forgiveness(0.0);
  predictor.predict(0, walk());
  EXPECT_FALSE(predictor.claim());  // no state yet
  protocol::OwnerDetail owner;
  PredictedState flying = test::standing_at({1, 2, 3});
  flying.flags |= test::kTinyNoclip;
  owner.pawn = detail_from_predicted(flying, 1);
  ASSERT_TRUE(predictor.reconcile(owner).applied);
  predictor.set_forgiveness(1.0);
  EXPECT_FALSE(predictor.claim());
  predictor.set_forgiveness(0.99);
  const auto claim = predictor.claim();
  ASSERT_TRUE(claim);
  EXPECT_EQ(claim->position, predictor.predicted().position);
  EXPECT_EQ(claim->velocity, predictor.predicted().velocity_mps);
  EXPECT_EQ(claim->values, predictor.predicted().values);
  EXPECT_EQ(claim->flags, test::kTinyGrounded);  // noclip stripped
  owner.ack = protocol::InputAck{0};
  ASSERT_TRUE(predictor.reconcile(owner).applied);
  EXPECT_FALSE(predictor.claim());  // every input acked: nothing new to claim
  predictor.reset();
  EXPECT_EQ(predictor.forgiveness(), 1.0);
}

TEST(Predictor, WhileClaimingAStarvedTickThatAcksNothingNewIsHeldBack) {
  for (bool claiming : {false, true}) {
    test::TinyGame game;
    Predictor predictor(game, kLinkTickS, test::kTinyClaimable);
    predictor.set_forgiveness(claiming ? 0.0 : 1.0);
    for (uint32_t s = 0; s < 6; ++s) predictor.predict(s, walk());
    protocol::OwnerDetail owner;
    owner.ack = protocol::InputAck{2};
    owner.pawn = detail_from_predicted(test::standing_at({0, 0, 3 * test::kTinyWalkMps * static_cast<float>(kLinkTickS)}), 1);
    ASSERT_TRUE(predictor.reconcile(owner).applied);
    // The next tick starved: the server repeated input 2 and acked nothing new.
    protocol::OwnerDetail starved = owner;
    starved.queue_depth = -1;
    starved.pawn.position.z += test::kTinyWalkMps * static_cast<float>(kLinkTickS);
    EXPECT_EQ(predictor.reconcile(starved).applied, !claiming);
    EXPECT_EQ(predictor.stats().skips[ReconcileSkip::starved_tick], claiming ? 1u : 0u);
    // Never held: a starved tick acking something new, a server-owned flag, a new placement.
    protocol::OwnerDetail newer = starved;
    newer.ack = protocol::InputAck{3};
    EXPECT_TRUE(predictor.reconcile(newer).applied);
    protocol::OwnerDetail frozen = newer;
    frozen.pawn.flags |= test::kTinyFrozen;
    EXPECT_TRUE(predictor.reconcile(frozen).applied);
    protocol::OwnerDetail placed = frozen;
    ++placed.pawn.placement_epoch;
    EXPECT_TRUE(predictor.reconcile(placed).applied);
  }
}

TEST(Predictor, AcksAheadOrBehindChangeNothing) {
  test::TinyGame game;
  Predictor predictor(game, kLinkTickS, test::kTinyClaimable);
  protocol::OwnerDetail owner;
  owner.pawn = detail_from_predicted(test::standing_at({}), 1);
  for (uint32_t s = 10; s < 15; ++s) predictor.predict(s, walk());
  owner.ack = protocol::InputAck{12};
  ASSERT_TRUE(predictor.reconcile(owner).applied);
  EXPECT_EQ(predictor.pending_count(), 2u);
  const PredictedState before = predictor.predicted();
  owner.ack = protocol::InputAck{15};  // never predicted
  owner.pawn.position.x = 50;
  EXPECT_FALSE(predictor.reconcile(owner).applied);
  owner.ack = protocol::InputAck{11};  // older than the last
  EXPECT_FALSE(predictor.reconcile(owner).applied);
  owner.ack.reset();  // "nothing applied" after an ack
  EXPECT_FALSE(predictor.reconcile(owner).applied);
  EXPECT_EQ(predictor.predicted(), before);
  EXPECT_EQ(predictor.stats().skips[ReconcileSkip::ack_ahead], 1u);
  EXPECT_EQ(predictor.stats().skips[ReconcileSkip::stale_ack], 2u);
  predictor.reset();
  EXPECT_FALSE(predictor.started());
  EXPECT_EQ(predictor.pending_count(), 0u);
  EXPECT_EQ(predictor.stats().reconciles, 0u);
}

TEST(Predictor, TheFrameLerpStaysContinuousAcrossAnAbsorbedCorrection) {
  PredictionLink link(2, 2);
  link.run(walk(), 30);
  link.on_authority_tick = [](int64_t tick, PredictedState& pawn) {
    if (tick == 30) pawn.position.x -= 0.7f;
  };
  for (int i = 0; i < 10; ++i) {
    link.client_send(walk());
    link.authority_tick();
    const protocol::Vec3 before = link.predictor.drawn_position(0.5);
    const float eye_before = link.predictor.drawn_value(test::kTinyEye, 0.25);
    link.deliver();
    ++link.now_tick;
    ASSERT_LT(distance(before, link.predictor.drawn_position(0.5)), 1e-5f) << "tick " << i;
    ASSERT_NEAR(eye_before, link.predictor.drawn_value(test::kTinyEye, 0.25), 1e-6f);
  }
  EXPECT_EQ(link.predictor.stats().corrections, 1u);
}

TEST(Predictor, ResiduesUnderAMillimetreAreDroppedNotEased) {
  PredictionLink link(2, 2);
  link.run(walk(), 20);
  link.on_authority_tick = [](int64_t tick, PredictedState& pawn) {
    if (tick == 20) pawn.position.x += 0.0004f;
  };
  link.run(walk(), 10);
  EXPECT_EQ(link.predictor.stats().residues_dropped, 1u);
  EXPECT_EQ(link.predictor.stats().corrections, 0u);
  EXPECT_EQ(link.predictor.offset_m(), protocol::Vec3{});
}

}  // namespace
}  // namespace tickwire

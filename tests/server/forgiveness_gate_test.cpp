// The forgiveness gate on its own, with numbers: the radius law; a claim inside it adopted whole,
// one past it leaving the server's answer untouched (never a blend); a stale placement refused even
// at forgiveness 0; server-owned flags never taken from a claim, nothing from a claim for a frozen
// pawn; every pawn value (a stance, an eye height) held to the position's radius; and a 10x
// speed-hack stream, naive or greedy, held to the mover's limit plus one radius.
#include "tickwire/server/forgiveness_gate.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>

#include "support.h"
#include "tickwire/core/rng.h"
#include "tickwire/protocol/vec3_math.h"

namespace tickwire {
namespace {

constexpr double kTickS = 1.0 / 60.0;
constexpr ClaimSpeedLimit kLimit{7.0f, 55.0f};  // the reference mover's run and fall speeds
// A game's flag bits: grounded and crouched a client may claim, noclip and frozen are the server's.
constexpr uint8_t kGrounded = 1u << 0, kCrouched = 1u << 1, kNoclip = 1u << 2, kFrozen = 1u << 3;
constexpr uint8_t kClaimable = kGrounded | kCrouched;
constexpr float kStandingStanceM = 1.8f, kStandingEyeM = 1.6f;

// The least forgiveness that still holds a claim to the radius (at 0 the gate adopts unconditionally).
constexpr double kLeastBounded = 0.01;

ForgivenessConfig config(double forgiveness, float radius_at_zero_m = 0.5f) {
  return ForgivenessConfig{forgiveness, radius_at_zero_m, kClaimable};
}

protocol::PawnDetail server_pawn(protocol::Vec3 position, uint8_t epoch = 0) {
  protocol::PawnDetail p;
  p.pawn_ref = 77;
  p.position = position;
  p.velocity = {0, 0, 4};
  p.values = protocol::PawnValues{{kStandingStanceM}, {kStandingEyeM}};
  p.flags = kGrounded;
  p.placement_epoch = epoch;
  return p;
}

protocol::Claim claim_at(protocol::Vec3 position, uint8_t epoch = 0) {
  protocol::Claim c;
  c.position = position;
  c.velocity = {0, 0, 4};
  c.values = protocol::PawnValues{{kStandingStanceM}, {kStandingEyeM}};
  c.flags = kGrounded;
  c.placement_epoch = epoch;
  return c;
}

ClaimJudgement judgement(protocol::Vec3 before, protocol::PawnDetail stepped, bool frozen = false) {
  return {before, stepped, kLimit, kTickS, frozen};
}

TEST(ForgivenessGate, TheRadiusLawIsLinearFromZeroAtFullAuthority) {
  EXPECT_FLOAT_EQ(ForgivenessGate(config(1.0, 0.5f)).radius_m(), 0.0f);
  EXPECT_FLOAT_EQ(ForgivenessGate(config(0.5, 0.5f)).radius_m(), 0.25f);
  EXPECT_FLOAT_EQ(ForgivenessGate(config(0.0, 0.5f)).radius_m(), 0.5f);
  EXPECT_FLOAT_EQ(ForgivenessGate(config(0.0, 2.0f)).radius_m(), 2.0f);
  test::ThrowOnAssert guard;
  EXPECT_THROW(ForgivenessGate(config(1.5, 0.5f)), test::AssertionFailure);
  EXPECT_THROW(ForgivenessGate(config(std::nan(""), 0.5f)), test::AssertionFailure);
}

TEST(ForgivenessGate, FullAuthorityAdoptsNothing) {
  ForgivenessGate gate(config(1.0, 0.5f));
  ClaimLedger ledger;
  const auto stepped = server_pawn({0, 0, 0.07f});
  const ClaimVerdict v = gate.judge(judgement({}, stepped), claim_at({0, 0, 0.07f}), ledger);
  EXPECT_FALSE(v.adopted);
  EXPECT_EQ(v.refusal, ClaimRefusal::authoritative);
  EXPECT_EQ(gate.refusals()[ClaimRefusal::authoritative], 1u);
}

TEST(ForgivenessGate, AClaimInsideTheRadiusIsAdoptedWhole) {
  ForgivenessGate gate(config(0.5, 0.5f));  // radius 0.25 m
  ClaimLedger ledger;
  auto stepped = server_pawn({0, 0, 0.0667f}, 3);
  stepped.flags |= kNoclip;
  protocol::Claim claim = claim_at({0.1f, 0.05f, 0.02f}, 3);
  claim.velocity = {1, 0.5f, 3};
  claim.values = protocol::PawnValues{{1.7f}, {1.5f}};
  claim.flags = kCrouched | kFrozen;  // frozen is not the client's to say
  const ClaimVerdict v = gate.judge(judgement({}, stepped), claim, ledger);
  ASSERT_TRUE(v.adopted);
  EXPECT_EQ(v.pawn.position, claim.position);
  EXPECT_EQ(v.pawn.velocity, claim.velocity);
  EXPECT_EQ(v.pawn.values, claim.values);
  EXPECT_EQ(v.pawn.flags, kCrouched | kNoclip);  // server-owned kept
  EXPECT_EQ(v.pawn.placement_epoch, 3);
  EXPECT_EQ(v.pawn.pawn_ref, 77u);
  EXPECT_EQ(gate.adopted(), 1u);
}

TEST(ForgivenessGate, AClaimPastTheRadiusLeavesTheServersAnswerUntouched) {
  ForgivenessGate gate(config(0.5, 0.5f));
  ClaimLedger ledger;
  const auto stepped = server_pawn({0, 0, 0.0667f});
  const ClaimVerdict v = gate.judge(judgement({}, stepped), claim_at({0.26f, 0, 0.0667f}), ledger);
  EXPECT_FALSE(v.adopted);
  EXPECT_EQ(v.refusal, ClaimRefusal::position_beyond_radius);
  // Never a blend: every field is the server's.
  EXPECT_EQ(v.pawn.position, stepped.position);
  EXPECT_EQ(v.pawn.velocity, stepped.velocity);
  EXPECT_EQ(v.pawn.values, stepped.values);
  EXPECT_EQ(v.pawn.flags, stepped.flags);
}

TEST(ForgivenessGate, AStaleEpochIsRefusedEvenAtForgivenessZero) {
  ForgivenessGate gate(config(0.0, 0.5f));
  ClaimLedger ledger;
  // The server just placed the pawn (epoch 4) 0.3 m away; a claim simulated before (epoch 3) would
  // be well inside the radius and undo the placement.
  const auto stepped = server_pawn({0.3f, 0, 0}, 4);
  const ClaimVerdict v = gate.judge(judgement({0.3f, 0, 0}, stepped), claim_at({0, 0, 0}, 3), ledger);
  EXPECT_FALSE(v.adopted);
  EXPECT_EQ(v.refusal, ClaimRefusal::stale_epoch);
  EXPECT_EQ(v.pawn.position, stepped.position);
  const ClaimVerdict fresh = gate.judge(judgement({0.3f, 0, 0}, stepped), claim_at({0.3f, 0, 0.05f}, 4), ledger);
  EXPECT_TRUE(fresh.adopted);
}

TEST(ForgivenessGate, AFrozenPawnAdoptsNothing) {
  ForgivenessGate gate(config(0.0, 0.5f));
  ClaimLedger ledger;
  const auto stepped = server_pawn({});
  const ClaimVerdict v = gate.judge(judgement({}, stepped, /*frozen=*/true), claim_at({0, 0, 0.05f}), ledger);
  EXPECT_FALSE(v.adopted);
  EXPECT_EQ(v.refusal, ClaimRefusal::frozen);
}

TEST(ForgivenessGate, AtZeroEveryClaimIsAdoptedButWhatAClaimCanNeverSay) {
  ForgivenessGate gate(config(0.0, 0.5f));
  ClaimLedger ledger;
  auto stepped = server_pawn({}, 2);
  protocol::Claim far = claim_at({10.0f, 0, 0}, 2);  // 10 m from the server's answer, 70 m/s
  far.velocity = {0, 0, 70};
  far.flags = kNoclip;
  const ClaimVerdict v = gate.judge(judgement({}, stepped), far, ledger);
  EXPECT_TRUE(v.adopted);
  EXPECT_EQ(v.pawn.position.x, 10.0f);
  EXPECT_EQ(v.pawn.flags & kNoclip, 0u) << "noclip is the server's, stripped from every claim";
  protocol::Claim nan = claim_at({}, 2);
  nan.position.y = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(gate.judge(judgement({}, stepped), nan, ledger).refusal, ClaimRefusal::malformed);
  EXPECT_EQ(gate.judge(judgement({}, stepped), claim_at({}, 1), ledger).refusal, ClaimRefusal::stale_epoch);
  EXPECT_EQ(gate.judge(judgement({}, stepped, /*frozen=*/true), claim_at({}, 2), ledger).refusal, ClaimRefusal::frozen);
}

TEST(ForgivenessGate, EveryPawnValueIsHeldToThePositionsRadius) {
  ForgivenessGate gate(config(kLeastBounded, 0.5f));
  ClaimLedger ledger;
  auto crouched = server_pawn({});
  crouched.values = protocol::PawnValues{{1.0f}, {0.8f}};  // a crouch the server authored
  const ClaimVerdict stance = gate.judge(judgement({}, crouched), claim_at({}), ledger);
  EXPECT_EQ(stance.refusal, ClaimRefusal::value_beyond_radius);
  protocol::Claim eye_only = claim_at({});
  eye_only.values[0].value = 1.0f;  // the stance agrees, the eye does not
  const ClaimVerdict eye = gate.judge(judgement({}, crouched), eye_only, ledger);
  EXPECT_EQ(eye.refusal, ClaimRefusal::value_beyond_radius);
  EXPECT_EQ(eye.pawn.values[1].value, 0.8f);
  protocol::Claim close = claim_at({});
  close.values = protocol::PawnValues{{1.3f}, {1.1f}};
  EXPECT_TRUE(gate.judge(judgement({}, crouched), close, ledger).adopted);
}

TEST(ForgivenessGate, MalformedAndTooFastClaimsAreRefused) {
  ForgivenessGate gate(config(kLeastBounded, 0.5f));
  ClaimLedger ledger;
  const auto stepped = server_pawn({});
  protocol::Claim nan = claim_at({});
  nan.position.y = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(gate.judge(judgement({}, stepped), nan, ledger).refusal, ClaimRefusal::malformed);
  protocol::Claim short_values = claim_at({});
  short_values.values.resize(1);  // not the vocabulary's count
  EXPECT_EQ(gate.judge(judgement({}, stepped), short_values, ledger).refusal, ClaimRefusal::malformed);
  protocol::Claim fast = claim_at({});
  fast.velocity = {0, 0, 70};
  EXPECT_EQ(gate.judge(judgement({}, stepped), fast, ledger).refusal, ClaimRefusal::velocity_beyond_mover);
  protocol::Claim rising = claim_at({});
  rising.velocity = {0, 60, 0};
  EXPECT_EQ(gate.judge(judgement({}, stepped), rising, ledger).refusal, ClaimRefusal::velocity_beyond_mover);
  EXPECT_EQ(gate.adopted(), 0u);
  EXPECT_EQ(gate.refusals().total(), 4u);
}

// A server stepping its pawn at the mover's limit along +z, and a client claiming what it likes.
struct HackRun {
  float path_m = 0;          // the pawn's path length over the run
  float worst_tick_m = 0;    // the longest single tick
  float net_m = 0;           // start to end
  uint64_t adopted = 0;
};

template <class ClaimFn>
HackRun run_stream(ForgivenessGate& gate, int ticks, ClaimFn claim_for) {
  ClaimLedger ledger;
  protocol::PawnDetail pawn = server_pawn({});
  HackRun run;
  for (int i = 0; i < ticks; ++i) {
    const protocol::Vec3 before = pawn.position;
    protocol::PawnDetail stepped = pawn;
    stepped.position.z += kLimit.horizontal_mps * static_cast<float>(kTickS);
    const ClaimVerdict v = gate.judge(judgement(before, stepped), claim_for(before, ledger), ledger);
    pawn = v.pawn;
    const float moved = protocol::length(pawn.position - before);
    run.path_m += moved;
    run.worst_tick_m = std::max(run.worst_tick_m, moved);
    run.adopted += v.adopted ? 1 : 0;
  }
  run.net_m = protocol::length(pawn.position);
  return run;
}

TEST(ForgivenessGate, ASpeedHackStreamNeverOutrunsTheMoverPlusTheRadius) {
  const uint64_t seed = test::test_seed(0x6a7e);
  Rng rng(seed);
  constexpr int kTicks = 600;  // 10 s
  const float limit_path_m = kLimit.horizontal_mps * static_cast<float>(kTicks * kTickS);
  for (double forgiveness : {kLeastBounded, 0.25, 0.5, 0.9}) {
    ForgivenessGate gate(config(forgiveness, 0.5f));
    const float r = gate.radius_m();
    // Naive: every claim 10x the mover's step ahead of where the pawn was, with a legal velocity.
    const HackRun naive = run_stream(gate, kTicks, [&](protocol::Vec3 before, const ClaimLedger&) {
      return claim_at({before.x, before.y, before.z + 10 * kLimit.horizontal_mps * static_cast<float>(kTickS)});
    });
    // Greedy: knows the ledger and claims exactly as far as it would allow, jittered sideways.
    const HackRun greedy = run_stream(gate, kTicks, [&](protocol::Vec3 before, const ClaimLedger& ledger) {
      const float reach = kLimit.horizontal_mps * static_cast<float>(kTickS) + ledger.horizontal_allowance_m;
      const float side = static_cast<float>(rng.unit() - 0.5) * 0.01f;
      return claim_at({before.x + side, before.y, before.z + std::sqrt(reach * reach - side * side)});
    });
    for (const HackRun& run : {naive, greedy}) {
      EXPECT_LE(run.path_m, limit_path_m + r + 0.01f) << "forgiveness " << forgiveness;
      EXPECT_LE(run.net_m, limit_path_m + r + 0.01f) << "forgiveness " << forgiveness;
      EXPECT_LE(run.worst_tick_m, kLimit.horizontal_mps * static_cast<float>(kTickS) + r + 0.001f);
    }
    std::printf("forgiveness %.2f radius %.3f m: 10 s at the limit is %.2f m; naive hack %.2f m (%llu adopted), "
                "greedy %.2f m (%llu adopted)\n",
                forgiveness, r, limit_path_m, naive.net_m, static_cast<unsigned long long>(naive.adopted), greedy.net_m,
                static_cast<unsigned long long>(greedy.adopted));
  }
}

TEST(ForgivenessGate, ANewPlacementRefillsTheAllowance) {
  ForgivenessGate gate(config(kLeastBounded, 0.5f));
  ClaimLedger ledger;
  const float step_m = kLimit.horizontal_mps * static_cast<float>(kTickS);
  // Spend the whole allowance on one long claim.
  auto stepped = server_pawn({0, 0, step_m});
  ASSERT_TRUE(gate.judge(judgement({}, stepped), claim_at({0, 0, step_m + 0.49f}), ledger).adopted);
  EXPECT_LT(ledger.horizontal_allowance_m, 0.02f);
  stepped = server_pawn({0, 0, 0.5f + 2 * step_m});
  EXPECT_EQ(gate.judge(judgement({0, 0, 0.5f + step_m}, stepped), claim_at({0, 0, 0.5f + 2 * step_m + 0.3f}), ledger)
                .refusal,
            ClaimRefusal::speed_beyond_mover);
  // A placement is not motion: the allowance is whole again under the new epoch.
  stepped = server_pawn({50, 0, step_m}, 1);
  EXPECT_TRUE(gate.judge(judgement({50, 0, 0}, stepped), claim_at({50, 0, step_m + 0.3f}, 1), ledger).adopted);
  EXPECT_EQ(ledger.placement_epoch, 1);
}

TEST(ForgivenessGate, RefusalsHaveNames) {
  for (std::size_t i = 0; i < static_cast<std::size_t>(ClaimRefusal::count_); ++i) {
    EXPECT_NE(reason_name(static_cast<ClaimRefusal>(i)), "unknown");
  }
}

}  // namespace
}  // namespace tickwire

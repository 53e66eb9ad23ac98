// The seed corpus of fuzz_fire_handler (tests/fixtures/fuzz/fuzz_fire_handler/): scripts built here
// from what they claim (a shot within the eye tolerance at a crate and one past it, one into the
// pool, a flood past the fire bucket and one past the pending hits' cap, render ticks far older than
// the bound and ahead of the server, malformed bodies, shots from sessions that left or never came,
// a shooter flung to the float limits), held to their files (TICKWIRE_FUZZ_SEEDS=write regenerates),
// and each run through the fuzz target's own interpreter so the quick suite checks the handler's
// accounting on every seed without libFuzzer.
#include <gtest/gtest.h>

#include <array>
#include <filesystem>
#include <functional>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "fire_script_writer.h"
#include "fuzz_seed_check.h"
#include "support.h"

namespace tickwire::world::scripts {
namespace {

const std::filesystem::path kSeeds = test::source_dir() / "tests" / "fixtures" / "fuzz" / "fuzz_fire_handler";

constexpr uint8_t kShooter = 1;
constexpr uint8_t kLeaver = 2;
constexpr uint8_t kNeverAdmitted = 4;
constexpr uint16_t kFacingSouth = 32768;  // half a turn: yaw 180, toward -z
constexpr uint8_t kNorthRim = 0;          // place_at_rim's side past the basin's max z
constexpr uint8_t kMidway = 128;
constexpr int8_t kDownAtTheCrateDeg = -8;  // from the stand below, the eye 7.5 m from the crate's face
constexpr int8_t kDownIntoThePoolDeg = -24;  // from the north rim, into the basin's middle
constexpr int8_t kWithinToleranceCm = 30;    // the contract's fireEyeToleranceM is 1 m
constexpr int8_t kPastToleranceCm = 110;

// North of the crate at the origin's row (its face at z = 12.5), 7.5 m away.
FireScriptWriter& stand_before_the_crate(FireScriptWriter& w) {
  return w.place(kShooter, {0, 0, 20}, {}, 180, 0).advance(0);
}

FireAim at_the_crate(int8_t eye_offset_x_cm = 0) {
  FireAim aim;
  aim.eye_offset_cm = {eye_offset_x_cm, 0, 0};
  aim.yaw = kFacingSouth;
  aim.pitch_deg = kDownAtTheCrateDeg;
  return aim;
}

FireAim rendered(FireAim aim, int16_t tick_offset, uint16_t fraction = 0) {
  aim.tick_offset = tick_offset;
  aim.fraction = fraction;
  return aim;
}

protocol::FireRequest request_from(protocol::Vec3 eye, protocol::Vec3 aim) {
  protocol::FireRequest r;
  r.shot = 900;
  r.eye = eye;
  r.aim = aim;
  return r;
}

struct Seed {
  std::vector<uint8_t> script;
  std::function<void(const FireScriptOutcome&)> expect;
};

void add_shots_at_the_crate(std::map<std::string, Seed>& seeds) {
  FireScriptWriter within;
  stand_before_the_crate(within).shot(kShooter, at_the_crate(kWithinToleranceCm)).drain();
  seeds["crate_within_tolerance"] = {within.bytes(), [](const FireScriptOutcome& o) {
                                       EXPECT_EQ(o.traced, 1u);
                                       EXPECT_EQ(o.hits_taken, 1u);
                                       EXPECT_EQ(o.hits_by_kind[static_cast<uint8_t>(protocol::HitKind::surface)], 1u);
                                       EXPECT_EQ(o.hits_by_body[static_cast<uint8_t>(protocol::HitBody::map_box)], 1u);
                                     }};
  FireScriptWriter past;
  FireAim strayed = at_the_crate();
  strayed.eye_offset_cm[1] = kPastToleranceCm;
  stand_before_the_crate(past).shot(kShooter, strayed).drain();
  seeds["eye_past_tolerance"] = {past.bytes(), [](const FireScriptOutcome& o) {
                                   EXPECT_EQ(o.accepted, 1u) << "the room passes it: the eye is the game's to judge";
                                   EXPECT_EQ(o.drops[ShotDrop::eye_strayed], 1u);
                                   EXPECT_EQ(o.traced, 0u);
                                   EXPECT_EQ(o.hits_taken, 0u);
                                 }};
  FireScriptWriter flood;
  stand_before_the_crate(flood);
  for (int i = 0; i < 30; ++i) flood.shot(kShooter, at_the_crate());  // all at one instant
  flood.wait(1000).shot(kShooter, at_the_crate()).drain();            // a second refills the bucket
  seeds["flood_past_the_bucket"] = {flood.bytes(), [](const FireScriptOutcome& o) {
                                      EXPECT_EQ(o.room_refusals[FireRefusal::rate_limited], 20u);
                                      EXPECT_EQ(o.accepted, 11u);
                                      EXPECT_EQ(o.hits_taken, 11u);
                                    }};
  FireScriptWriter cap;
  stand_before_the_crate(cap);
  for (int i = 0; i < 5; ++i) cap.flood(kShooter, 255, at_the_crate());  // each a token later: all accepted
  cap.drain();
  seeds["hits_past_the_cap"] = {cap.bytes(), [](const FireScriptOutcome& o) {
                                  EXPECT_EQ(o.room_refusals.total(), 0u);
                                  EXPECT_EQ(o.traced, 5u * 255u);
                                  EXPECT_EQ(o.hits_taken, kMaxPendingHits);
                                  EXPECT_EQ(o.drops[ShotDrop::events_overflow], 5u * 255u - kMaxPendingHits);
                                }};
}

void add_pool_and_render_ticks(std::map<std::string, Seed>& seeds) {
  FireAim into_the_pool;
  into_the_pool.yaw = kFacingSouth;
  into_the_pool.pitch_deg = kDownIntoThePoolDeg;
  seeds["into_the_pool"] = {FireScriptWriter().place_at_rim(kShooter, kNorthRim, kMidway).advance(0)
                                .shot(kShooter, into_the_pool).drain().bytes(),
                            [](const FireScriptOutcome& o) {
                              EXPECT_EQ(o.traced, 1u);
                              EXPECT_EQ(o.hits_taken, 2u) << "the water crossing, then the floor";
                              EXPECT_EQ(o.hits_by_kind[static_cast<uint8_t>(protocol::HitKind::water)], 1u);
                              EXPECT_EQ(o.hits_by_kind[static_cast<uint8_t>(protocol::HitKind::surface)], 1u);
                              EXPECT_EQ(o.hits_by_body[static_cast<uint8_t>(protocol::HitBody::object)], 1u) << "the pool";
                              EXPECT_EQ(o.hits_by_body[static_cast<uint8_t>(protocol::HitBody::map_box)], 1u) << "its floor";
                            }};
  FireScriptWriter ticks;
  stand_before_the_crate(ticks).advance(15).advance(15);
  ticks.shot(kShooter, rendered(at_the_crate(), -30000)).shot(kShooter, rendered(at_the_crate(), 100))
      .shot(kShooter, rendered(at_the_crate(), -10, 32768)).shot(kShooter, rendered(at_the_crate(), 0, 1)).drain();
  seeds["render_ticks_out_of_bounds"] = {ticks.bytes(), [](const FireScriptOutcome& o) {
                                           EXPECT_EQ(o.accepted, 4u);
                                           EXPECT_EQ(o.rewinds[FireRewind::clamped_to_bound], 1u);
                                           EXPECT_EQ(o.rewinds[FireRewind::ahead_of_server], 2u)
                                               << "100 ticks on, and a fraction past the last tick";
                                           EXPECT_EQ(o.traced, 4u);
                                         }};
}

void add_refusals(std::map<std::string, Seed>& seeds) {
  constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
  constexpr float kInf = std::numeric_limits<float>::infinity();
  const protocol::Vec3 eye{0, 1.6f, 20};
  std::array<uint8_t, kFireScriptMaxBody> whole{};
  const auto size = wire::encode(request_from(eye, {0, 0, -1}), whole);
  TW_ASSERT(size.ok() && *size > 10, "a whole request encodes");
  const std::vector<uint8_t> truncated(whole.begin(), whole.begin() + 10);
  seeds["malformed_bodies"] = {
      FireScriptWriter().request_body(kShooter, truncated).request_body(kShooter, {})
          .request(kShooter, request_from(eye, {kNaN, 0, -1})).request(kShooter, request_from(eye, {0, 0, 0}))
          .request(kShooter, request_from({kInf, 1.6f, 20}, {0, 0, -1})).drain().bytes(),
      [](const FireScriptOutcome& o) {
        EXPECT_EQ(o.malformed, 2u) << "cut short, and empty: never reach the room";
        EXPECT_EQ(o.requests, 3u);
        EXPECT_EQ(o.room_refusals[FireRefusal::malformed], 3u) << "a NaN aim, a zero aim, an infinite eye";
        EXPECT_EQ(o.accepted, 0u);
      }};
  // Fired after an input the room never simulates (the script sends none): it waits the max rewind,
  // then is refused; another waits until its session leaves.
  protocol::FireRequest after_input = request_from(eye, {0, 0, -1});
  after_input.after_input = true;
  after_input.input_sequence = 5;
  FireScriptWriter waiting;
  waiting.request(kShooter, after_input);
  for (int i = 0; i < 8; ++i) waiting.advance(15);  // each runs at most the contract's catch-up ticks
  seeds["waiting_for_an_input"] = {
      waiting.request(kLeaver, after_input).leave_or_join(kLeaver).drain().bytes(),
      [](const FireScriptOutcome& o) {
        EXPECT_EQ(o.rewinds[FireRewind::waited_for_input], 2u);
        EXPECT_EQ(o.room_refusals[FireRefusal::input_not_applied], 1u) << "past the max rewind";
        EXPECT_EQ(o.room_refusals[FireRefusal::no_session], 1u) << "its session left while it waited";
        EXPECT_EQ(o.accepted, 0u);
      }};
  seeds["shots_from_no_session"] = {
      FireScriptWriter().leave_or_join(kLeaver).shot(kLeaver, at_the_crate()).shot(kNeverAdmitted, at_the_crate())
          .leave_or_join(kLeaver).advance(0).shot(kLeaver, {}).drain().bytes(),
      [](const FireScriptOutcome& o) {
        EXPECT_EQ(o.room_refusals[FireRefusal::no_session], 2u);
        EXPECT_EQ(o.accepted, 1u) << "back in, its shots count again";
        EXPECT_EQ(o.traced, 1u);
      }};
}

void add_float_extremes(std::map<std::string, Seed>& seeds) {
  constexpr float kMax = std::numeric_limits<float>::max();
  seeds["shooter_at_float_extremes"] = {
      FireScriptWriter().place(kShooter, {kMax, -kMax, 1e30f}, {}, 1e30f, 90).shot(kShooter, at_the_crate())
          .request(kShooter, request_from({0, 1.6f, 20}, {0, 0, -1}))
          .place(kShooter, {1e8f, 0, -1e8f}, {kMax, kMax, -kMax}, 0, -90).shot(kShooter, at_the_crate(127))
          .advance(3).shot(kShooter, at_the_crate()).drain().bytes(),
      [](const FireScriptOutcome& o) {
        EXPECT_EQ(o.accepted, 4u);
        EXPECT_EQ(o.drops[ShotDrop::eye_strayed], 1u) << "an eye by the crate, the pawn at the float limits";
        EXPECT_EQ(o.traced, 3u) << "from the pawn's own eye, however far out";
        EXPECT_EQ(o.hits_by_kind[static_cast<uint8_t>(protocol::HitKind::nothing)], 3u) << "nothing out there to strike";
      }};
}

std::map<std::string, Seed> build_seeds() {
  std::map<std::string, Seed> seeds;
  add_shots_at_the_crate(seeds);
  add_pool_and_render_ticks(seeds);
  add_refusals(seeds);
  add_float_extremes(seeds);
  return seeds;
}

TEST(FireFuzzSeeds, EachSeedIsItsScriptAndKeepsTheHandlersAccounting) {
  for (const auto& [name, seed] : build_seeds()) {
    SCOPED_TRACE(name);
    test::check_fuzz_seed(kSeeds, name, seed.script);
    const FireScriptOutcome outcome = run_fire_script(seed.script);
    EXPECT_FALSE(outcome.violation.has_value()) << *outcome.violation;
    seed.expect(outcome);
  }
}

TEST(FireFuzzSeeds, EverySeedOnDiskRunsClean) {
  std::size_t seeds = 0;
  for (const auto& entry : std::filesystem::directory_iterator(kSeeds)) {
    SCOPED_TRACE(entry.path().filename().string());
    ++seeds;
    const FireScriptOutcome outcome = run_fire_script(test::read_file_bytes(entry.path()));
    EXPECT_FALSE(outcome.violation.has_value()) << *outcome.violation;
  }
  EXPECT_EQ(seeds, build_seeds().size());
}

}  // namespace
}  // namespace tickwire::world::scripts

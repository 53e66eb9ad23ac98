// The seed corpus of fuzz_interaction_handler (tests/fixtures/fuzz/fuzz_interaction_handler/):
// scripts built here from what they claim (a press in reach, one out of reach and one beside the
// look, a flood past the bucket, one past the event cap, a stale target after a despawn, malformed bodies, a press through
// the input path, a pawn flung to the float limits), held to their files (TICKWIRE_FUZZ_SEEDS=write
// regenerates), and each run through the fuzz target's own interpreter so the quick suite checks
// the handler's accounting on every seed without libFuzzer.
#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <limits>
#include <map>
#include <string>

#include "fuzz_seed_check.h"
#include "interaction_script.h"
#include "support.h"

namespace tickwire::world::scripts {
namespace {

const std::filesystem::path kSeeds = test::source_dir() / "tests" / "fixtures" / "fuzz" / "fuzz_interaction_handler";

constexpr uint8_t kPresser = 1;
constexpr uint8_t kNeverAdmitted = 4;
constexpr uint8_t kFromTheSouth = 128;  // the bearing of a stand south of an object (facing north)
constexpr uint8_t kInReachDm = 15;
constexpr uint8_t kOutOfReachDm = 40;

uint16_t north_button() { return static_cast<uint16_t>(*script_world().map.object_index("button.n")); }

struct Seed {
  std::vector<uint8_t> script;
  std::function<void(const ScriptOutcome&)> expect;
};

std::map<std::string, Seed> build_seeds() {
  const uint16_t button = north_button();
  std::map<std::string, Seed> seeds;
  seeds["press_in_reach"] = {ScriptWriter().place_facing(kPresser, button, kInReachDm, kFromTheSouth, 0)
                                 .request_object(kPresser, button).advance(0).drain().bytes(),
                             [](const ScriptOutcome& o) {
                               EXPECT_EQ(o.uses, 1u);
                               EXPECT_EQ(o.events_taken, 1u);
                             }};
  seeds["out_of_reach_and_cone"] = {
      ScriptWriter().place_facing(kPresser, button, kOutOfReachDm, kFromTheSouth, 0).request_object(kPresser, button)
          .place_facing(kPresser, button, kInReachDm, kFromTheSouth, 60).request_object(kPresser, button)
          .drain().bytes(),
      [](const ScriptOutcome& o) {
        EXPECT_EQ(o.uses, 0u);
        EXPECT_EQ(o.use_refusals[UseRefusal::out_of_reach], 1u);
        EXPECT_EQ(o.use_refusals[UseRefusal::outside_cone], 1u);
        EXPECT_EQ(o.events_taken, 2u);
      }};
  {
    ScriptWriter flood;
    flood.place_facing(kPresser, button, kInReachDm, kFromTheSouth, 0);
    for (int i = 0; i < 30; ++i) flood.request_object(kPresser, button);  // all at one instant
    flood.wait(1000).request_object(kPresser, button).drain();            // a second refills the bucket
    seeds["flood_past_the_bucket"] = {flood.bytes(), [](const ScriptOutcome& o) {
                                        EXPECT_EQ(o.room_refusals[InteractRefusal::rate_limited], 20u);
                                        EXPECT_EQ(o.uses, 11u);
                                      }};
  }
  {
    ScriptWriter past_the_cap;
    past_the_cap.place_facing(kPresser, button, kInReachDm, kFromTheSouth, 0);
    for (int i = 0; i < 5; ++i) past_the_cap.flood(kPresser, button, kScriptFloodMax);
    past_the_cap.drain();
    seeds["events_past_the_cap"] = {past_the_cap.bytes(), [](const ScriptOutcome& o) {
                                      EXPECT_EQ(o.requests, 5u * kScriptFloodMax);
                                      EXPECT_EQ(o.room_refusals.total(), 0u) << "each a token later than the last";
                                      EXPECT_EQ(o.events_taken, kMaxPendingEvents);
                                      EXPECT_EQ(o.events_dropped, 5u * kScriptFloodMax - kMaxPendingEvents);
                                    }};
  }
  seeds["stale_after_despawn"] = {
      ScriptWriter().place_facing(kPresser, button, kInReachDm, kFromTheSouth, 0).despawn(button)
          .request_object(kPresser, button).spawn(button).request_object(kPresser, button, /*twist: stale generation*/ 1)
          .request_object(kPresser, button).drain().bytes(),
      [](const ScriptOutcome& o) {
        EXPECT_EQ(o.room_refusals[InteractRefusal::stale_or_foreign], 2u);
        EXPECT_EQ(o.uses, 1u) << "respawned, it is usable again";
      }};
  {
    const std::vector<uint8_t> truncated{1, 2, 3};
    const std::vector<uint8_t> trailing(10, 0);
    seeds["malformed_bodies"] = {ScriptWriter().request_body(kPresser, truncated).request_body(kPresser, trailing)
                                     .request_body(kPresser, {}).request(kNeverAdmitted, {map_object_ref(0).raw(), 0})
                                     .drain().bytes(),
                                 [](const ScriptOutcome& o) {
                                   EXPECT_EQ(o.malformed, 3u);
                                   EXPECT_EQ(o.requests, 1u);
                                   EXPECT_EQ(o.room_refusals[InteractRefusal::no_session], 1u);
                                 }};
  }
  seeds["press_through_input"] = {ScriptWriter().place_facing(kPresser, button, kInReachDm, kFromTheSouth, 0)
                                      .hold_use(kPresser, true, 0, 0).advance(0).drain().bytes(),
                                  [](const ScriptOutcome& o) {
                                    EXPECT_EQ(o.uses, 1u);
                                    EXPECT_EQ(o.events_taken, 1u);
                                  }};
  {
    constexpr float kMax = std::numeric_limits<float>::max();
    seeds["flung_to_the_limits"] = {
        ScriptWriter().place(kPresser, {kMax, -kMax, 1e30f}, {kMax, kMax, -kMax}, 1e30f, 90)
            .request_object(kPresser, button).hold_use(kPresser, true, 0, 0).advance(3)
            .request_object(kPresser, button).drain().bytes(),
        [](const ScriptOutcome& o) { EXPECT_EQ(o.uses, 0u); }};
  }
  return seeds;
}

TEST(InteractionFuzzSeeds, EachSeedIsItsScriptAndKeepsTheHandlersAccounting) {
  for (const auto& [name, seed] : build_seeds()) {
    SCOPED_TRACE(name);
    test::check_fuzz_seed(kSeeds, name, seed.script);
    const ScriptOutcome outcome = run_interaction_script(seed.script);
    EXPECT_FALSE(outcome.violation.has_value()) << *outcome.violation;
    seed.expect(outcome);
  }
}

TEST(InteractionFuzzSeeds, EverySeedOnDiskRunsClean) {
  std::size_t seeds = 0;
  for (const auto& entry : std::filesystem::directory_iterator(kSeeds)) {
    SCOPED_TRACE(entry.path().filename().string());
    ++seeds;
    const ScriptOutcome outcome = run_interaction_script(test::read_file_bytes(entry.path()));
    EXPECT_FALSE(outcome.violation.has_value()) << *outcome.violation;
  }
  EXPECT_EQ(seeds, build_seeds().size());
}

}  // namespace
}  // namespace tickwire::world::scripts

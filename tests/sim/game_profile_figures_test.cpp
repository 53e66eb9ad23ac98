// The quality figures of the four named link profiles through the whole game: 8 wandering bots on
// the reference map for 60 simulated seconds each, every client's report printed (and the merge of
// all 8). What each profile must keep: broadband and transatlantic a settled, unstarved lead;
// burst-host no held frame, no snap and under 0.5% starved; mobile-bad no snap, each stall's
// backlog gone within 2 s and its held frames inside the stalls; all of them the rate range, no hold and the room's caps.
#include <gtest/gtest.h>

#include "game_profiles.h"

namespace tickwire {
namespace {

using namespace tickwire::test;

constexpr uint32_t kClients = 8;
constexpr Duration kRun = Duration::seconds(60);

void expect_rate_and_caps(const ProfileRun& run, std::string_view name) {
  EXPECT_EQ(run.welcomed, kClients) << name;
  EXPECT_EQ(run.invariants.total(), 0u) << name;
  EXPECT_GE(run.all.min_rate, 0.98) << name;
  EXPECT_LE(run.all.max_rate, 1.02) << name;
  EXPECT_EQ(run.all.holds, 0u) << name;
}

void expect_steady_lead(const ProfileRun& run, std::string_view name) {
  for (const QualityReport& r : run.clients) {
    ASSERT_TRUE(r.settle_s.has_value()) << name;
    EXPECT_LE(*r.settle_s, 5.0) << name;
    EXPECT_LT(static_cast<double>(r.starved_after_settle), 0.005 * static_cast<double>(r.readings_after_settle)) << name;
    EXPECT_EQ(r.render_snaps, 0u) << name;
  }
}

TEST(GameProfileFigures, Broadband) {
  const ProfileRun run = run_profile("broadband", test_seed(0xf1), kClients, kRun);
  expect_rate_and_caps(run, "broadband");
  expect_steady_lead(run, "broadband");
}

TEST(GameProfileFigures, Transatlantic) {
  const ProfileRun run = run_profile("transatlantic", test_seed(0xf2), kClients, kRun);
  expect_rate_and_caps(run, "transatlantic");
  expect_steady_lead(run, "transatlantic");
}

TEST(GameProfileFigures, MobileBad) {
  const ProfileRun run = run_profile("mobile-bad", test_seed(0xf3), kClients, kRun);
  expect_rate_and_caps(run, "mobile-bad");
  // Its 250 ms stalls' backlogs land inside the ring (32 ticks: the delay ceiling and a stall), and
  // the clock that waited one out speeds toward its goal: no render snap (282 with a 16-tick ring).
  EXPECT_EQ(run.all.render_snaps, 0u);
  // A stall's ticks run on the guess and its inputs, late for them, are dropped: the queue is back
  // where it was before the stall (less than a tick of it left on average 2 s after the stall's
  // shadow; +1.16 when every late input ran, the queue's cap holding the rest back) and nothing
  // overflows it.
  ASSERT_TRUE(run.stalls.has_value());
  EXPECT_GT(run.stalls->stalls, 80u);
  EXPECT_LT(run.stalls->depth_left_mean, 1.0);
  // A frame holds only while a stall keeps the snapshots back (all of them within its first 300 ms
  // on seeds 241 to 244, but one: a lost snapshot's), so at most one in a hundred falls outside.
  EXPECT_GT(run.stalls->held_in_shadow, 0u);
  EXPECT_LE(run.stalls->held_outside * 100, run.stalls->held_in_shadow);
}

TEST(GameProfileFigures, BurstHost) {
  const ProfileRun run = run_profile("burst-host", test_seed(0xf4), kClients, kRun);
  expect_rate_and_caps(run, "burst-host");
  EXPECT_EQ(run.all.held_frames, 0u);
  EXPECT_EQ(run.all.render_snaps, 0u);
  // Its queue fills and empties with each 83 ms burst; the margin law holds it at a lead where fewer
  // than 0.5% of the ticks starve over the run, the joins included (0.69% with the former law of
  // half a tick per starved tick and 4 s per tick handed back: docs/inputs-and-lead.md).
  EXPECT_LT(static_cast<double>(run.all.starved_readings), 0.005 * static_cast<double>(run.all.readings));
}

}  // namespace
}  // namespace tickwire

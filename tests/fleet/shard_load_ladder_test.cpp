// The shard ladder: its walk returns the single highest rung the signals meet; its rungs engage in
// order as the busy share or the lag ramps up, all of them before the lag reaches the kill
// threshold, which no rung moves; they hold while a signal hovers and release in reverse order,
// each after the shard's dwell.
#include "tickwire/fleet/shard_load_ladder.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <vector>

#include "ladder_drive.h"

namespace tickwire {
namespace {

using test::drive_ladder;
using test::rungs_reached;

// The default shard ladder (contract defaults): busy 60/75/85/95 (release 45/60/70/80), lag
// 2/4/8/16 (release 0/1/2/4), kill at a lag of 32, a dwell of 5 s.
const ShardLadderPolicy kLadder{};
constexpr Duration kReading = Duration::milliseconds(250);
constexpr Duration kDwell = Duration::milliseconds(5'000);
constexpr MonoTime kStart = MonoTime::from_ns(0);

ShardLoadSignals busy(double percent) { return ShardLoadSignals{percent, 0}; }
ShardLoadSignals lag(uint32_t ticks) { return ShardLoadSignals{0.0, ticks}; }

const std::vector<ShardLoadRung> kUpward = {ShardLoadRung::placement_closed, ShardLoadRung::rooms_shed,
                                            ShardLoadRung::admissions_closed, ShardLoadRung::rooms_migrated};

TEST(ShardLoadLadder, TheDefaultsAreTheDocumentedLadder) {
  ASSERT_EQ(kLadder.rungs.size(), kShardLadderRungs);
  EXPECT_EQ(kLadder.rungs[0], (ShardRungThresholds{ShardLoadRung::placement_closed, 60, 45, 2, 0}));
  EXPECT_EQ(kLadder.rungs[3], (ShardRungThresholds{ShardLoadRung::rooms_migrated, 95, 80, 16, 4}));
  EXPECT_EQ(kLadder.kill_lag_ticks, 32u);
  EXPECT_EQ(Duration::milliseconds(kLadder.release_dwell_ms), kDwell);
  EXPECT_EQ(reason_name(ShardLoadRung::rooms_shed), "rooms_shed");
  EXPECT_EQ(kShardLoadRungDef.name_of(static_cast<uint32_t>(ShardLoadRung::rooms_migrated)), "roomsMigrated");
}

TEST(ShardLoadLadder, TheWalkReturnsTheHighestRungMet) {
  struct Case {
    ShardLoadSignals signals;
    ShardLoadRung expected;
  };
  const Case cases[] = {
      {{0.0, 0}, ShardLoadRung::calm},
      {{59.9, 1}, ShardLoadRung::calm},
      {{60.0, 0}, ShardLoadRung::placement_closed},
      {{75.0, 0}, ShardLoadRung::rooms_shed},
      {{84.9, 7}, ShardLoadRung::rooms_shed},
      {{85.0, 0}, ShardLoadRung::admissions_closed},
      {{100.0, 0}, ShardLoadRung::rooms_migrated},
      {{0.0, 8}, ShardLoadRung::admissions_closed},
      {{61.0, 16}, ShardLoadRung::rooms_migrated},  // the lag meets the top while the busy share meets rung 1
      {{0.0, 1000}, ShardLoadRung::rooms_migrated},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(evaluate_shard_ladder(c.signals, kLadder), c.expected)
        << "busy " << c.signals.busy_percent << " lag " << c.signals.lag_ticks << ": got "
        << reason_name(evaluate_shard_ladder(c.signals, kLadder));
  }
}

TEST(ShardLoadLadder, TheWalkIsDeterministic) {
  for (uint32_t ticks = 0; ticks <= 40; ++ticks) {
    for (int percent = 0; percent <= 100; ++percent) {
      const ShardLoadSignals s{static_cast<double>(percent), ticks};
      const ShardLoadRung rung = evaluate_shard_ladder(s, kLadder);
      ASSERT_EQ(evaluate_shard_ladder(s, ShardLadderPolicy{}), rung);
      std::size_t met = 0;
      for (const ShardRungThresholds& t : kLadder.rungs) met += meets_enter(reading_of(s), t) ? 1u : 0u;
      ASSERT_EQ(static_cast<std::size_t>(rung), met) << percent << " " << ticks;
    }
  }
}

TEST(ShardLoadLadder, RungsEngageInOrderAsTheBusyShareRampsUp) {
  ShardLoadLadder ladder(kLadder);
  const auto run =
      drive_ladder(ladder, kStart, kReading, 101, [](std::size_t i) { return busy(static_cast<double>(i)); });
  EXPECT_EQ(rungs_reached(run), kUpward);
  const std::size_t engaged_at[] = {60, 75, 85, 95};
  for (std::size_t r = 0; r < run.changes.size() && r < 4; ++r) EXPECT_EQ(run.changes[r].reading, engaged_at[r]);
}

// The lag rising towards the kill threshold: the whole ladder is in force at half of it, and the
// kill threshold is reached only at its own value, whatever rung is in force.
TEST(ShardLoadLadder, EveryRungEngagesBeforeTheLagReachesTheKillThreshold) {
  ShardLoadLadder ladder(kLadder);
  const auto run =
      drive_ladder(ladder, kStart, kReading, 40, [](std::size_t i) { return lag(static_cast<uint32_t>(i)); });
  EXPECT_EQ(rungs_reached(run), kUpward);
  ASSERT_EQ(run.changes.size(), 4u);
  EXPECT_EQ(run.changes.back().reading, 16u);
  for (const auto& change : run.changes) EXPECT_LT(change.reading, kLadder.kill_lag_ticks);
  for (uint32_t ticks = 0; ticks < kLadder.kill_lag_ticks; ++ticks)
    EXPECT_FALSE(shard_lag_at_kill_threshold(lag(ticks), kLadder));
  EXPECT_TRUE(shard_lag_at_kill_threshold(lag(kLadder.kill_lag_ticks), kLadder));
  EXPECT_TRUE(shard_lag_at_kill_threshold(lag(1000), kLadder));
}

// No rung relaxes the kill threshold: at every rung in force the threshold read is the contract's.
TEST(ShardLoadLadder, TheKillThresholdIsTheSameAtEveryRung) {
  ShardLoadLadder ladder(kLadder);
  MonoTime now = kStart;
  for (const ShardRungThresholds& rung : kLadder.rungs) {
    ASSERT_EQ(ladder.update(busy(rung.enter_percent), now), rung.rung);
    now += kReading;
    EXPECT_EQ(ladder.policy().kill_lag_ticks, 32u) << reason_name(rung.rung);
    EXPECT_FALSE(shard_lag_at_kill_threshold(ShardLoadSignals{100.0, 31}, ladder.policy())) << reason_name(rung.rung);
    EXPECT_TRUE(shard_lag_at_kill_threshold(ShardLoadSignals{100.0, 32}, ladder.policy())) << reason_name(rung.rung);
  }
}

TEST(ShardLoadLadder, ABusyShareHoveringAtAThresholdDoesNotFlap) {
  ShardLoadLadder ladder(kLadder);
  ASSERT_EQ(ladder.update(busy(76.0), kStart), ShardLoadRung::rooms_shed);
  // Around rooms_shed's enter threshold (75): 74 and 76 both lie above its release threshold (60).
  const auto run = drive_ladder(ladder, kStart + kReading, kReading, 400,
                                [](std::size_t i) { return busy(i % 2 == 0 ? 74.0 : 76.0); });
  EXPECT_TRUE(run.changes.empty());
  // Around its release threshold (60): each reading above it restarts the dwell.
  const auto hovering =
      drive_ladder(ladder, run.next, kReading, 400, [](std::size_t i) { return busy(i % 2 == 0 ? 60.0 : 60.5); });
  EXPECT_TRUE(hovering.changes.empty());
  EXPECT_EQ(ladder.rung(), ShardLoadRung::rooms_shed);
}

TEST(ShardLoadLadder, RungsReleaseInReverseOrderEachAfterTheDwell) {
  ShardLoadLadder ladder(kLadder);
  ASSERT_EQ(ladder.update(ShardLoadSignals{99.0, 20}, kStart), ShardLoadRung::rooms_migrated);
  const auto run = drive_ladder(ladder, kStart + kReading, kReading, 200, [](std::size_t) { return busy(10.0); });
  ASSERT_EQ(rungs_reached(run), (std::vector<ShardLoadRung>{ShardLoadRung::admissions_closed, ShardLoadRung::rooms_shed,
                                                            ShardLoadRung::placement_closed, ShardLoadRung::calm}));
  EXPECT_EQ(run.changes[0].at - (kStart + kReading), kDwell);
  for (std::size_t k = 1; k < run.changes.size(); ++k) {
    EXPECT_EQ(run.changes[k].at - run.changes[k - 1].at, kDwell + kReading) << "each rung counts its own dwell";
  }
}

}  // namespace
}  // namespace tickwire

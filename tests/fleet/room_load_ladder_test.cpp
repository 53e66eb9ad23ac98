// The room ladder: the walk returns the single highest rung the signals meet and is a pure function
// of them; rungs engage in order as a signal ramps up, hold while a signal hovers at a threshold,
// release only after the dwell at or below the release thresholds, and release in reverse order.
#include "tickwire/fleet/room_load_ladder.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <vector>

#include "ladder_drive.h"
#include "tickwire/core/rng.h"

namespace tickwire {
namespace {

using test::drive_ladder;
using test::rungs_reached;

// The default room ladder (contract defaults): cost 50/65/80/95 (release 35/50/65/80), lag 2/3/4/6
// (release 0/1/2/3), a dwell of 2 s.
const RoomLadderPolicy kLadder{};
constexpr Duration kReading = Duration::milliseconds(100);
constexpr Duration kDwell = Duration::milliseconds(2'000);
constexpr MonoTime kStart = MonoTime::from_ns(0);

RoomLoadSignals cost(double percent) { return RoomLoadSignals{percent, 0}; }
RoomLoadSignals lag(uint32_t ticks) { return RoomLoadSignals{0.0, ticks}; }

TEST(RoomLoadLadder, TheDefaultsAreTheDocumentedLadder) {
  ASSERT_EQ(kLadder.rungs.size(), kRoomLadderRungs);
  EXPECT_EQ(kLadder.rungs[0], (RoomRungThresholds{RoomLoadRung::world_lane_slowed, 50, 35, 2, 0}));
  EXPECT_EQ(kLadder.rungs[3], (RoomRungThresholds{RoomLoadRung::admissions_closed, 95, 80, 6, 3}));
  EXPECT_EQ(Duration::milliseconds(kLadder.release_dwell_ms), kDwell);
  EXPECT_EQ(reason_name(RoomLoadRung::snapshot_budget_cut), "snapshot_budget_cut");
  EXPECT_EQ(kRoomLoadRungDef.name_of(static_cast<uint32_t>(RoomLoadRung::snapshot_budget_cut)), "snapshotBudgetCut");
}

TEST(RoomLoadLadder, TheWalkReturnsTheHighestRungMet) {
  struct Case {
    RoomLoadSignals signals;
    RoomLoadRung expected;
  };
  const Case cases[] = {
      {{0.0, 0}, RoomLoadRung::calm},
      {{49.99, 1}, RoomLoadRung::calm},
      {{50.0, 0}, RoomLoadRung::world_lane_slowed},  // an enter threshold reached is met
      {{64.9, 0}, RoomLoadRung::world_lane_slowed},
      {{65.0, 0}, RoomLoadRung::interest_narrowed},
      {{80.0, 0}, RoomLoadRung::snapshot_budget_cut},
      {{95.0, 0}, RoomLoadRung::admissions_closed},
      {{1000.0, 0}, RoomLoadRung::admissions_closed},
      {{0.0, 2}, RoomLoadRung::world_lane_slowed},
      {{0.0, 5}, RoomLoadRung::snapshot_budget_cut},
      {{0.0, 6}, RoomLoadRung::admissions_closed},
      {{66.0, 4}, RoomLoadRung::snapshot_budget_cut},  // the lag meets rung 3 while the cost meets rung 2
      {{96.0, 2}, RoomLoadRung::admissions_closed},    // and the other way round
  };
  for (const Case& c : cases) {
    EXPECT_EQ(evaluate_room_ladder(c.signals, kLadder), c.expected)
        << "cost " << c.signals.tick_cost_percent << " lag " << c.signals.lag_ticks << ": got "
        << reason_name(evaluate_room_ladder(c.signals, kLadder));
  }
}

// Over a sweep of both signals and in a seeded shuffle of it: the same signals give the same rung
// whatever came before, and that rung is the count of rungs met (an ordered ladder's met rungs are
// the ones from the bottom up).
TEST(RoomLoadLadder, TheWalkIsDeterministic) {
  std::vector<RoomLoadSignals> sweep;
  for (int half_percent = 0; half_percent <= 240; ++half_percent) {
    for (uint32_t ticks = 0; ticks <= 8; ++ticks) sweep.push_back(RoomLoadSignals{half_percent * 0.5, ticks});
  }
  std::vector<RoomLoadRung> first;
  for (const RoomLoadSignals& s : sweep) {
    const RoomLoadRung rung = evaluate_room_ladder(s, kLadder);
    const auto met = std::count_if(kLadder.rungs.begin(), kLadder.rungs.end(),
                                   [&](const RoomRungThresholds& t) { return meets_enter(reading_of(s), t); });
    ASSERT_EQ(static_cast<std::ptrdiff_t>(rung), met) << s.tick_cost_percent << " " << s.lag_ticks;
    first.push_back(rung);
  }
  Rng rng(7);
  std::vector<std::size_t> order(sweep.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  for (std::size_t i = order.size() - 1; i > 0; --i) std::swap(order[i], order[rng.below(i + 1)]);
  const RoomLadderPolicy copy = kLadder;
  for (const std::size_t i : order) ASSERT_EQ(evaluate_room_ladder(sweep[i], copy), first[i]);
}

TEST(RoomLoadLadder, RungsEngageInOrderAsTheCostRampsUp) {
  RoomLoadLadder ladder(kLadder);
  const auto run =
      drive_ladder(ladder, kStart, kReading, 121, [](std::size_t i) { return cost(static_cast<double>(i)); });
  ASSERT_EQ(run.changes.size(), 4u);
  const std::size_t engaged_at[] = {50, 65, 80, 95};  // each at its enter threshold, one rung at a time
  for (std::size_t r = 0; r < 4; ++r) {
    EXPECT_EQ(run.changes[r].reading, engaged_at[r]);
    EXPECT_EQ(static_cast<std::size_t>(run.changes[r].from), r);
    EXPECT_EQ(static_cast<std::size_t>(run.changes[r].to), r + 1);
  }
}

TEST(RoomLoadLadder, RungsEngageInOrderAsTheLagRampsUp) {
  RoomLoadLadder ladder(kLadder);
  const auto run =
      drive_ladder(ladder, kStart, kReading, 90, [](std::size_t i) { return lag(static_cast<uint32_t>(i / 10)); });
  EXPECT_EQ(rungs_reached(run),
            (std::vector<RoomLoadRung>{RoomLoadRung::world_lane_slowed, RoomLoadRung::interest_narrowed,
                                       RoomLoadRung::snapshot_budget_cut, RoomLoadRung::admissions_closed}));
  EXPECT_EQ(run.changes[0].reading, 20u);  // lag 2
  EXPECT_EQ(run.changes[3].reading, 60u);  // lag 6
}

// A spike past the top engages every rung at once: the rung in force is the top, which sheds what
// every rung below it sheds.
TEST(RoomLoadLadder, ASpikeEngagesTheHighestRungMetAtOnce) {
  RoomLoadLadder ladder(kLadder);
  EXPECT_EQ(ladder.update(cost(10.0), kStart), RoomLoadRung::calm);
  EXPECT_EQ(ladder.update(cost(300.0), kStart + kReading), RoomLoadRung::admissions_closed);
}

TEST(RoomLoadLadder, ASignalHoveringAtAnEnterThresholdDoesNotFlap) {
  RoomLoadLadder ladder(kLadder);
  const auto run =
      drive_ladder(ladder, kStart, kReading, 400, [](std::size_t i) { return cost(i % 2 == 0 ? 49.9 : 50.0); });
  ASSERT_EQ(run.changes.size(), 1u) << "engaged once, held while the cost hovers";
  EXPECT_EQ(run.changes[0].reading, 1u);
  EXPECT_EQ(ladder.rung(), RoomLoadRung::world_lane_slowed);
}

// Hovering at the release threshold never completes a dwell (every reading above it restarts it);
// the rung releases only once the cost has stayed at or below it for the whole dwell.
TEST(RoomLoadLadder, ASignalHoveringAtAReleaseThresholdDoesNotFlap) {
  RoomLoadLadder ladder(kLadder);
  ASSERT_EQ(ladder.update(cost(55.0), kStart), RoomLoadRung::world_lane_slowed);
  const auto hovering = drive_ladder(ladder, kStart + kReading, kReading, 400,
                                     [](std::size_t i) { return cost(i % 2 == 0 ? 35.0 : 35.1); });
  EXPECT_TRUE(hovering.changes.empty());
  EXPECT_EQ(ladder.rung(), RoomLoadRung::world_lane_slowed);
  const auto settled = drive_ladder(ladder, hovering.next, kReading, 40, [](std::size_t) { return cost(35.0); });
  ASSERT_EQ(settled.changes.size(), 1u);
  EXPECT_EQ(settled.changes[0].to, RoomLoadRung::calm);
  EXPECT_EQ(settled.changes[0].at - hovering.next, kDwell);
}

TEST(RoomLoadLadder, ARungReleasesOnlyAfterTheDwellBelowItsReleaseThreshold) {
  RoomLoadLadder ladder(kLadder);
  ASSERT_EQ(ladder.update(cost(50.0), kStart), RoomLoadRung::world_lane_slowed);
  const MonoTime calm = kStart + Duration::seconds(1);
  EXPECT_EQ(ladder.update(cost(40.0), calm), RoomLoadRung::world_lane_slowed) << "below enter, above release";
  EXPECT_FALSE(ladder.calm_since().has_value());
  EXPECT_EQ(ladder.update(cost(0.0), calm), RoomLoadRung::world_lane_slowed);
  EXPECT_EQ(ladder.calm_since(), calm);
  EXPECT_EQ(ladder.update(cost(0.0), calm + kDwell - Duration::nanoseconds(1)), RoomLoadRung::world_lane_slowed);
  EXPECT_EQ(ladder.update(cost(0.0), calm + kDwell), RoomLoadRung::calm);
}

TEST(RoomLoadLadder, ARiseAboveTheReleaseThresholdRestartsTheDwell) {
  RoomLoadLadder ladder(kLadder);
  ASSERT_EQ(ladder.update(cost(50.0), kStart), RoomLoadRung::world_lane_slowed);
  const MonoTime calm = kStart + Duration::seconds(1);
  ladder.update(cost(0.0), calm);
  ladder.update(cost(40.0), calm + Duration::milliseconds(1'500));  // above release 35: the dwell restarts
  const MonoTime calm_again = calm + Duration::milliseconds(1'600);
  ladder.update(cost(0.0), calm_again);
  EXPECT_EQ(ladder.update(cost(0.0), calm + kDwell + Duration::milliseconds(100)), RoomLoadRung::world_lane_slowed);
  EXPECT_EQ(ladder.update(cost(0.0), calm_again + kDwell), RoomLoadRung::calm);
}

// Both signals must be at or below the release thresholds: a lag still up holds the rung though
// the cost has fallen.
TEST(RoomLoadLadder, EverySignalMustBeAtOrBelowReleaseForTheDwell) {
  RoomLoadLadder ladder(kLadder);
  ASSERT_EQ(ladder.update(lag(4), kStart), RoomLoadRung::snapshot_budget_cut);
  const auto held = drive_ladder(ladder, kStart + kReading, kReading, 100, [](std::size_t) {
    return RoomLoadSignals{0.0, 3};
  });
  EXPECT_TRUE(held.changes.empty()) << "lag 3 is above snapshot_budget_cut's release lag 2";
  const auto released = drive_ladder(ladder, held.next, kReading, 25, [](std::size_t) {
    return RoomLoadSignals{0.0, 2};
  });
  EXPECT_EQ(rungs_reached(released), (std::vector<RoomLoadRung>{RoomLoadRung::interest_narrowed}));
}

TEST(RoomLoadLadder, RungsReleaseInReverseOrderAsTheSignalFalls) {
  RoomLoadLadder ladder(kLadder);
  ASSERT_EQ(ladder.update(cost(120.0), kStart), RoomLoadRung::admissions_closed);
  // Down one percent every half second: slower than a dwell per rung's band.
  const auto run = drive_ladder(ladder, kStart + kReading, Duration::milliseconds(500), 260,
                                [](std::size_t i) { return cost(std::max(0.0, 120.0 - static_cast<double>(i))); });
  ASSERT_EQ(rungs_reached(run),
            (std::vector<RoomLoadRung>{RoomLoadRung::snapshot_budget_cut, RoomLoadRung::interest_narrowed,
                                       RoomLoadRung::world_lane_slowed, RoomLoadRung::calm}));
  for (const auto& change : run.changes) {
    const RoomRungThresholds& released = kLadder.rungs[static_cast<std::size_t>(change.from) - 1];
    const double cost_then = std::max(0.0, 120.0 - static_cast<double>(change.reading));
    EXPECT_LE(cost_then, released.release_percent) << reason_name(change.from);
    // The first reading at or below the release threshold, plus the dwell.
    const double first_calm_reading = 120.0 - released.release_percent;
    EXPECT_EQ(static_cast<double>(change.reading), first_calm_reading + 4.0) << reason_name(change.from);
  }
}

// After the signals drop at once, each rung takes its own dwell: the top first, calm last.
TEST(RoomLoadLadder, EachRungTakesItsOwnDwell) {
  RoomLoadLadder ladder(kLadder);
  ASSERT_EQ(ladder.update(cost(120.0), kStart), RoomLoadRung::admissions_closed);
  const auto run = drive_ladder(ladder, kStart + kReading, kReading, 200, [](std::size_t) { return cost(0.0); });
  ASSERT_EQ(run.changes.size(), 4u);
  for (std::size_t k = 0; k < run.changes.size(); ++k) {
    EXPECT_EQ(static_cast<std::size_t>(run.changes[k].from), 4 - k);
    EXPECT_EQ(static_cast<std::size_t>(run.changes[k].to), 3 - k);
    // Dwell from the first calm reading: reading 20 for the top, then 21 more readings per rung.
    EXPECT_EQ(run.changes[k].reading, 20 + 21 * k);
  }
}

TEST(RoomLoadLadder, AZeroDwellReleasesAtTheFirstReadingAtOrBelowRelease) {
  RoomLadderPolicy quick = kLadder;
  quick.release_dwell_ms = 0;
  RoomLoadLadder ladder(quick);
  ASSERT_EQ(ladder.update(cost(70.0), kStart), RoomLoadRung::interest_narrowed);
  EXPECT_EQ(ladder.update(cost(45.0), kStart + kReading), RoomLoadRung::world_lane_slowed) << "45 <= release 50";
  EXPECT_EQ(ladder.update(cost(45.0), kStart + kReading * 2), RoomLoadRung::world_lane_slowed) << "45 > release 35";
  EXPECT_EQ(ladder.update(cost(35.0), kStart + kReading * 3), RoomLoadRung::calm);
}

}  // namespace
}  // namespace tickwire

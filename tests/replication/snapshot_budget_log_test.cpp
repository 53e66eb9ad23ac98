// The snapshot budget log writes a line when the snapshot's composition changes (entity count, or
// a budget crossing: whole <-> fragmented, a new fragment count, the ceiling), never merely because
// a tick passed, plus one diagnostics line per interval carrying bytes, fragments and entities. A
// crossing is info (the ceiling a warning); a count changed within the budget is debug, since under
// interest management a crowd changes some client's count every tick.
#include "tickwire/replication/budget/snapshot_budget_log.h"

#include <gtest/gtest.h>
#include <spdlog/sinks/ringbuffer_sink.h>
#include <spdlog/spdlog.h>

#include <string>
#include <vector>

#include "snapshot_fragment_support.h"

namespace tickwire {
namespace {

constexpr Duration kTickPeriod = Duration::milliseconds(10);  // 100 Hz keeps the interval arithmetic exact

struct Captured {
  std::shared_ptr<spdlog::sinks::ringbuffer_sink_mt> sink = std::make_shared<spdlog::sinks::ringbuffer_sink_mt>(256);
  std::shared_ptr<spdlog::logger> logger = std::make_shared<spdlog::logger>("budget-test", sink);
  std::vector<std::string> lines() const { return sink->last_formatted(); }
};

// Slices a snapshot of `bytes` for real and describes it as the server would.
SnapshotComposition compose(SnapshotSlicer& slicer, Tick tick, uint32_t entities, std::size_t bytes) {
  const test::Bytes snapshot = test::make_snapshot(bytes, static_cast<uint64_t>(tick.value()));
  return {entities, bytes, slicer.slice(tick, snapshot)};
}

struct Step {
  uint32_t ticks;
  uint32_t entities;
  std::size_t bytes;
  bool new_line;  // the first tick of this step changes the composition
};

// Runs the steps through a log whose logger is at `level`; returns the lines it wrote.
std::vector<std::string> run_steps(spdlog::level::level_enum level) {
  const SnapshotFragmentBudget budget = test::default_budget();
  const std::size_t slice = budget.max_slice_bytes();
  const Step steps[] = {
      {50, 10, 400, true},                                // first snapshot: whole
      {50, 10, 900, false},                               // more bytes, still whole, same entities
      {50, 11, 950, true},                                // an entity more
      {50, 11, 2 * slice + 10, true},                     // crossing: whole -> 3 fragments
      {50, 11, 3 * slice - 10, false},                    // bytes move, still 3 fragments
      {50, 11, 3 * slice + 10, true},                     // 4 fragments
      {50, 11, 16 * slice + 1, true},                     // past the ceiling: not sent
      {50, 11, 17 * slice, false},                        // still past it
      {50, 11, 300, true},                                // back under the budget
      {50, 12, 300, true},                                // an entity more
  };
  Captured captured;
  captured.logger->set_level(level);
  SnapshotBudgetLogConfig config;
  config.diagnostics_interval = Duration::seconds(60);  // none in this run
  SnapshotBudgetLog log(budget, config, captured.logger);
  SnapshotSlicer slicer(budget);
  MonoTime now = MonoTime::from_ns(0);
  Tick tick = Tick::from_value(1);
  uint64_t expected_lines = 0;
  for (const Step& step : steps) {
    for (uint32_t i = 0; i < step.ticks; ++i, ++tick, now += kTickPeriod) {
      const uint64_t before = log.composition_lines();
      log.record(now, tick, compose(slicer, tick, step.entities, step.bytes));
      const bool logged = log.composition_lines() != before;
      EXPECT_EQ(logged, i == 0 && step.new_line) << "tick " << tick.value() << " bytes " << step.bytes;
      expected_lines += logged ? 1 : 0;
    }
  }
  EXPECT_EQ(log.composition_lines(), expected_lines);
  EXPECT_EQ(log.composition_lines(), 7u);
  EXPECT_EQ(log.diagnostics_lines(), 0u);
  EXPECT_EQ(slicer.over_ceiling(), 100u);
  return captured.lines();
}

TEST(SnapshotBudgetLog, OneLinePerCompositionChangeNotPerTick) {
  const std::vector<std::string> lines = run_steps(spdlog::level::debug);
  ASSERT_EQ(lines.size(), 7u);
  EXPECT_NE(lines[0].find("10 entities, 400 bytes, whole"), std::string::npos) << lines[0];
  EXPECT_NE(lines[1].find("[debug]"), std::string::npos) << lines[1];
  EXPECT_NE(lines[2].find("3 fragments of up to 1089 bytes"), std::string::npos) << lines[2];
  EXPECT_NE(lines[4].find("past the ceiling of 16 fragments (17424 bytes): not sent"), std::string::npos) << lines[4];
  EXPECT_NE(lines[4].find("[warning]"), std::string::npos) << lines[4];
  EXPECT_NE(lines[6].find("12 entities"), std::string::npos) << lines[6];
}

TEST(SnapshotBudgetLog, AtInfoOnlyTheCrossingsOfTheBudgetAreWritten) {
  const std::vector<std::string> lines = run_steps(spdlog::level::info);
  ASSERT_EQ(lines.size(), 5u);
  EXPECT_NE(lines[0].find("10 entities, 400 bytes, whole"), std::string::npos) << lines[0];
  EXPECT_NE(lines[1].find("11 entities"), std::string::npos) << lines[1];
  EXPECT_NE(lines[1].find("3 fragments"), std::string::npos) << lines[1];
  EXPECT_NE(lines[2].find("4 fragments"), std::string::npos) << lines[2];
  EXPECT_NE(lines[3].find("[warning]"), std::string::npos) << lines[3];
  EXPECT_NE(lines[4].find("11 entities, 300 bytes, whole"), std::string::npos) << lines[4];
}

// A diagnostics line a second.
SnapshotBudgetLogConfig every_second() {
  SnapshotBudgetLogConfig config;
  config.diagnostics_interval = Duration::seconds(1);
  return config;
}

TEST(SnapshotBudgetLog, DiagnosticsLineOncePerIntervalWithTheDetail) {
  const SnapshotFragmentBudget budget = test::default_budget();
  Captured captured;
  SnapshotBudgetLog log(budget, every_second(), captured.logger);
  SnapshotSlicer slicer(budget);
  MonoTime now = MonoTime::from_ns(5'000'000'000);
  // 10 s at 100 Hz of one unchanging 3-fragment composition.
  for (int64_t t = 0; t < 1000; ++t, now += kTickPeriod) {
    log.record(now, Tick::from_value(t), compose(slicer, Tick::from_value(t), 40, 2500));
  }
  EXPECT_EQ(log.composition_lines(), 1u);
  // The window opens at the first record and closes each time 1 s has passed: at t = 1 s .. 9 s.
  EXPECT_EQ(log.diagnostics_lines(), 9u);
  const std::vector<std::string> lines = captured.lines();
  ASSERT_EQ(lines.size(), 10u);
  const std::string& diagnostics = lines[1];
  EXPECT_NE(diagnostics.find("at tick 100 over 1.0 s: 101 snapshots (0 whole, 101 fragmented, 0 not sent)"),
            std::string::npos)
      << diagnostics;
  EXPECT_NE(diagnostics.find("entities 40; bytes last 2500 mean 2500 max 2500; fragments last 3 mean 3.0 max 3"),
            std::string::npos)
      << diagnostics;
  EXPECT_NE(lines[2].find("at tick 200 over 1.0 s: 100 snapshots"), std::string::npos) << lines[2];
}

// Clients that joined in one tick log their periodic lines on different ticks: a staggered log's
// first window closes at its fraction of the interval, every later one after the whole interval.
TEST(SnapshotBudgetLog, AStaggeredLogClosesItsFirstWindowEarly) {
  const SnapshotFragmentBudget budget = test::default_budget();
  Captured captured;
  SnapshotBudgetLog plain(budget, every_second(), captured.logger);
  SnapshotBudgetLog staggered(budget, every_second(), captured.logger);
  staggered.stagger(0.25);
  SnapshotSlicer slicer(budget);
  MonoTime now = MonoTime::from_ns(0);
  std::vector<int64_t> plain_ticks, staggered_ticks;
  for (int64_t t = 0; t < 300; ++t, now += kTickPeriod) {
    const uint64_t plain_before = plain.diagnostics_lines(), staggered_before = staggered.diagnostics_lines();
    plain.record(now, Tick::from_value(t), compose(slicer, Tick::from_value(t), 40, 400));
    staggered.record(now, Tick::from_value(t), compose(slicer, Tick::from_value(t), 40, 400));
    if (plain.diagnostics_lines() != plain_before) plain_ticks.push_back(t);
    if (staggered.diagnostics_lines() != staggered_before) staggered_ticks.push_back(t);
  }
  EXPECT_EQ(plain_ticks, (std::vector<int64_t>{100, 200}));
  EXPECT_EQ(staggered_ticks, (std::vector<int64_t>{25, 125, 225}));
}

}  // namespace
}  // namespace tickwire

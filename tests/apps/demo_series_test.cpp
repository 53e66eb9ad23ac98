// The demo's series (apps/tickwire/demo_series.h): rates are the differences of the bots'
// cumulative counters over each interval, columns are found by name, bad values and malformed rows
// are refused and counted, the spread across clients is kept per interval, and every series stays
// under its cap however long the run.
#include <gtest/gtest.h>

#include <limits>

#include <nlohmann/json.hpp>

#include "../../apps/tickwire/demo_series.h"

namespace tickwire::cli {
namespace {

const nlohmann::json kFields = {"id", "bytes_up", "bytes_down", "rtt_ms", "depth_ticks", "corrections", "held_frames"};

nlohmann::json bots_line(double t, nlohmann::json rows) {
  return {{"type", "bots_series"}, {"t", t}, {"fields", kFields}, {"clients", std::move(rows)}};
}

TEST(DemoSeries, RatesAreEachIntervalsIncrease) {
  DemoSeries s;
  s.take(bots_line(1.0, {{1000, 1000, 5000, 20.0, 2.0, 1, 0}}));
  s.take(bots_line(2.0, {{1000, 3000, 15000, 22.0, 2.5, 4, 2}}));
  ASSERT_EQ(s.clients().size(), 1u);
  const ClientTrack& c = s.clients()[0];
  EXPECT_EQ(c.id, 1000u);
  const auto& up = c.figure(ClientFigure::up_kbps).points();
  ASSERT_EQ(up.size(), 2u);
  EXPECT_DOUBLE_EQ(up[0].value, 8.0);   // 1000 B in the first second
  EXPECT_DOUBLE_EQ(up[1].value, 16.0);  // 2000 B in the next
  EXPECT_DOUBLE_EQ(c.figure(ClientFigure::down_kbps).points()[1].value, 80.0);
  EXPECT_DOUBLE_EQ(c.figure(ClientFigure::rtt_ms).points()[1].value, 22.0);
  EXPECT_DOUBLE_EQ(c.figure(ClientFigure::depth_ticks).points()[1].value, 2.5);
  EXPECT_DOUBLE_EQ(c.figure(ClientFigure::corrections_per_s).points()[1].value, 3.0);
  EXPECT_DOUBLE_EQ(c.figure(ClientFigure::held_frames_per_s).points()[1].value, 2.0);
}

TEST(DemoSeries, ColumnsAreFoundByNameAndACounterThatStartsOverCountsWhole) {
  DemoSeries s;
  const nlohmann::json reordered = {"held_frames", "id", "bytes_up", "extra"};
  s.take({{"type", "bots_series"}, {"t", 1.0}, {"fields", reordered}, {"clients", {{0, 7, 500, "x"}}}});
  s.take({{"type", "bots_series"}, {"t", 2.0}, {"fields", reordered}, {"clients", {{0, 7, 125, "x"}}}});  // a new session
  ASSERT_EQ(s.clients().size(), 1u);
  EXPECT_EQ(s.clients()[0].id, 7u);
  const auto& up = s.clients()[0].figure(ClientFigure::up_kbps).points();
  ASSERT_EQ(up.size(), 2u);
  EXPECT_DOUBLE_EQ(up[1].value, 1.0);
  EXPECT_TRUE(s.clients()[0].figure(ClientFigure::rtt_ms).points().empty()) << "no such column";
}

TEST(DemoSeries, BadValuesAndMalformedRowsAreRefused) {
  DemoSeries s;
  s.take(nlohmann::json::array());
  s.take({{"type", "bots_series"}, {"t", "soon"}});
  s.take({{"type", "bots_series"}, {"t", 1.0}, {"fields", kFields}, {"clients", 3}});
  s.take(bots_line(1.0, {"not a row", {nullptr, 1, 2, 3, 4, 5, 6}, {-1, 1, 2, 3, 4, 5, 6}}));
  EXPECT_TRUE(s.clients().empty());
  EXPECT_EQ(s.refused_rows(), 3u);
  s.take(bots_line(1.0, {{5, 1, 2, nullptr, "deep", 0, 0}}));  // no RTT, no depth yet
  ASSERT_EQ(s.clients().size(), 1u);
  EXPECT_TRUE(s.clients()[0].figure(ClientFigure::rtt_ms).points().empty());
  EXPECT_TRUE(s.clients()[0].figure(ClientFigure::depth_ticks).points().empty());
  s.take(bots_line(1.0, {{5, 1, 2, 3, 4, 0, 0}}));  // not later than its previous row
  EXPECT_EQ(s.refused_rows(), 4u);

  CappedSeries c;
  EXPECT_FALSE(c.add(1, std::numeric_limits<double>::quiet_NaN()));
  EXPECT_FALSE(c.add(std::numeric_limits<double>::infinity(), 1));
  EXPECT_TRUE(c.add(1, 2));
  EXPECT_EQ(c.refused(), 2u);
  EXPECT_EQ(c.points().size(), 1u);
}

TEST(DemoSeries, TheSpreadAcrossClientsIsKeptPerInterval) {
  DemoSeries s;
  s.take(bots_line(1.0, {{1, 0, 0, 10.0, 1, 0, 0}, {2, 0, 0, 30.0, 2, 0, 0}, {3, 0, 0, 20.0, 3, 0, 0}, {4, 0, 0, 50.0, 4, 0, 0}}));
  const FigureBand& rtt = s.band(ClientFigure::rtt_ms);
  ASSERT_EQ(rtt.low.points().size(), 1u);
  EXPECT_DOUBLE_EQ(rtt.low.points()[0].value, 10.0);
  EXPECT_DOUBLE_EQ(rtt.high.points()[0].value, 50.0);
  EXPECT_DOUBLE_EQ(rtt.median.points()[0].value, 25.0);
}

TEST(DemoSeries, TheServersTickCostPerInterval) {
  DemoSeries s;
  s.take({{"type", "server"}, {"t", 1.0}, {"hz", 60.0}, {"tick_cost_interval_us", {{"p50", 300.0}, {"p99", 900.0}}}});
  s.take({{"type", "server"}, {"t", 2.0}, {"hz", 59.5}});  // an older server: no interval figures
  s.take({{"type", "server_final"}, {"t", 3.0}, {"hz", 1.0}});
  EXPECT_EQ(s.tick_cost_p50_us().points().size(), 1u);
  EXPECT_DOUBLE_EQ(s.tick_cost_p99_us().points()[0].value, 900.0);
  EXPECT_EQ(s.server_tick_hz().points().size(), 2u);
}

TEST(DemoSeries, SeriesStayUnderTheirCapAndKeepTheWholeSpan) {
  CappedSeries c;
  constexpr int kSamples = 100000;
  for (int i = 1; i <= kSamples; ++i) ASSERT_TRUE(c.add(i, 1.0));
  EXPECT_LE(c.points().size(), CappedSeries::kMaxPoints);
  EXPECT_GE(c.points().size(), CappedSeries::kMaxPoints / 4);
  EXPECT_LT(c.points().front().t_s, 1000.0);
  EXPECT_GT(c.points().back().t_s, kSamples - 1000.0);
  for (const SeriesPoint& p : c.points()) EXPECT_DOUBLE_EQ(p.value, 1.0);

  DemoSeries s;
  nlohmann::json rows = nlohmann::json::array();
  for (int id = 0; id < 300; ++id) rows.push_back({id, 0, 0, 1.0, 1.0, 0, 0});
  s.take(bots_line(1.0, rows));
  EXPECT_EQ(s.clients().size(), DemoSeries::kMaxClients);
  EXPECT_EQ(s.refused_rows(), 300u - DemoSeries::kMaxClients);
}

}  // namespace
}  // namespace tickwire::cli

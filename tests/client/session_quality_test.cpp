// SessionQuality: the settle time is when the depth's trailing one-second mean entered the band
// and stayed there for the hold time; what that run saw counts as after settling; the histogram
// clamps into its end bins; every acked input's latency is counted once, from when it was sent.
#include "tickwire/client/session_quality.h"

#include <gtest/gtest.h>

namespace tickwire {
namespace {

MonoTime at_ms(double ms) { return MonoTime::from_ns(static_cast<int64_t>(ms * 1e6)); }

TEST(SessionQuality, SettlesWhenTheWindowMeanStaysInTheBandAndCountsFromTheRunsStart) {
  SessionQuality quality(at_ms(0), 60.0);
  QualityReport r;
  int64_t reading = 0;
  const auto feed = [&](int8_t depth, int count) {
    for (int i = 0; i < count; ++i, ++reading) quality.on_depth_reading(depth, 2.0, at_ms(static_cast<double>(reading) * 1000.0 / 60.0));
  };
  feed(0, 120);  // two seconds far below the target of 2
  feed(2, 240);  // four seconds at it: the band is entered ~0.75 s in, not yet held 5 s
  quality.fill(r);
  EXPECT_FALSE(r.settle_s.has_value());
  feed(-1, 1);   // one starved tick inside the run (the mean stays in the band)
  feed(2, 180);
  quality.fill(r);
  ASSERT_TRUE(r.settle_s.has_value());
  // The window's mean reaches 1.5 once 45 of its 60 readings are 2: reading 164, at 2.733 s.
  EXPECT_NEAR(*r.settle_s, 2.75, 0.02);
  EXPECT_EQ(r.starved_readings, 1u);
  EXPECT_EQ(r.starved_after_settle, 1u);
  EXPECT_EQ(r.readings_after_settle, r.in_band_after_settle);
  EXPECT_EQ(r.readings_after_settle, static_cast<uint64_t>(reading - 164));
  EXPECT_EQ(r.readings, static_cast<uint64_t>(reading));
}

TEST(SessionQuality, TheHistogramClampsIntoItsEndBins) {
  SessionQuality quality(at_ms(0), 60.0);
  quality.on_depth_reading(-9, 2.0, at_ms(1));
  quality.on_depth_reading(-6, 2.0, at_ms(2));
  quality.on_depth_reading(40, 2.0, at_ms(3));
  quality.on_depth_reading(3, 2.0, at_ms(4));
  QualityReport r;
  quality.fill(r);
  EXPECT_EQ(r.depth_histogram.front(), 2u);
  EXPECT_EQ(r.depth_histogram.back(), 1u);
  EXPECT_EQ(r.depth_histogram[static_cast<std::size_t>(3 - kQualityDepthFloorTicks)], 1u);
  EXPECT_EQ(r.starved_readings, 2u);
}

TEST(SessionQuality, EachAckedInputIsTimedOnceFromWhenItWasSent) {
  SessionQuality quality(at_ms(0), 60.0);
  for (uint32_t s = 0; s < 10; ++s) quality.on_input_sent(s, at_ms(s));
  quality.on_ack(12, at_ms(50));  // an input never sent: ignored
  quality.on_ack(4, at_ms(100));  // inputs 0..4: 100..96 ms
  quality.on_ack(4, at_ms(150));  // the same ack again: nothing new
  quality.on_ack(9, at_ms(120));  // inputs 5..9: 115..111 ms
  QualityReport r;
  quality.fill(r);
  EXPECT_EQ(r.acked_inputs, 10u);
  EXPECT_DOUBLE_EQ(r.ack_max_ms, 115.0);
  EXPECT_DOUBLE_EQ(r.ack_p50_ms, 101.0);  // the 5th of 10 sorted (100 ms): its 1 ms bin's upper edge
  EXPECT_DOUBLE_EQ(r.ack_p99_ms, 115.0);
  quality.on_rate(0.99);
  quality.on_rate(1.015);
  quality.fill(r);
  EXPECT_DOUBLE_EQ(r.min_rate, 0.99);
  EXPECT_DOUBLE_EQ(r.max_rate, 1.015);
  const std::string text = format_quality_report("t", r);
  EXPECT_NE(text.find("input->ack: 10 inputs"), std::string::npos) << text;
}

TEST(SessionQuality, MergingAddsCountsAndKeepsTheWorstFigures) {
  QualityReport a, b;
  a.readings = 10;
  a.settle_s = 1.0;
  a.ack_p99_ms = 50;
  b.readings = 5;
  b.settle_s = 3.0;
  b.ack_p99_ms = 80;
  b.min_rate = 0.985;
  a.sessions = b.sessions = a.settled_sessions = b.settled_sessions = 1;
  merge_quality_reports(a, b);
  EXPECT_EQ(a.readings, 15u);
  EXPECT_EQ(a.settled_sessions, 2u);
  EXPECT_DOUBLE_EQ(*a.settle_s, 3.0);
  EXPECT_DOUBLE_EQ(a.ack_p99_ms, 80.0);
  EXPECT_DOUBLE_EQ(a.min_rate, 0.985);
  b.settle_s.reset();
  b.settled_sessions = 0;
  merge_quality_reports(a, b);
  EXPECT_FALSE(a.settle_s.has_value());  // one client that never settled: the merge never did
  EXPECT_EQ(a.sessions, 3u);
  EXPECT_EQ(a.settled_sessions, 2u);
  EXPECT_NE(format_quality_report("m", a).find("settle never (2/3 settled)"), std::string::npos);
}

}  // namespace
}  // namespace tickwire

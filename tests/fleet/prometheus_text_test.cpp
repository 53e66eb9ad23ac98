// The exposition writer: the grammar of names, the escaping of label values and help text, how
// values are spelled (integers exactly, non-finite values by name, others read back to the same
// double), families refused when invalid or repeated, and a whole exposition read back line by
// line with the tests' strict grammar (tests/support/exposition_grammar.h).
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>
#include <limits>

#include "exposition_grammar.h"
#include "tickwire/fleet/prometheus_text.h"

namespace tickwire::fleet {
namespace {

TEST(PrometheusText, NamesFollowTheGrammar) {
  for (const char* good : {"a", "_x", "tickwire_refusals_total", "ns:rule_1", "A9"}) EXPECT_TRUE(valid_metric_name(good)) << good;
  for (const char* bad : {"", "9a", "a-b", "a b", "a.b", "é", "a{"}) EXPECT_FALSE(valid_metric_name(bad)) << bad;
  for (const char* good : {"reason", "_r", "client_id", "R2"}) EXPECT_TRUE(valid_label_name(good)) << good;
  for (const char* bad : {"", "__name__", "__x", "a:b", "1a", "a-b"}) EXPECT_FALSE(valid_label_name(bad)) << bad;
}

TEST(PrometheusText, LabelValuesAndHelpAreEscaped) {
  EXPECT_EQ(escape_label_value(R"(plain)"), "plain");
  EXPECT_EQ(escape_label_value("a\\b\"c\nd"), "a\\\\b\\\"c\\nd");
  EXPECT_EQ(escape_help("say \"hi\"\\\n"), "say \"hi\"\\\\\\n");
}

TEST(PrometheusText, ValuesAreSpelledExactly) {
  EXPECT_EQ(format_metric_value(0.0), "0");
  EXPECT_EQ(format_metric_value(-0.0), "0");
  EXPECT_EQ(format_metric_value(42.0), "42");
  EXPECT_EQ(format_metric_value(-3.0), "-3");
  EXPECT_EQ(format_metric_value(9007199254740992.0), "9007199254740992");
  EXPECT_EQ(format_metric_value(0.25), "0.25");
  EXPECT_EQ(format_metric_value(std::numeric_limits<double>::quiet_NaN()), "NaN");
  EXPECT_EQ(format_metric_value(std::numeric_limits<double>::infinity()), "+Inf");
  EXPECT_EQ(format_metric_value(-std::numeric_limits<double>::infinity()), "-Inf");
  for (const double v : {0.1, 1.0 / 3.0, 59.99999, 1e300, -2.5e-12, 1e16 + 2.0}) {
    EXPECT_EQ(std::strtod(format_metric_value(v).c_str(), nullptr), v) << format_metric_value(v);
  }
  PrometheusText out;
  ASSERT_TRUE(out.family("big_total", MetricType::counter, "a counter past 2^53"));
  ASSERT_TRUE(out.sample({}, uint64_t{18446744073709551615u}));
  EXPECT_EQ(out.text(), "# HELP big_total a counter past 2^53\n# TYPE big_total counter\nbig_total 18446744073709551615\n");
}

TEST(PrometheusText, InvalidOrRepeatedFamiliesAndBadLabelsAreLeftOutAndCounted) {
  PrometheusText out;
  EXPECT_FALSE(out.family("bad-name", MetricType::gauge, "x"));
  EXPECT_FALSE(out.sample({}, 1.0));  // its family was refused: nothing open
  EXPECT_TRUE(out.family("good", MetricType::gauge, "x"));
  EXPECT_FALSE(out.sample({{"__name__", "v"}}, 1.0));
  EXPECT_FALSE(out.sample({{"a", "1"}, {"a", "2"}}, 1.0));
  EXPECT_FALSE(out.sample({{"bad-label", "1"}}, 1.0));
  EXPECT_TRUE(out.sample({{"a", "1"}}, 1.0));
  EXPECT_FALSE(out.family("good", MetricType::gauge, "again"));
  EXPECT_EQ(out.refused(), 6u);
  EXPECT_EQ(out.text(), "# HELP good x\n# TYPE good gauge\ngood{a=\"1\"} 1\n");
  PrometheusText many;
  for (std::size_t i = 0; i < kMaxMetricFamilies; ++i) EXPECT_TRUE(many.family(fmt::format("f{}", i), MetricType::gauge, ""));
  EXPECT_FALSE(many.family("one_too_many", MetricType::gauge, ""));
}

TEST(PrometheusText, AWholeExpositionReadsBackLineByLine) {
  PrometheusText out;
  out.family("tickwire_refusals_total", MetricType::counter, "Refusals by reason,\nwith a \\ and \"quotes\".");
  out.sample({{"reason", "netcode.reject.token_expired"}}, uint64_t{3});
  out.sample({{"reason", "odd \"reason\"\\ with\na newline"}}, uint64_t{1});
  out.family("tickwire_tick_rate_hz", MetricType::gauge, "Measured.");
  out.sample({}, 59.97);
  out.family("tickwire_weird", MetricType::gauge, "Non-finite values.");
  out.sample({{"which", "nan"}}, std::numeric_limits<double>::quiet_NaN());
  out.sample({{"which", "inf"}, {"sign", "-"}}, -std::numeric_limits<double>::infinity());
  out.family("tickwire_empty", MetricType::counter, "A family with no sample yet.");
  ASSERT_EQ(out.refused(), 0u);

  const test::Exposition e = test::parse_exposition(out.text());
  ASSERT_TRUE(e.error.empty()) << e.error << "\n" << out.text();
  EXPECT_EQ(e.types.at("tickwire_refusals_total"), "counter");
  EXPECT_EQ(e.types.at("tickwire_tick_rate_hz"), "gauge");
  EXPECT_EQ(e.types.at("tickwire_empty"), "counter");
  EXPECT_EQ(e.helps.at("tickwire_refusals_total"), "Refusals by reason,\nwith a \\ and \"quotes\".");
  ASSERT_EQ(e.samples.size(), 5u);
  EXPECT_EQ(e.find("tickwire_refusals_total", {{"reason", "netcode.reject.token_expired"}}).at(0).value, "3");
  EXPECT_EQ(e.find("tickwire_refusals_total", {{"reason", "odd \"reason\"\\ with\na newline"}}).size(), 1u);
  EXPECT_EQ(e.find("tickwire_tick_rate_hz").at(0).value, "59.97");
  EXPECT_EQ(e.find("tickwire_weird", {{"which", "nan"}}).at(0).value, "NaN");
  EXPECT_EQ(e.find("tickwire_weird", {{"sign", "-"}}).at(0).value, "-Inf");
}

TEST(PrometheusText, AHistogramIsCumulativeBucketsThenItsSumAndCount) {
  DurationHistogram h;
  h.add(0.0002);  // the first bucket and every one after
  h.add(0.003);   // from the 4 ms bucket on
  h.add(1.0);     // past every bound: +Inf only
  h.add(-1.0);    // not a duration: ignored
  h.add(std::numeric_limits<double>::quiet_NaN());
  PrometheusText out;
  ASSERT_TRUE(out.family("tickwire_tick_duration_seconds", MetricType::histogram, "Work per tick."));
  EXPECT_FALSE(out.sample({}, 1.0)) << "a histogram's samples are its buckets, sum and count";
  ASSERT_TRUE(out.histogram(h));
  out.family("tickwire_gauge", MetricType::gauge, "x");
  EXPECT_FALSE(out.histogram(h)) << "not a histogram family";
  EXPECT_EQ(out.refused(), 2u);
  const test::Exposition e = test::parse_exposition(out.text());
  ASSERT_TRUE(e.error.empty()) << e.error << "\n" << out.text();
  EXPECT_EQ(e.types.at("tickwire_tick_duration_seconds"), "histogram");
  EXPECT_EQ(e.find("tickwire_tick_duration_seconds_bucket", {{"le", "0.00025"}}).at(0).value, "1");
  EXPECT_EQ(e.find("tickwire_tick_duration_seconds_bucket", {{"le", "0.002"}}).at(0).value, "1");
  EXPECT_EQ(e.find("tickwire_tick_duration_seconds_bucket", {{"le", "0.004"}}).at(0).value, "2");
  EXPECT_EQ(e.find("tickwire_tick_duration_seconds_bucket", {{"le", "0.333"}}).at(0).value, "2");
  EXPECT_EQ(e.find("tickwire_tick_duration_seconds_bucket", {{"le", "+Inf"}}).at(0).value, "3");
  EXPECT_EQ(e.find("tickwire_tick_duration_seconds_count").at(0).value, "3");
  EXPECT_EQ(std::stod(e.find("tickwire_tick_duration_seconds_sum").at(0).value), 1.0032);
  EXPECT_EQ(e.find("tickwire_tick_duration_seconds_bucket").size(), DurationHistogram::kUpperBoundsSeconds.size() + 1);
}

TEST(PrometheusText, TheTestGrammarRefusesWhatTheFormatRefuses) {
  for (const char* broken : {
           "a 1\n",                                            // a sample before its family
           "# HELP a x\n# TYPE a summary\na 1\n",              // a type we never write
           "# HELP a x\n# TYPE a gauge\na{b=\"1} 1\n",         // no closing quote
           "# HELP a x\n# TYPE a gauge\na{b=\"\\t\"} 1\n",     // an escape the format lacks
           "# HELP a x\n# TYPE a gauge\na one\n",              // not a number
           "# HELP a x\n# TYPE a gauge\nb 1\n",                // a sample of another family
           "# HELP a x\n# TYPE a histogram\na_bucket 1\n",     // a bucket without its le
           "# HELP a x\n# TYPE a histogram\na 1\n",            // a histogram's bare name
           "# HELP a x\n# TYPE a gauge\na_sum 1\n",            // a suffix of a family that is not a histogram
           "# HELP a x\n# TYPE a gauge\n# HELP b y\n# TYPE b gauge\n# HELP a x\n",  // a family twice
           "# HELP a x\n# TYPE a gauge\na 1",                  // no final newline
       }) {
    EXPECT_FALSE(test::parse_exposition(broken).error.empty()) << broken;
  }
}

}  // namespace
}  // namespace tickwire::fleet

// The demo report's line-plot writer (apps/tickwire/svg_plot.h): text is escaped wherever it goes,
// NaN and infinite values are skipped rather than written as coordinates, an empty plot says so,
// ticks are round and carry their unit, and the point and line caps hold.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "page_text.h"
#include "../../apps/tickwire/svg_plot.h"

namespace tickwire::cli {
namespace {

using test::count_of;

PlotSpec two_point_plot() {
  PlotSpec spec;
  spec.title = "RTT";
  spec.y_unit = "ms";
  spec.lines.push_back({"client 1", "#123456", 1.5, 1.0, {{0, 10}, {5, 30}}});
  return spec;
}

TEST(SvgPlot, EscapesEveryTextItWrites) {
  EXPECT_EQ(escape_xml(R"(a<b>&"c"'d')"), "a&lt;b&gt;&amp;&quot;c&quot;&#39;d&#39;");
  PlotSpec spec = two_point_plot();
  spec.title = "<script>alert(1)</script>";
  spec.y_unit = "a&b";
  spec.lines[0].label = "\"><b>";
  spec.lines[0].colour = "red\" onload=\"x";
  const std::string svg = svg_line_plot(spec);
  EXPECT_EQ(svg.find("<script"), std::string::npos);
  EXPECT_EQ(svg.find("<b>"), std::string::npos);
  EXPECT_EQ(svg.find("onload=\""), std::string::npos);
  EXPECT_NE(svg.find("&lt;script&gt;"), std::string::npos);
  EXPECT_NE(svg.find("a&amp;b"), std::string::npos);
}

TEST(SvgPlot, DrawsALineWithItsTitleTicksAndLegend) {
  const std::string svg = svg_line_plot(two_point_plot());
  EXPECT_EQ(svg.rfind("<svg class=\"plot\"", 0), 0u);
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
  EXPECT_EQ(count_of(svg, "<polyline"), 1u);
  EXPECT_NE(svg.find(">RTT</text>"), std::string::npos);
  EXPECT_NE(svg.find(">30 ms</text>"), std::string::npos) << "y ticks carry the unit";
  EXPECT_NE(svg.find(">5 s</text>"), std::string::npos) << "x ticks carry seconds";
  EXPECT_NE(svg.find(">0 ms</text>"), std::string::npos) << "magnitudes start at zero";
  EXPECT_NE(svg.find(">client 1</text>"), std::string::npos);

  PlotSpec spanned = two_point_plot();  // plots of one run share its span
  spanned.x_cover_low = 0;
  spanned.x_cover_high = 20;
  EXPECT_NE(svg_line_plot(spanned).find(">20 s</text>"), std::string::npos);
  EXPECT_EQ(svg_line_plot(spanned).find(">25 s</text>"), std::string::npos) << "x ends where the run ends";
}

TEST(SvgPlot, AnEmptyPlotSaysNoData) {
  PlotSpec spec;
  spec.title = "nothing";
  EXPECT_NE(svg_line_plot(spec).find("no data"), std::string::npos);
  spec.lines.push_back({"empty", "#000", 1, 1, {}});
  const std::string svg = svg_line_plot(spec);
  EXPECT_NE(svg.find("no data"), std::string::npos);
  EXPECT_EQ(svg.find("<polyline"), std::string::npos);
}

TEST(SvgPlot, NaNAndInfiniteValuesAreSkipped) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  PlotSpec spec;
  spec.lines.push_back({"", "#000", 1, 1, {{0, 1}, {1, nan}, {2, inf}, {-inf, 3}, {3, 2}}});
  const std::string svg = svg_line_plot(spec);
  EXPECT_EQ(svg.find("nan"), std::string::npos);
  EXPECT_EQ(svg.find("inf"), std::string::npos);
  const std::size_t at = svg.find("points=\"");
  ASSERT_NE(at, std::string::npos);
  const std::string points = svg.substr(at + 8, svg.find('"', at + 8) - at - 8);
  EXPECT_EQ(count_of(points, ","), 2u) << points;  // the two finite points alone

  PlotSpec only_bad;
  only_bad.lines.push_back({"", "#000", 1, 1, {{nan, nan}, {inf, 1}}});
  EXPECT_NE(svg_line_plot(only_bad).find("no data"), std::string::npos);
}

TEST(SvgPlot, ABandIsAPolygonUnderTheLines) {
  PlotSpec spec;
  spec.bands.push_back({"min-max", "#00f", {{0, 1}, {1, 2}, {2, 1}}, {{0, 3}, {1, 4}, {2, 5}}});
  spec.lines.push_back({"median", "#00f", 2, 1, {{0, 2}, {1, 3}, {2, 3}}});
  const std::string svg = svg_line_plot(spec);
  const std::size_t polygon = svg.find("<polygon");
  ASSERT_NE(polygon, std::string::npos);
  EXPECT_LT(polygon, svg.find("<polyline"));
  EXPECT_NE(svg.find(">min-max</text>"), std::string::npos);
}

TEST(SvgPlot, PointsAndLinesAreCapped) {
  PlotSpec spec;
  PlotLine line;
  for (int i = 0; i < 10000; ++i) line.points.push_back({static_cast<double>(i), static_cast<double>(i % 7)});
  spec.lines.push_back(line);
  std::string svg = svg_line_plot(spec);
  EXPECT_LE(count_of(svg, ","), kMaxPlotPointsPerLine);
  EXPECT_GT(count_of(svg, ","), kMaxPlotPointsPerLine / 2);

  spec.lines.assign(kMaxPlotLines + 5, PlotLine{"", "#000", 1, 1, {{0, 1}, {1, 2}}});
  svg = svg_line_plot(spec);
  EXPECT_EQ(count_of(svg, "<polyline"), kMaxPlotLines);
  EXPECT_NE(svg.find("5 more lines not drawn"), std::string::npos);
}

TEST(SvgPlot, TicksAreRoundAndCoverTheRange) {
  EXPECT_EQ(nice_ticks(0, 10, 5), (std::vector<double>{0, 2, 4, 6, 8, 10}));
  EXPECT_EQ(nice_ticks(0, 47, 5), (std::vector<double>{0, 10, 20, 30, 40, 50}));
  const auto small = nice_ticks(0.013, 0.041, 4);
  ASSERT_FALSE(small.empty());
  EXPECT_LE(small.front(), 0.013);
  EXPECT_GE(small.back(), 0.041);
  EXPECT_LE(small.size(), 8u);
  EXPECT_TRUE(nice_ticks(std::nan(""), 1, 5).empty());
  EXPECT_TRUE(nice_ticks(2, 1, 5).empty());
  EXPECT_LE(nice_ticks(0, 1e300, 5).size(), 51u);
}

}  // namespace
}  // namespace tickwire::cli

// A small line plot written as inline SVG text (the demo's HTML report draws its figures over time
// with it): axes, ticks labelled with their units, a title, lines, an optional shaded band, a
// legend. No script, no font from elsewhere; every text escaped; a NaN or infinite value is skipped.
#pragma once

#include <cstddef>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace tickwire::cli {

struct PlotPoint {
  double x = 0;
  double y = 0;
};

struct PlotLine {
  std::string label;  // shown in the legend (empty: not listed)
  std::string colour = "#1f77b4";
  double width_px = 1.5;
  double opacity = 1.0;
  std::vector<PlotPoint> points;
};

// A shaded region between `low` and `high` (each as a line of its own: same x order, same count).
struct PlotBand {
  std::string label;
  std::string colour = "#1f77b4";
  std::vector<PlotPoint> low, high;
};

struct PlotSpec {
  std::string title;
  std::string x_unit = "s";
  std::string y_unit;
  // The x axis covers at least [x_cover_low, x_cover_high] (plots of one run share their span);
  // NaN: the points' own span. The y axis always covers zero.
  double x_cover_low = std::numeric_limits<double>::quiet_NaN();
  double x_cover_high = std::numeric_limits<double>::quiet_NaN();
  int width_px = 560;
  int height_px = 240;
  std::vector<PlotBand> bands;  // drawn first, under the lines
  std::vector<PlotLine> lines;
};

// A named cap: past it, a line's or a band's points are thinned (every k-th kept) before drawing.
inline constexpr std::size_t kMaxPlotPointsPerLine = 2000;
inline constexpr std::size_t kMaxPlotLines = 300;  // lines past it are not drawn (the count is shown)

// "&", "<", ">", '"' and "'" as XML entities: safe in element text and in quoted attributes.
std::string escape_xml(std::string_view text);
// Up to about `wanted` round tick values (1, 2 or 5 times a power of ten) covering [low, high].
std::vector<double> nice_ticks(double low, double high, int wanted);
// The plot as one <svg class="plot"> element. Lines whose points are all refused draw nothing; a
// plot with no drawable point says "no data".
std::string svg_line_plot(const PlotSpec& spec);

}  // namespace tickwire::cli

// The line plot as SVG text (svg_plot.h): bounds from the finite points, round ticks, then the
// frame, the grid, the bands, the lines and the legend, each text escaped.
#include "svg_plot.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include <fmt/format.h>

namespace tickwire::cli {
namespace {

constexpr double kLeftPx = 78, kRightPx = 14, kTopPx = 30, kBottomPx = 34;
constexpr double kLegendRowPx = 18;
constexpr int kMaxTicks = 50;

bool finite(const PlotPoint& p) { return std::isfinite(p.x) && std::isfinite(p.y); }

// Every k-th point, so at most kMaxPlotPointsPerLine are drawn.
std::size_t stride_for(std::size_t count) {
  return count <= kMaxPlotPointsPerLine ? 1 : (count + kMaxPlotPointsPerLine - 1) / kMaxPlotPointsPerLine;
}

struct Bounds {
  double x_low = 0, x_high = 0, y_low = 0, y_high = 0;
  bool any = false;
  void add(const PlotPoint& p) {
    if (!finite(p)) return;
    x_low = any ? std::min(x_low, p.x) : p.x;
    x_high = any ? std::max(x_high, p.x) : p.x;
    y_low = any ? std::min(y_low, p.y) : p.y;
    y_high = any ? std::max(y_high, p.y) : p.y;
    any = true;
  }
};

Bounds bounds_of(const PlotSpec& spec) {
  Bounds b;
  for (const PlotBand& band : spec.bands) {
    for (const PlotPoint& p : band.low) b.add(p);
    for (const PlotPoint& p : band.high) b.add(p);
  }
  for (std::size_t i = 0; i < spec.lines.size() && i < kMaxPlotLines; ++i)
    for (const PlotPoint& p : spec.lines[i].points) b.add(p);
  return b;
}

// A tick's label: as few decimals as the step needs, then the unit.
std::string tick_label(double value, double step, const std::string& unit) {
  const int decimals = step >= 1 ? 0 : std::min(6, static_cast<int>(std::ceil(-std::log10(step) - 1e-9)));
  std::string text = fmt::format("{:.{}f}", std::abs(value) < step * 1e-6 ? 0.0 : value, decimals);
  return unit.empty() ? text : text + " " + unit;
}

struct Frame {
  double left, top, width, height;  // the plotting area in px
  double x_low, x_high, y_low, y_high;
  double px_x(double x) const { return left + (x - x_low) / (x_high - x_low) * width; }
  double px_y(double y) const { return top + height - (y - y_low) / (y_high - y_low) * height; }
};

// The points of one line in px, "x,y x,y ..."; empty when none is drawable.
std::string polyline_points(const Frame& f, const std::vector<PlotPoint>& points) {
  std::string out;
  const std::size_t stride = stride_for(points.size());
  for (std::size_t i = 0; i < points.size(); i += stride) {
    if (!finite(points[i])) continue;
    out += fmt::format("{}{:.1f},{:.1f}", out.empty() ? "" : " ", f.px_x(points[i].x), f.px_y(points[i].y));
  }
  return out;
}

std::string band_polygon(const Frame& f, const PlotBand& band) {
  std::vector<PlotPoint> low, high;
  const std::size_t n = std::min(band.low.size(), band.high.size());
  const std::size_t stride = stride_for(n);
  for (std::size_t i = 0; i < n; i += stride) {
    if (!finite(band.low[i]) || !finite(band.high[i])) continue;
    low.push_back(band.low[i]);
    high.push_back(band.high[i]);
  }
  if (low.size() < 2) return {};
  std::reverse(high.begin(), high.end());
  low.insert(low.end(), high.begin(), high.end());
  return polyline_points(f, low);
}

std::string axes(const Frame& f, const PlotSpec& spec, const std::vector<double>& x_ticks, const std::vector<double>& y_ticks) {
  std::string out;
  const double y_step = y_ticks.size() > 1 ? y_ticks[1] - y_ticks[0] : 1;
  const double x_step = x_ticks.size() > 1 ? x_ticks[1] - x_ticks[0] : 1;  // (one tick: whole units)
  for (double y : y_ticks) {
    const double py = f.px_y(y);
    out += fmt::format("<line class=\"grid\" x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\"/>", f.left, py, f.left + f.width, py);
    out += fmt::format("<text class=\"tick\" x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"end\">{}</text>", f.left - 5, py + 4,
                       escape_xml(tick_label(y, y_step, spec.y_unit)));
  }
  for (double x : x_ticks) {
    const double px = f.px_x(x);
    out += fmt::format("<line class=\"grid\" x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\"/>", px, f.top, px, f.top + f.height);
    out += fmt::format("<text class=\"tick\" x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">{}</text>", px,
                       f.top + f.height + 16, escape_xml(tick_label(x, x_step, spec.x_unit)));
  }
  out += fmt::format("<rect class=\"frame\" x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" fill=\"none\"/>", f.left,
                     f.top, f.width, f.height);
  return out;
}

struct LegendItem {
  std::string label, colour;
  bool band;
};

std::vector<LegendItem> legend_items(const PlotSpec& spec) {
  std::vector<LegendItem> items;
  for (const PlotBand& b : spec.bands)
    if (!b.label.empty()) items.push_back({b.label, b.colour, true});
  for (std::size_t i = 0; i < spec.lines.size() && i < kMaxPlotLines; ++i)
    if (!spec.lines[i].label.empty()) items.push_back({spec.lines[i].label, spec.lines[i].colour, false});
  if (spec.lines.size() > kMaxPlotLines)
    items.push_back({fmt::format("{} more lines not drawn", spec.lines.size() - kMaxPlotLines), "#888", false});
  return items;
}

// Lays the legend out in rows under the plot; returns its SVG and sets `rows`.
std::string legend(const std::vector<LegendItem>& items, double top_px, double width_px, int& rows) {
  std::string out;
  double x = kLeftPx;
  rows = items.empty() ? 0 : 1;
  for (const LegendItem& item : items) {
    const double item_px = 26 + 6.5 * static_cast<double>(item.label.size());
    if (x + item_px > width_px - kRightPx && x > kLeftPx) {
      x = kLeftPx;
      ++rows;
    }
    const double y = top_px + (rows - 1) * kLegendRowPx;
    if (item.band)
      out += fmt::format("<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"16\" height=\"9\" fill=\"{}\" fill-opacity=\"0.25\"/>", x, y - 8,
                         escape_xml(item.colour));
    else
      out += fmt::format("<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"{}\" stroke-width=\"2.5\"/>", x,
                         y - 4, x + 16, y - 4, escape_xml(item.colour));
    out += fmt::format("<text class=\"legend\" x=\"{:.1f}\" y=\"{:.1f}\">{}</text>", x + 21, y, escape_xml(item.label));
    x += item_px;
  }
  return out;
}

}  // namespace

std::string escape_xml(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::vector<double> nice_ticks(double low, double high, int wanted) {
  if (!std::isfinite(low) || !std::isfinite(high) || high < low || wanted < 1) return {};
  if (high == low) return {low};
  const double raw = (high - low) / wanted;
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  const double fraction = raw / magnitude;
  const double step = (fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10) * magnitude;
  const double first = std::floor(low / step + 1e-9) * step;
  std::vector<double> ticks;
  for (int i = 0; i <= kMaxTicks; ++i) {
    const double t = first + i * step;
    ticks.push_back(t);
    if (t >= high - step * 1e-9) break;
  }
  return ticks;
}

std::string svg_line_plot(const PlotSpec& spec) {
  Bounds b = bounds_of(spec);
  const std::vector<LegendItem> items = legend_items(spec);
  const double width = std::max(spec.width_px, 200);
  const double plot_height = std::max(spec.height_px, 120);
  int rows = 0;
  const std::string legend_svg = legend(items, plot_height + 6, width, rows);
  const double height = plot_height + rows * kLegendRowPx + (rows > 0 ? 6 : 0);
  std::string out = fmt::format(
      "<svg class=\"plot\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {0:.0f} {1:.0f}\" width=\"{0:.0f}\" height=\"{1:.0f}\" "
      "role=\"img\" aria-label=\"{2}\"><title>{2}</title>"
      "<text class=\"title\" x=\"{3:.1f}\" y=\"18\">{2}</text>",
      width, height, escape_xml(spec.title), kLeftPx);
  if (!b.any) {
    out += fmt::format("<text class=\"nodata\" x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">no data</text></svg>", width / 2,
                       plot_height / 2);
    return out;
  }
  b.y_low = std::min(b.y_low, 0.0);  // the figures plotted are magnitudes: their axis starts at zero
  if (std::isfinite(spec.x_cover_low)) b.x_low = std::min(b.x_low, spec.x_cover_low);
  if (std::isfinite(spec.x_cover_high)) b.x_high = std::max(b.x_high, spec.x_cover_high);
  if (b.y_high == b.y_low) b.y_high = b.y_low + 1;
  if (b.x_high == b.x_low) b.x_high = b.x_low + 1;
  const std::vector<double> y_ticks = nice_ticks(b.y_low, b.y_high, 5);
  // y spans whole ticks; x spans the points exactly (time runs to the run's end, not a round one).
  std::vector<double> x_ticks = nice_ticks(b.x_low, b.x_high, 6);
  const double x_slack = (b.x_high - b.x_low) * 1e-9;
  std::erase_if(x_ticks, [&](double x) { return x < b.x_low - x_slack || x > b.x_high + x_slack; });
  const Frame f{kLeftPx, kTopPx, width - kLeftPx - kRightPx, plot_height - kTopPx - kBottomPx,
                b.x_low, b.x_high, y_ticks.front(), y_ticks.back()};
  out += axes(f, spec, x_ticks, y_ticks);
  for (const PlotBand& band : spec.bands) {
    const std::string points = band_polygon(f, band);
    if (!points.empty())
      out += fmt::format("<polygon class=\"band\" points=\"{}\" fill=\"{}\" fill-opacity=\"0.22\" stroke=\"none\"/>", points,
                         escape_xml(band.colour));
  }
  for (std::size_t i = 0; i < spec.lines.size() && i < kMaxPlotLines; ++i) {
    const PlotLine& line = spec.lines[i];
    const std::string points = polyline_points(f, line.points);
    if (points.empty()) continue;
    out += fmt::format(
        "<polyline class=\"line\" points=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"{:.2f}\" stroke-opacity=\"{:.2f}\" "
        "stroke-linejoin=\"round\"/>",
        points, escape_xml(line.colour), line.width_px, line.opacity);
  }
  out += legend_svg;
  out += "</svg>";
  return out;
}

}  // namespace tickwire::cli

// Building the demo's HTML page (demo_html.h): the heading and the table from the report's rows
// (the text report's own), then the plots, one per client figure and one for the server's ticks.
#include "demo_html.h"

#include <array>
#include <vector>

#include <fmt/format.h>

#include "demo_report.h"
#include "svg_plot.h"

namespace tickwire::cli {
namespace {

constexpr std::array<const char*, kMaxLegendClients> kPalette = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728",
                                                                 "#9467bd", "#8c564b", "#e377c2", "#17becf"};
constexpr const char* kCrowdColour = "#7f8c99";
constexpr const char* kMedianColour = "#0b3d91";

struct ClientPlot {
  ClientFigure figure;
  const char* title;
  const char* unit;
};

constexpr ClientPlot kClientPlots[] = {
    {ClientFigure::down_kbps, "Bandwidth down per client", "kbit/s"},
    {ClientFigure::up_kbps, "Bandwidth up per client", "kbit/s"},
    {ClientFigure::depth_ticks, "Input-queue depth per client (the server's depth byte, smoothed)", "ticks"},
    {ClientFigure::rtt_ms, "RTT per client", "ms"},
    {ClientFigure::corrections_per_s, "Prediction corrections per client", "/s"},
    {ClientFigure::held_frames_per_s, "Held frames per client (interpolation past the newest snapshot)", "/s"},
};

std::vector<PlotPoint> plot_points(const CappedSeries& series) {
  std::vector<PlotPoint> out;
  out.reserve(series.points().size());
  for (const SeriesPoint& p : series.points()) out.push_back({p.t_s, p.value});
  return out;
}

// Every plot spans the run, from its start to the last line taken.
PlotSpec run_span(const DemoSeries& series) {
  PlotSpec spec;
  spec.x_cover_low = 0;
  spec.x_cover_high = series.last_t_s();
  return spec;
}

std::string client_plot(const ClientPlot& what, const DemoSeries& series) {
  PlotSpec spec = run_span(series);
  spec.title = what.title;
  spec.y_unit = what.unit;
  const auto& clients = series.clients();
  const bool crowd = clients.size() > kMaxLegendClients;
  for (std::size_t i = 0; i < clients.size(); ++i) {
    PlotLine line;
    line.points = plot_points(clients[i].figure(what.figure));
    if (crowd) {
      line.colour = kCrowdColour;
      line.width_px = 0.8;
      line.opacity = 0.45;
    } else {
      line.label = fmt::format("client {}", clients[i].id);
      line.colour = kPalette[i];
    }
    spec.lines.push_back(std::move(line));
  }
  if (crowd) {
    const FigureBand& band = series.band(what.figure);
    spec.bands.push_back({fmt::format("min-max of {} clients", clients.size()), kMedianColour, plot_points(band.low),
                          plot_points(band.high)});
    spec.lines.push_back({"median", kMedianColour, 2.2, 1.0, plot_points(band.median)});
    spec.lines.push_back({"each client", kCrowdColour, 0.8, 0.8, {}});  // a legend entry only
  }
  return svg_line_plot(spec);
}

std::string server_plot(const DemoSeries& series) {
  PlotSpec spec = run_span(series);
  spec.title = "Server tick cost per stats interval";
  spec.y_unit = "us";
  spec.lines.push_back({"p50", kPalette[0], 1.8, 1.0, plot_points(series.tick_cost_p50_us())});
  spec.lines.push_back({"p99", kPalette[3], 1.8, 1.0, plot_points(series.tick_cost_p99_us())});
  return svg_line_plot(spec);
}

constexpr const char* kStyle = R"(
body{font-family:sans-serif;margin:24px;color:#1d2330;background:#fff}
h1{font-size:20px;margin:0 0 4px}
p.sub{margin:0 0 16px;color:#555;font-size:13px}
table.report{border-collapse:collapse;font-size:13px;margin-bottom:20px}
table.report th,table.report td{border-bottom:1px solid #e3e6ea;padding:4px 10px;text-align:left;vertical-align:top}
table.report th{font-weight:600;white-space:nowrap;color:#333}
table.report td{font-family:monospace}
div.plots{display:flex;flex-wrap:wrap;gap:14px}
figure{margin:0;border:1px solid #e3e6ea;border-radius:4px;padding:4px;background:#fcfcfd}
svg.plot text{font-family:sans-serif;fill:#333}
svg.plot text.title{font-size:13px;font-weight:600}
svg.plot text.tick,svg.plot text.legend{font-size:11px}
svg.plot text.nodata{font-size:14px;fill:#999}
svg.plot line.grid{stroke:#e6e8eb;stroke-width:1}
svg.plot rect.frame{stroke:#9aa3ad;stroke-width:1}
p.note{font-size:12px;color:#666;max-width:70em}
)";

}  // namespace

std::string demo_html_page(const nlohmann::json& report, const DemoSeries& series) {
  const std::string title = demo_report_title(report);
  std::string out = fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">"
      "<title>{0}</title><style>{1}</style></head>\n<body>\n<h1>{0}</h1>\n"
      "<p class=\"sub\">Figures of the whole run (the text report's), then each figure over time, one point per stats "
      "interval.</p>\n<table class=\"report\">\n",
      escape_xml(title), kStyle);
  for (const DemoReportRow& row : demo_report_rows(report))
    out += fmt::format("<tr><th>{}</th><td>{}</td></tr>\n", escape_xml(row.name), escape_xml(row.value));
  out += "</table>\n<div class=\"plots\">\n";
  for (const ClientPlot& plot : kClientPlots) out += "<figure>" + client_plot(plot, series) + "</figure>\n";
  out += "<figure>" + server_plot(series) + "</figure>\n</div>\n";
  out += fmt::format(
      "<p class=\"note\">Rates are each interval's increase of a client's counters over its length. With more than {} "
      "clients each is a thin grey line, the band spans the lowest and highest client at each interval and the bold line "
      "is their median. Past {} points a series averages neighbours, so a long run keeps its whole span.</p>\n"
      "</body></html>\n",
      kMaxLegendClients, CappedSeries::kMaxPoints);
  return out;
}

}  // namespace tickwire::cli

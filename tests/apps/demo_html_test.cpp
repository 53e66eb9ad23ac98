// The demo's HTML page (apps/tickwire/demo_html.h): self-contained (no script, nothing fetched, a
// policy that forbids both), the text report's rows as its table, a plot per figure, each client
// in its own colour up to the legend's cap and a median with a min-max band past it, every text
// escaped, and a run without series still a whole page.
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "page_text.h"
#include "../../apps/tickwire/demo_html.h"
#include "../../apps/tickwire/demo_report.h"

namespace tickwire::cli {
namespace {

using test::count_of;

nlohmann::json sample_report(const std::string& map = "(built-in reference map)") {
  const nlohmann::json server = {{"hz", 60.0}, {"ticks", 300}, {"tick_cost_us", {{"p50", 400.0}, {"p99", 900.0}}}};
  const nlohmann::json clients = {{{"welcomed", true}, {"up_bps", 20000.0}, {"down_bps", 50000.0}, {"rtt_ms", 16.0}}};
  return build_demo_report(DemoRunInfo{"lan", 1, 5.0, map, "snapshot", ""}, server, clients);
}

DemoSeries series_of(int clients, int intervals) {
  DemoSeries s;
  for (int i = 1; i <= intervals; ++i) {
    nlohmann::json rows = nlohmann::json::array();
    for (int c = 0; c < clients; ++c) rows.push_back({1000 + c, 2000 * i, 6000 * i, 15.0 + c, 2.0, i, 0});
    s.take({{"type", "bots_series"},
            {"t", 1.0 * i},
            {"fields", {"id", "bytes_up", "bytes_down", "rtt_ms", "depth_ticks", "corrections", "held_frames"}},
            {"clients", rows}});
    s.take({{"type", "server"}, {"t", 1.0 * i}, {"hz", 60.0}, {"tick_cost_interval_us", {{"p50", 300.0}, {"p99", 800.0}}}});
  }
  return s;
}

TEST(DemoHtml, ASelfContainedPageWithTheReportsTableAndAPlotPerFigure) {
  const nlohmann::json report = sample_report();
  const std::string page = demo_html_page(report, series_of(4, 5));
  EXPECT_EQ(page.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_EQ(page.find("<script"), std::string::npos);
  EXPECT_EQ(page.find("src="), std::string::npos);
  EXPECT_EQ(page.find("<link"), std::string::npos);
  EXPECT_NE(page.find("default-src 'none'"), std::string::npos);
  for (const DemoReportRow& row : demo_report_rows(report)) EXPECT_NE(page.find("<th>" + row.name + "</th>"), std::string::npos) << row.name;
  EXPECT_NE(page.find(demo_report_title(report)), std::string::npos);
  EXPECT_EQ(count_of(page, "<svg class=\"plot\""), 7u);
  EXPECT_EQ(count_of(page, "<polyline"), 6u * 4 + 2) << "a line per client per figure, p50 and p99 of the server";
  EXPECT_NE(page.find(">client 1003</text>"), std::string::npos);
  EXPECT_EQ(page.find("<polygon"), std::string::npos) << "few clients: no band";
}

TEST(DemoHtml, ManyClientsAreThinLinesUnderAMedianAndABand) {
  const std::string page = demo_html_page(sample_report(), series_of(32, 4));
  EXPECT_EQ(count_of(page, "<polygon"), 6u);
  EXPECT_EQ(count_of(page, ">median</text>"), 6u);
  EXPECT_NE(page.find(">min-max of 32 clients</text>"), std::string::npos);
  EXPECT_EQ(page.find(">client 1000</text>"), std::string::npos) << "no legend entry per client past the cap";
  EXPECT_EQ(count_of(page, "<polyline"), 6u * (32 + 1) + 2);
}

TEST(DemoHtml, TextFromTheRunIsEscaped) {
  const std::string page = demo_html_page(sample_report("maps/<b>&\"odd\".map"), series_of(1, 2));
  EXPECT_EQ(page.find("<b>"), std::string::npos);
  EXPECT_NE(page.find("maps/&lt;b&gt;&amp;&quot;odd&quot;.map"), std::string::npos);
}

TEST(DemoHtml, ARunWithoutSeriesIsStillAWholePage) {
  const std::string page = demo_html_page(sample_report(), DemoSeries{});
  EXPECT_EQ(count_of(page, "<svg class=\"plot\""), 7u);
  EXPECT_EQ(count_of(page, "no data"), 7u);
  EXPECT_NE(page.find("</html>"), std::string::npos);
}

}  // namespace
}  // namespace tickwire::cli

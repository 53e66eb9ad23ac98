// The demo's report: the figures of one run, gathered from the server's and the bots' JSON lines,
// printed as a table for people and written as JSON for machines.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace tickwire::cli {

struct DemoRunInfo {
  std::string profile;
  int bots = 0;
  double seconds = 0;
  std::string map;
  std::string mode = "snapshot";  // the room's runtime mode (server-time: the bots' logic_hz)
  std::string logic_hz;
};

// Builds the report from the last server line (`server_final`) and the bots' final line(s).
nlohmann::json build_demo_report(const DemoRunInfo& info, const nlohmann::json& server_final,
                                 const nlohmann::json& bot_clients);
// The report's heading ("tickwire demo: 4 bots, 5 s, ...") and its figures, a row each: what the
// text table prints and the HTML report's table shows.
struct DemoReportRow {
  std::string name;
  std::string value;
};
std::string demo_report_title(const nlohmann::json& report);
std::vector<DemoReportRow> demo_report_rows(const nlohmann::json& report);
// The report as an aligned table with a line per figure.
std::string format_demo_report(const nlohmann::json& report);

}  // namespace tickwire::cli

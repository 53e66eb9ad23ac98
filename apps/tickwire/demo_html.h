// The demo's report as one self-contained HTML page (`tickwire demo --html FILE`): the text
// report's table and a plot per figure over time, inline SVG and CSS, no script, nothing fetched
// (its content security policy forbids it), so the file can be mailed, archived or opened offline.
#pragma once

#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

#include "demo_series.h"

namespace tickwire::cli {

// Up to this many clients a plot draws each in its own colour with a legend entry; past it, each
// client is a thin grey line under the median and the min-max band (32 colours cannot be told
// apart, while the band shows the spread and a thin line the client that strays from it).
inline constexpr std::size_t kMaxLegendClients = 8;

// The page: `report` is build_demo_report's JSON, `series` what the run's lines gathered.
std::string demo_html_page(const nlohmann::json& report, const DemoSeries& series);

}  // namespace tickwire::cli

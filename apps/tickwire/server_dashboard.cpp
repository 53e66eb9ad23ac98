// The server command's dashboard (server_dashboard.h).
#include "server_dashboard.h"

#include <chrono>

#include "tickwire/clock/system_clock.h"
#include "tickwire/dashboard/inspection_view.h"
#include "tickwire/server/room_server.h"

namespace tickwire::cli {

ServerDashboard::ServerDashboard(std::unique_ptr<dashboard::Dashboard> d, const GameVocabulary& vocabulary,
                                 uint32_t tick_hz)
    : dashboard_(std::move(d)), vocabulary_(vocabulary), view_(vocabulary), tick_hz_(tick_hz) {}

std::unique_ptr<ServerDashboard> ServerDashboard::open(const std::string& listen, const Server& server, const world::Map& map,
                                                       std::vector<fleet::HttpRoute> ops_routes, std::string& error) {
  dashboard::DashboardConfig config;
  config.http.listen = listen;
  config.layout_json = map_layout_json(map, server.contract().interest.radius_m);
  dashboard::DashboardOpen opened = dashboard::Dashboard::open(config, std::move(ops_routes));
  if (!opened) {
    error = "--http " + opened.error;
    return nullptr;
  }
  return std::unique_ptr<ServerDashboard>(
      new ServerDashboard(std::move(opened.dashboard), server.contract().vocabulary, server.contract().cadence.tick_rate_hz));
}

dashboard::LoopFigures ServerDashboard::loop_figures(const SampleStats& interval_cost_us) const {
  dashboard::LoopFigures f;
  f.tick_hz = tick_hz_;
  f.tick_cost_ms_p50 = interval_cost_us.percentile(0.5) / 1000;
  f.tick_cost_ms_p99 = interval_cost_us.percentile(0.99) / 1000;
  return f;
}

// `interval_cost_us`: the ticks' costs since the command's last stats line (what it prints).
void ServerDashboard::follow(Server& server, MonoTime now, const SampleStats& interval_cost_us) {
  if (!dashboard_->due(now)) return;
  const auto began = std::chrono::steady_clock::now();
  if (dashboard_->pages_open() != 0) {
    const double t = dashboard_->elapsed_s(now);
    const ServerStats stats = server.stats();
    dashboard_->publish_room(view_.render(stats.last_tick, t, server.room_server().tick_records(), stats,
                                          graph_.sample(t, server.clients()), loop_figures(interval_cost_us)));
  }
  inspect(server, now);
  publish_us_total_ += std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - began).count();
}

// The inspected client: its log switched on (and the previous one's off); from the next publish on
// (ticks ran between: a snapshot was built with the log on), its inspection is published.
void ServerDashboard::inspect(Server& server, MonoTime now) {
  const OwnerId wanted = dashboard_->inspecting(now);
  if (wanted != inspected_) {
    if (inspected_ != 0) server.inspect_snapshots(inspected_, false);
    if (wanted != 0) server.inspect_snapshots(wanted, true);
    inspected_ = wanted;
    return;
  }
  if (inspected_ == 0 || !dashboard_->inspection_wanted()) return;
  if (const auto inspection = server.snapshot_inspection(inspected_)) {
    dashboard_->publish_inspection(dashboard::render_inspection(*inspection, vocabulary_));
  }
}

}  // namespace tickwire::cli

// The server command's dashboard (server_dashboard.h).
#include "server_dashboard.h"

#include <algorithm>
#include <charconv>
#include <chrono>

#include <nlohmann/json.hpp>

#include "tickwire/clock/system_clock.h"
#include "tickwire/dashboard/inspection_view.h"
#include "tickwire/server/room_server.h"

namespace tickwire::cli {

std::string http_listen_address(const std::string& flag) {
  const auto port_ok = [](std::string_view text) {
    unsigned port = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), port);
    return !text.empty() && ec == std::errc() && end == text.data() + text.size() && port <= 65535;
  };
  if (port_ok(flag)) return "127.0.0.1:" + flag;
  const std::size_t colon = flag.rfind(':');
  if (colon == std::string::npos || colon == 0 || !port_ok(std::string_view(flag).substr(colon + 1))) return {};
  return flag;
}

std::string map_layout_json(const world::Map& map, double interest_radius_m) {
  float minx = 0, minz = 0, maxx = 0, maxz = 0;
  bool any = false;
  const auto grow = [&](float x0, float z0, float x1, float z1) {
    minx = any ? std::min(minx, x0) : x0;
    minz = any ? std::min(minz, z0) : z0;
    maxx = any ? std::max(maxx, x1) : x1;
    maxz = any ? std::max(maxz, z1) : z1;
    any = true;
  };
  nlohmann::json boxes = nlohmann::json::array();
  for (const world::Aabb& b : map.boxes()) {
    boxes.push_back({b.min.x, b.min.z, b.max.x, b.max.z});
    grow(b.min.x, b.min.z, b.max.x, b.max.z);
  }
  nlohmann::json objects = nlohmann::json::array();
  uint32_t index = 0;
  for (const world::MapObject& o : map.objects()) {
    objects.push_back({{"index", index++}, {"key", o.key}, {"kind", o.kind}, {"x", o.position.x}, {"z", o.position.z}});
    grow(o.position.x, o.position.z, o.position.x, o.position.z);
  }
  return nlohmann::json({{"name", map.name()},
                         {"bounds", {minx, minz, maxx, maxz}},
                         {"boxes", std::move(boxes)},
                         {"objects", std::move(objects)},
                         {"interest_radius_m", interest_radius_m}})
      .dump();
}

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

dashboard::LoopFigures ServerDashboard::loop_figures() const {
  dashboard::LoopFigures f;
  f.tick_hz = tick_hz_;
  const std::size_t n = std::min(costs_, costs_ms_.size());
  if (n == 0) return f;
  std::array<float, 120> sorted = costs_ms_;
  std::sort(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(n));
  f.tick_cost_ms_p50 = sorted[n / 2];
  f.tick_cost_ms_p99 = sorted[std::min(n - 1, n * 99 / 100)];
  return f;
}

void ServerDashboard::follow(Server& server, MonoTime now, double tick_cost_ms) {
  costs_ms_[costs_++ % costs_ms_.size()] = static_cast<float>(tick_cost_ms);
  if (!born_set_) {
    born_ = now;
    born_set_ = true;
  }
  if (!dashboard_->due(now)) return;
  const auto began = std::chrono::steady_clock::now();
  if (dashboard_->pages_open() != 0) {
    const double t = (now - born_).seconds_f();
    const ServerStats stats = server.stats();
    dashboard_->publish_room(view_.render(stats.last_tick, t, server.room_server().tick_records(), stats,
                                          graph_.sample(t, server.clients()), loop_figures()));
  }
  inspect(server, now);
  publish_us_total_ += std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - began).count();
}

// The inspected client: its log switched on (and the previous one's off); from the next publish on
// (ticks ran between: a snapshot was built with the log on), its inspection is published.
void ServerDashboard::inspect(Server& server, MonoTime now) {
  const uint8_t wanted = dashboard_->inspecting(now);
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

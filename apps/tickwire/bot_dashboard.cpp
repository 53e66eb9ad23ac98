// The bot command's dashboard (bot_dashboard.h).
#include "bot_dashboard.h"

#include <chrono>

#include "dashboard_inputs.h"
#include "tickwire/world/reference_vocabulary.h"

namespace tickwire::cli {

BotDashboard::BotDashboard(std::unique_ptr<dashboard::Dashboard> d)
    : dashboard_(std::move(d)), view_(world::reference_vocabulary()) {}

std::unique_ptr<BotDashboard> BotDashboard::open(const std::string& listen, const world::Map& map, std::string& error) {
  dashboard::DashboardConfig config;
  config.http.listen = listen;
  config.layout_json = map_layout_json(map, 0);  // the room's interest radius is not the bots' view
  config.page = dashboard::bot_dashboard_page();
  config.inspector = false;
  dashboard::DashboardOpen opened = dashboard::Dashboard::open(config);
  if (!opened) {
    error = "--http " + opened.error;
    return nullptr;
  }
  return std::unique_ptr<BotDashboard>(new BotDashboard(std::move(opened.dashboard)));
}

void BotDashboard::follow(const std::vector<std::unique_ptr<Bot>>& bots, uint64_t first_client_id, MonoTime now) {
  if (!dashboard_->due(now)) return;
  const auto began = std::chrono::steady_clock::now();
  std::size_t seated = 0;
  for (std::size_t i = 0; i < bots.size(); ++i) {
    if (!bots[i]->client) continue;  // a --match bot waiting for its seat
    if (looks_.size() <= seated) looks_.emplace_back();
    dashboard::look_at(*bots[i]->client, first_client_id + i, looks_[seated++]);
  }
  dashboard_->publish_room(view_.render(dashboard_->elapsed_s(now), std::span(looks_.data(), seated)));
  publish_us_total_ += std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - began).count();
}

nlohmann::json BotDashboard::figures() const {
  return {{"pages", dashboard_->pages_open()}, {"lines", dashboard_->lines_published()}, {"publish_ms_total", publish_us_total_ / 1000}};
}

}  // namespace tickwire::cli

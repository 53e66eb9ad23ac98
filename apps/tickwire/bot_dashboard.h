// `tickwire bot --http [HOST:]PORT`: the bots' dashboard. Each bot's client as it sees the room:
// its predicted pawn against the server's answer, its interpolated remotes against the newest
// snapshot, its clock regulator, its held frames and snaps (dashboard/client_view.h), published from
// the bot loop at 10 Hz while a page is open; the map's static scene once, under the top-down view.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bot.h"
#include "tickwire/dashboard/client_view.h"
#include "tickwire/dashboard/dashboard.h"
#include "tickwire/world/map.h"

namespace tickwire::cli {

class BotDashboard {
 public:
  // `listen` as http_listen_address gives it; null with `error` set when it cannot listen.
  static std::unique_ptr<BotDashboard> open(const std::string& listen, const world::Map& map, std::string& error);

  // Once per loop iteration, after the bots' frames: a line when a page is open and one is due.
  void follow(const std::vector<std::unique_ptr<Bot>>& bots, uint64_t first_client_id, MonoTime now);
  std::string address() const { return dashboard_->endpoint().bound_address().to_string(); }
  // {"pages","lines","publish_ms_total"}: what the final line reports of it.
  nlohmann::json figures() const;

 private:
  explicit BotDashboard(std::unique_ptr<dashboard::Dashboard> d);

  std::unique_ptr<dashboard::Dashboard> dashboard_;
  dashboard::ClientView view_;
  std::vector<dashboard::ClientLook> looks_;  // one per seated bot, reused
  double publish_us_total_ = 0;
};

}  // namespace tickwire::cli

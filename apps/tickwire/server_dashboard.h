// `tickwire server --http [HOST:]PORT`: the live dashboard for the reference game's room. It gives
// the dashboard (dashboard/dashboard.h) the map's static scene once (its boxes and its objects'
// keys, kinds and places, for the top-down view), and from the loop, while a page is open, the
// room's newest records, the clients' net graph and the tick cost; and it switches the snapshot
// inspector's record log on for the one client a page inspects. /healthz, /readyz and /metrics
// are served beside it (the operator's board).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "dashboard_inputs.h"
#include "sample_stats.h"
#include "tickwire/dashboard/dashboard.h"
#include "tickwire/dashboard/net_graph.h"
#include "tickwire/dashboard/room_view.h"
#include "tickwire/server.h"
#include "tickwire/world/map.h"

namespace tickwire::cli {

class ServerDashboard {
 public:
  static std::unique_ptr<ServerDashboard> open(const std::string& listen, const Server& server, const world::Map& map,
                                               std::vector<fleet::HttpRoute> ops_routes, std::string& error);

  // Once per loop iteration, after the update: `interval_cost_us`, the ticks' costs since the
  // command's last stats line, gives the page its tick cost p50 and p99.
  void follow(Server& server, MonoTime now, const SampleStats& interval_cost_us);
  std::string address() const { return dashboard_->endpoint().bound_address().to_string(); }
  uint32_t pages_open() const { return dashboard_->pages_open(); }
  uint64_t lines_published() const { return dashboard_->lines_published(); }
  double publish_us_total() const { return publish_us_total_; }

 private:
  ServerDashboard(std::unique_ptr<dashboard::Dashboard> d, const GameVocabulary& vocabulary, uint32_t tick_hz);
  void inspect(Server& server, MonoTime now);
  dashboard::LoopFigures loop_figures(const SampleStats& interval_cost_us) const;

  std::unique_ptr<dashboard::Dashboard> dashboard_;
  GameVocabulary vocabulary_;
  dashboard::RoomView view_;
  dashboard::NetGraph graph_;
  uint32_t tick_hz_;
  OwnerId inspected_ = 0;  // the client whose records are logged (0: none)
  double publish_us_total_ = 0;
};

}  // namespace tickwire::cli

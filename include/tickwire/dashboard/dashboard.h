// The live dashboard a server serves over HTTP (tickwire server --http): one page (embedded in the
// binary, no external asset), the room as a server-sent-event stream the loop publishes to at
// publish_hz while a page is open, the game's static scene, and the snapshot inspector. The loop
// never blocks on it: a publish swaps a shared pointer, an unwatched dashboard costs one atomic
// load per tick (due()), and every request is answered on the HTTP threads from published copies.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "tickwire/clock/time.h"
#include "tickwire/core/owner_id.h"
#include "tickwire/fleet/event_stream.h"
#include "tickwire/fleet/http_endpoint.h"

namespace tickwire::dashboard {

// The dashboard page (dashboard/page/dashboard.html, embedded at build time).
std::string_view dashboard_page();
// The bots' page (dashboard/page/bot_dashboard.html): each client's prediction, interpolation and
// clock (tickwire bot --http, dashboard/client_view.h).
std::string_view bot_dashboard_page();
// The pages' shared look (dashboard/page/theme.css), and a page with it put in place of the
// kThemeMarker comment in its style element (what / serves).
std::string_view dashboard_theme();
inline constexpr std::string_view kThemeMarker = "/* tickwire-theme */";
std::string with_theme(std::string_view page);

// One address holds at most half the connection slots unless told otherwise (http's own cap).
inline constexpr uint32_t kDashboardSlotsPerAddressDivisor = 2;

struct DashboardConfig {
  fleet::HttpEndpointConfig http;  // listen: loopback unless told otherwise
  double publish_hz = 10;          // room lines per second while a page is open
  uint32_t max_pages = 8;          // room streams open at once; more are answered 503
  std::string layout_json = "{}";  // the game's static scene (map boxes, objects), served at /api/layout
  std::string_view page;           // served at / (empty: dashboard_page())
  bool inspector = true;           // serve /api/inspect (a server's snapshot inspector)
};

class Dashboard;
struct DashboardOpen {
  std::unique_ptr<Dashboard> dashboard;
  std::string error;
  explicit operator bool() const { return dashboard != nullptr; }
};

// How long a page's last inspector request keeps a client's records logged.
inline constexpr Duration kInspectorIdle = Duration::from_seconds(3.0);

class Dashboard {
 public:
  // Serves /, /events, /api/layout and (with config.inspector) /api/inspect?client=N beside
  // `extra` (e.g. /metrics, /healthz, /readyz), on one endpoint.
  static DashboardOpen open(const DashboardConfig& config, std::vector<fleet::HttpRoute> extra = {});
  ~Dashboard();

  // Loop side. True when a page is open and a line is due (then call publish_room).
  bool due(MonoTime now);
  // Seconds from the loop's first due() call to `now`: the lines' time axis.
  double elapsed_s(MonoTime now) const { return (now - first_look_).seconds_f(); }
  void publish_room(std::string line);
  // The client a page inspects now (0: none asked within kInspectorIdle).
  OwnerId inspecting(MonoTime now);
  // Whether a request waits for an inspection (publish one then).
  bool inspection_wanted() const { return inspection_.wanted(); }
  void publish_inspection(std::string json) { (void)inspection_.publish(std::move(json)); }

  const fleet::HttpEndpoint& endpoint() const { return *endpoint_; }
  uint32_t pages_open() const { return room_.readers(); }
  uint64_t lines_published() const { return room_.published(); }

 private:
  explicit Dashboard(const DashboardConfig& config);
  fleet::HttpResponse answer_inspect(const fleet::HttpQuery& query);

  const DashboardConfig config_;
  fleet::EventStream room_;
  fleet::EventStream inspection_{64};  // requests waiting for the loop's next inspection
  std::unique_ptr<fleet::HttpEndpoint> endpoint_;
  MonoTime next_publish_;
  MonoTime first_look_;
  bool looked_ = false;
  std::atomic<uint32_t> inspect_owner_{0};
  std::atomic<uint64_t> inspect_requests_{0};
  uint64_t requests_seen_ = 0;  // loop side
  MonoTime last_request_;
};

}  // namespace tickwire::dashboard

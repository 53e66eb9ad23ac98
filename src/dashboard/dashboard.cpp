// Dashboard (dashboard/dashboard.h): the routes over two EventStreams. The room stream is what the
// pages follow; the inspection stream is a rendezvous: an /api/inspect request names its client,
// then waits (bounded) for the loop's next inspection of that client.
#include "tickwire/dashboard/dashboard.h"

#include <algorithm>
#include <charconv>
#include <chrono>

#include <fmt/format.h>

namespace tickwire::dashboard {
namespace {

constexpr auto kInspectWait = std::chrono::milliseconds(1500);
constexpr const char* kJson = "application/json";

fleet::HttpResponse json_answer(unsigned status, std::string body) { return {status, kJson, std::move(body)}; }

// The endpoint's settings: a page on one address may not take every slot from the others.
fleet::HttpEndpointConfig http_of(const DashboardConfig& config) {
  fleet::HttpEndpointConfig http = config.http;
  if (http.max_connections_per_address == 0) {
    http.max_connections_per_address = std::max<uint32_t>(1, http.max_connections / kDashboardSlotsPerAddressDivisor);
  }
  return http;
}

}  // namespace

std::string with_theme(std::string_view page) {
  std::string out(page);
  if (const std::size_t at = out.find(kThemeMarker); at != std::string::npos) {
    out.replace(at, kThemeMarker.size(), dashboard_theme());
  }
  return out;
}

Dashboard::Dashboard(const DashboardConfig& config) : config_(config), room_(config.max_pages) {}

Dashboard::~Dashboard() {
  inspection_.release();  // a request waiting for the loop gives up now
  endpoint_.reset();      // its threads end before the streams they read
}

DashboardOpen Dashboard::open(const DashboardConfig& config, std::vector<fleet::HttpRoute> extra) {
  DashboardOpen result;
  if (!(config.publish_hz > 0 && config.publish_hz <= 60)) {
    result.error = fmt::format("publish rate {} Hz: from above 0 to 60", config.publish_hz);
    return result;
  }
  std::unique_ptr<Dashboard> d(new Dashboard(config));
  Dashboard* self = d.get();
  std::vector<fleet::HttpRoute> routes = std::move(extra);
  routes.push_back({"/", [page = with_theme(config.page.empty() ? dashboard_page() : config.page)](const fleet::HttpQuery&) {
                      return fleet::HttpResponse{200, "text/html; charset=utf-8", page};
                    }});
  routes.push_back({"/api/layout", [self](const fleet::HttpQuery&) { return json_answer(200, self->config_.layout_json); }});
  if (config.inspector) {
    routes.push_back({"/api/inspect", [self](const fleet::HttpQuery& q) { return self->answer_inspect(q); }});
  }
  fleet::HttpEndpointOpen opened =
      fleet::HttpEndpoint::open(http_of(config), std::move(routes), {fleet::HttpStreamRoute{"/events", &self->room_}});
  if (!opened) {
    result.error = std::move(opened.error);
    return result;
  }
  d->endpoint_ = std::move(opened.endpoint);
  result.dashboard = std::move(d);
  return result;
}

bool Dashboard::due(MonoTime now) {
  if (!looked_) {
    first_look_ = now;
    looked_ = true;
  }
  if (!room_.wanted() && !inspection_.wanted()) return false;
  if (now < next_publish_) return false;
  const Duration period = Duration::from_seconds(1.0 / config_.publish_hz);
  next_publish_ = now - next_publish_ > period ? now + period : next_publish_ + period;
  return true;
}

void Dashboard::publish_room(std::string line) { (void)room_.publish(std::move(line)); }

OwnerId Dashboard::inspecting(MonoTime now) {
  const uint64_t requests = inspect_requests_.load(std::memory_order_relaxed);
  if (requests != requests_seen_) {
    requests_seen_ = requests;
    last_request_ = now;
  }
  if (requests_seen_ == 0 || now - last_request_ > kInspectorIdle) return 0;
  return static_cast<OwnerId>(inspect_owner_.load(std::memory_order_relaxed));
}

// GET /api/inspect?client=N: the loop's next inspection of owner N (its JSON opens {"owner":N,).
fleet::HttpResponse Dashboard::answer_inspect(const fleet::HttpQuery& query) {
  const std::string* text = query.find("client");
  unsigned owner = 0;
  if (text == nullptr || std::from_chars(text->data(), text->data() + text->size(), owner).ptr != text->data() + text->size() ||
      owner < 1 || owner > kMaxClientOwner) {
    return json_answer(400, fmt::format("{{\"error\":\"client: an owner id from 1 to {}\"}}", kMaxClientOwner));
  }
  if (!inspection_.join()) return json_answer(503, "{\"error\":\"too many inspections waiting\"}");
  inspect_owner_.store(owner, std::memory_order_relaxed);
  inspect_requests_.fetch_add(1, std::memory_order_relaxed);
  const std::string prefix = fmt::format("{{\"owner\":{},", owner);
  uint64_t seen = inspection_.published();
  const auto found = inspection_.wait_newer(seen, kInspectWait, [&](const std::string& v) { return v.starts_with(prefix); });
  inspection_.leave();
  if (found == nullptr) return json_answer(404, "{\"error\":\"no snapshot of that client came in time (not connected?)\"}");
  return json_answer(200, *found);
}

}  // namespace tickwire::dashboard

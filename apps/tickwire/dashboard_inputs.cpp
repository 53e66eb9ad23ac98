// The dashboards' inputs (dashboard_inputs.h).
#include "dashboard_inputs.h"

#include <algorithm>
#include <charconv>
#include <string_view>

#include <nlohmann/json.hpp>

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

}  // namespace tickwire::cli

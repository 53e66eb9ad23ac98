// The room bench's map: a floor and a grid of spawn points (see room_bench_map.h).
#include "room_bench_map.h"

#include <cmath>

#include <fmt/format.h>

namespace tickwire::bench {

std::string room_bench_map_text(const RoomBenchMap& map) {
  const auto side = static_cast<uint32_t>(std::ceil(std::sqrt(static_cast<double>(map.players))));
  const float half = 0.5f * static_cast<float>(side > 0 ? side - 1 : 0) * map.spacing_m;
  const float extent = half + map.margin_m;
  std::string spawns;
  for (uint32_t i = 0; i < map.players; ++i) {
    const float x = static_cast<float>(i % side) * map.spacing_m - half;
    const float z = static_cast<float>(i / side) * map.spacing_m - half;
    spawns += fmt::format(R"({}{{"position": [{:.2f}, 0, {:.2f}], "yaw_deg": {}}})", i == 0 ? "" : ", ", x, z,
                          (i * 37u) % 360u);
  }
  return fmt::format(
      R"({{"format": "tickwire-map", "version": 1, "name": "room bench {} players", "boxes": [{{"tag": "floor", )"
      R"("material": "concrete", "min": [{:.2f}, -1, {:.2f}], "max": [{:.2f}, 0, {:.2f}]}}], "spawns": [{}], "objects": []}})",
      map.players, -extent, -extent, extent, extent, spawns);
}

double players_per_km2(float spacing_m) { return 1e6 / (static_cast<double>(spacing_m) * spacing_m); }

}  // namespace tickwire::bench

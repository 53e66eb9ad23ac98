// The room bench's map: one flat floor and a square grid of spawn points, one per client, so the
// density (one player per spacing^2) is the same at every N and each client's neighbourhood is a
// realistic crowd rather than the whole room. The floor reaches far past the grid so wandering bots
// never walk off it during a run.
#pragma once

#include <cstdint>
#include <string>

namespace tickwire::bench {

struct RoomBenchMap {
  uint32_t players = 0;
  float spacing_m = 20.0f;  // between neighbouring spawn points
  float margin_m = 400.0f;  // floor beyond the grid on every side
};

// The map's JSON text (tickwire-map format 1): a floor box and `players` spawn points centred on the origin.
std::string room_bench_map_text(const RoomBenchMap& map);

// Players per square kilometre at this spacing.
double players_per_km2(float spacing_m);

}  // namespace tickwire::bench

// WaterPool: a map's water (an object carrying a `water` component): a basin whose surface rests at
// its top and is displaced by a travelling wave, the same on every end that loaded the map at the
// same world time. A shot meets water where the ray first goes below the displaced surface inside
// the basin (seed 000, "Hits": water is never a surface, only a crossing), so a ray can find the
// solid beyond it.
#pragma once

#include <optional>
#include <vector>

#include "tickwire/world/map.h"
#include "tickwire/world/ray_cast.h"

namespace tickwire::world {

inline constexpr uint32_t kMaxWaterMarchSteps = 4096;  // a ray's samples across one basin, at most

struct WaterPool {
  uint32_t object_index = 0;
  Aabb basin;                   // axis-aligned, centred on the object; its top is the surface at rest
  float wave_amplitude_m = 0;   // the surface's rise and fall about rest
  float wavelength_m = 4;
  float wave_period_s = 3;

  // The displaced surface height over (x, z) at world time `time_s`.
  float surface_height(float x, float z, double time_s) const;
  // The displaced surface's upward normal there.
  Vec3 surface_normal(float x, float z, double time_s) const;
  // Where the ray first enters the water from above within `max_m`: at the displaced surface
  // (within a millimetre), its normal the surface's. Nullopt when it never does (it passes over,
  // beside, or starts under the surface).
  std::optional<RayHit> entry(const Ray& ray, float max_m, double time_s) const;
};

// Every pool of the map (its objects carrying a `water` component), in object order.
std::vector<WaterPool> water_pools(const Map& map);

}  // namespace tickwire::world

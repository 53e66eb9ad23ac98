// The pool's surface: two crossed travelling waves, and a ray's entry into it found by marching the
// ray's height above the surface across the basin and bisecting the step where it turns negative.
#include "tickwire/world/water_pool.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "tickwire/world/logic_components.h"

namespace tickwire::world {

namespace {

constexpr double kTwoPi = 2.0 * std::numbers::pi;
constexpr int kBisections = 24;

// The wave's phase terms at (x, z, t): one wave along x, one along z, each travelling.
struct Phase {
  double along_x, along_z;
};
Phase phase_at(const WaterPool& pool, float x, float z, double time_s) {
  const double k = kTwoPi / pool.wavelength_m;
  const double w = kTwoPi / pool.wave_period_s;
  return {k * x - w * time_s, k * z - w * time_s};
}

}  // namespace

float WaterPool::surface_height(float x, float z, double time_s) const {
  const Phase p = phase_at(*this, x, z, time_s);
  return basin.max.y + static_cast<float>(0.5 * wave_amplitude_m * (std::sin(p.along_x) + std::sin(p.along_z)));
}

Vec3 WaterPool::surface_normal(float x, float z, double time_s) const {
  const Phase p = phase_at(*this, x, z, time_s);
  const double k = kTwoPi / wavelength_m;
  const auto slope_x = static_cast<float>(0.5 * wave_amplitude_m * k * std::cos(p.along_x));
  const auto slope_z = static_cast<float>(0.5 * wave_amplitude_m * k * std::cos(p.along_z));
  const Vec3 n{-slope_x, 1.0f, -slope_z};
  return n * (1.0f / n.length());
}

std::optional<RayHit> WaterPool::entry(const Ray& ray, float max_m, double time_s) const {
  // The slab the surface can be in: the basin's footprint, from its floor to the highest crest.
  Aabb reach = basin;
  reach.max.y += wave_amplitude_m;
  float from = 0;
  if (const auto in = ray_box(ray, reach, max_m)) from = in->distance_m;
  else if (!inside(reach, ray.origin)) return std::nullopt;
  // Where the ray leaves it: the same slab test from the far side.
  const Ray back{ray.at(max_m), ray.direction * -1.0f};
  float to = max_m;
  if (const auto out = ray_box(back, reach, max_m)) to = max_m - out->distance_m;
  const auto above = [&](float s) {
    const Vec3 p = ray.at(s);
    return p.y - surface_height(p.x, p.z, time_s);
  };
  if (above(from) < 0) return std::nullopt;  // it starts under the surface: a crossing out, not in
  const float step = std::max(wavelength_m / 16.0f, (to - from) / static_cast<float>(kMaxWaterMarchSteps));
  for (float s0 = from; s0 < to; s0 += step) {
    const float s1 = std::min(to, s0 + step);
    if (above(s1) >= 0) continue;
    float lo = s0, hi = s1;
    for (int i = 0; i < kBisections; ++i) {
      const float mid = 0.5f * (lo + hi);
      (above(mid) >= 0 ? lo : hi) = mid;
    }
    const Vec3 at = ray.at(hi);
    return RayHit{hi, surface_normal(at.x, at.z, time_s)};
  }
  return std::nullopt;
}

std::vector<WaterPool> water_pools(const Map& map) {
  std::vector<WaterPool> pools;
  const std::span<const MapObject> objects = map.objects();
  for (uint32_t index = 0; index < objects.size(); ++index) {
    const ObjectComponent* water = objects[index].component(water_spec().component);
    if (water == nullptr) continue;
    const std::array<float, kMaxSettingValues> half = setting_values(*water, "half_extents");
    const Vec3 h{half[0], half[1], half[2]};
    WaterPool& pool = pools.emplace_back();
    pool.object_index = index;
    pool.basin = {objects[index].position - h, objects[index].position + h};
    pool.wave_amplitude_m = setting_number(*water, "wave_amplitude_m");
    pool.wave_period_s = setting_number(*water, "wave_period_s");
    pool.wavelength_m = setting_number(*water, "wavelength_m");
  }
  return pools;
}

}  // namespace tickwire::world

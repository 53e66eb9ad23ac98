// The shot trace: the nearest solid over every kind of body, then the first water crossing short of it.
#include "tickwire/world/shot_trace.h"

#include <optional>

namespace tickwire::world {

namespace {

// The nearest solid so far, and what it is.
struct Nearest {
  float distance_m = 0;
  Vec3 normal;
  protocol::HitBody body = protocol::HitBody::none;
  uint32_t body_id = 0;
  std::string_view impact;

  void offer(const std::optional<RayHit>& hit, protocol::HitBody what, uint32_t id, std::string_view impact_set) {
    if (!hit || hit->distance_m >= distance_m) return;
    distance_m = hit->distance_m;
    normal = hit->normal;
    body = what;
    body_id = id;
    impact = impact_set;
  }
};

void offer_voxels(const Ray& ray, const VoxelColliders& voxels, Nearest& nearest) {
  voxels.for_each_cooked([&](const VoxelChunkKey& key, uint64_t, const Aabb& bounds, std::span<const Aabb> boxes) {
    if (!inside(bounds, ray.origin) && !ray_box(ray, bounds, nearest.distance_m)) return;  // the chunk is off the ray
    for (const Aabb& box : boxes)
      nearest.offer(ray_box(ray, box, nearest.distance_m), protocol::HitBody::object, key.volume, kImpactVoxel);
  });
}

protocol::HitEvent event_at(const Ray& ray, float distance_m, Vec3 normal, protocol::HitKind kind, uint32_t shot,
                            uint32_t shooter_id) {
  protocol::HitEvent e;
  e.shooter_id = shooter_id;
  e.shot = shot;
  e.kind = kind;
  e.point = ray.at(distance_m).to_wire();
  e.normal = normal.to_wire();
  return e;
}

}  // namespace

ShotOutcome trace_shot(const Ray& ray, float range_m, const ShotScene& scene, uint32_t shot) {
  Nearest nearest;
  nearest.distance_m = range_m;
  for (uint32_t i = 0; i < scene.map_boxes.size(); ++i) {
    const std::string_view material = i < scene.map_surfaces.size() ? std::string_view(scene.map_surfaces[i].material) : "";
    const bool named = !material.empty() && material.size() <= protocol::kMaxImpactNameBytes;
    nearest.offer(ray_box(ray, scene.map_boxes[i], nearest.distance_m), protocol::HitBody::map_box, i,
                  named ? material : kImpactDefault);
  }
  for (const ObjectTarget& o : scene.objects)
    nearest.offer(ray_box(ray, o.box, nearest.distance_m), protocol::HitBody::object, o.object_index, kImpactDefault);
  for (const RewoundBox& r : scene.rewound) {
    if (r.kind == RewoundBox::Kind::pawn && r.id == scene.shooter_id) continue;
    const bool pawn = r.kind == RewoundBox::Kind::pawn;
    nearest.offer(ray_box(ray, r.box, nearest.distance_m), pawn ? protocol::HitBody::pawn : protocol::HitBody::object,
                  r.id, pawn ? kImpactFlesh : kImpactDefault);
  }
  for (const PropTarget& p : scene.props)
    nearest.offer(ray_turned_box(ray, p.box, nearest.distance_m), protocol::HitBody::object, p.object_index, p.impact);
  if (scene.voxels != nullptr) offer_voxels(ray, *scene.voxels, nearest);

  ShotOutcome out;
  // The first water crossing short of the solid (or of the range).
  std::optional<RayHit> water;
  uint32_t water_index = 0;
  for (const WaterPool& pool : scene.pools) {
    const std::optional<RayHit> entry = pool.entry(ray, nearest.distance_m, scene.water_time_s);
    if (entry && (!water || entry->distance_m < water->distance_m)) {
      water = entry;
      water_index = pool.object_index;
    }
  }
  if (water) {
    protocol::HitEvent& e = out.events[out.count];
    e = event_at(ray, water->distance_m, water->normal, protocol::HitKind::water, shot, scene.shooter_id);
    e.body = protocol::HitBody::object;
    e.body_id = water_index;
    e.impact = std::string(kImpactWater);
    out.distances_m[out.count++] = water->distance_m;
  }
  if (nearest.body != protocol::HitBody::none) {
    protocol::HitEvent& e = out.events[out.count];
    e = event_at(ray, nearest.distance_m, nearest.normal, protocol::HitKind::surface, shot, scene.shooter_id);
    e.body = nearest.body;
    e.body_id = nearest.body_id;
    e.impact = std::string(nearest.impact);
    out.distances_m[out.count++] = nearest.distance_m;
  } else if (!water) {
    out.events[out.count] = event_at(ray, range_m, {}, protocol::HitKind::nothing, shot, scene.shooter_id);
    out.distances_m[out.count++] = range_m;
  }
  return out;
}

}  // namespace tickwire::world

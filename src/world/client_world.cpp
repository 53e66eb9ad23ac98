// A client's own props following its predicted pawn, one step per predicted tick, against the map's
// statics (under the room's edit set) and the voxel chunks the pawn's prediction streamed around it.
#include "tickwire/world/client_world.h"

#include <algorithm>

#include "tickwire/world/scene_overlay.h"
#include "tickwire/world/voxel_colliders.h"

namespace tickwire::world {

void ClientWorld::follow(const Predictor& predictor, double tick_s) {
  const uint64_t ticks = predictor.stats().predicted;
  const uint64_t due = std::min(ticks - std::min(followed_ticks_, ticks), kMaxPropStepsPerFollow);
  followed_ticks_ = ticks;
  if (props_.props().empty() || !predictor.started()) return;
  const PawnState pawn = pawn_from_predicted(predictor.predicted());
  const Aabb box = pawn_bounds(pawn, mover_.settings().radius_m);
  const std::optional<std::span<const Aabb>> statics = prop_statics(box);
  if (!statics) return;  // a floor they could reach is still in the queue: they wait for it
  for (uint64_t i = 0; i < due; ++i) props_.step(box, pawn.velocity_mps, *statics, static_cast<float>(tick_s));
}

// The map's statics, and on a map with voxel volumes the cooked voxel boxes within a step's reach of
// the pawn and every awake prop (a sleeping one moves only when the pawn shoves it, beside the
// pawn); nullopt while a chunk there is not cooked yet.
std::optional<std::span<const Aabb>> ClientWorld::prop_statics(const Aabb& pawn_box) {
  if (voxels_.empty()) return statics_;
  Aabb region = pawn_box;
  for (const ClientProp& p : props_.props()) {
    if (p.asleep) continue;
    const Aabb b = p.box();
    region = Aabb{{std::min(region.min.x, b.min.x), std::min(region.min.y, b.min.y), std::min(region.min.z, b.min.z)},
                  {std::max(region.max.x, b.max.x), std::max(region.max.y, b.max.y), std::max(region.max.z, b.max.z)}};
  }
  region = voxel_step_region(region);
  if (!voxels_.colliders().covers(region)) return std::nullopt;
  prop_statics_.assign(statics_.begin(), statics_.end());
  voxels_.append_boxes_near(region, prop_statics_);
  return std::span<const Aabb>(prop_statics_);
}

void ClientWorld::follow_scene(const protocol::SceneNodeState* state) {
  if (state == nullptr || state->revision == scene_revision_) return;
  scene_revision_ = state->revision;
  scene_solid_boxes(map_, solids_, state, scene_statics_);
  statics_ = scene_statics_;
  model_.set_static_boxes(scene_statics_);
}

}  // namespace tickwire::world

// The server's props: solver, wire poses, boxes, pushes and the fall-out respawn.
#include "tickwire/world/server_props.h"

#include <algorithm>
#include <limits>

namespace tickwire::world {

ServerProps::ServerProps(const ReplicaKinds& kinds, const PropPhysicsSettings& physics, const PropPushSettings& push)
    : kinds_(kinds), physics_settings_(physics), push_(push), physics_(physics) {}

void ServerProps::reset(const ObjectSolids& solids, std::span<const Aabb> statics) {
  physics_ = PropPhysics(physics_settings_);
  props_.assign(solids.props().begin(), solids.props().end());
  poses_.clear();
  boxes_.clear();
  poses_.resize(props_.size());
  boxes_.resize(props_.size());
  authored_on_wire_.clear();
  for (uint32_t slot = 0; slot < props_.size(); ++slot) authored_on_wire_.push_back(wire_pose(authored(slot), kinds_));
  for (uint32_t slot = 0; slot < props_.size(); ++slot) stand(slot, authored(slot));
  spawned_.assign(props_.size(), false);
  voxel_chunks_.clear();
  voxels_revision_.reset();
  voxel_floor_y_ = std::numeric_limits<float>::max();
  set_statics(statics);
}

void ServerProps::set_statics(std::span<const Aabb> statics) {
  physics_.set_statics(statics);
  floor_y_ = statics.empty() ? 0.0f : std::numeric_limits<float>::max();
  for (const Aabb& box : statics) floor_y_ = std::min(floor_y_, box.min.y);
}

void ServerProps::sync_voxels(const VoxelColliders& colliders) {
  if (voxels_revision_ == colliders.revision()) return;
  voxels_revision_ = colliders.revision();
  voxel_seen_.clear();
  colliders.for_each_cooked([&](const VoxelChunkKey& key, uint64_t stamp, const Aabb& bounds, std::span<const Aabb> boxes) {
    const uint64_t id = (uint64_t{key.volume} << 32) | key.chunk;
    voxel_seen_.push_back(id);
    auto [it, fresh] = voxel_chunks_.try_emplace(id, stamp);
    if (!fresh && it->second == stamp) return;
    it->second = stamp;
    physics_.set_chunk(id, bounds, boxes);
    for (const Aabb& box : boxes) voxel_floor_y_ = std::min(voxel_floor_y_, box.min.y);
  });
  std::sort(voxel_seen_.begin(), voxel_seen_.end());
  for (auto it = voxel_chunks_.begin(); it != voxel_chunks_.end();) {
    if (std::binary_search(voxel_seen_.begin(), voxel_seen_.end(), it->first)) {
      ++it;
      continue;
    }
    physics_.drop_chunk(it->first);
    it = voxel_chunks_.erase(it);
  }
}

PropPose ServerProps::authored(uint32_t slot) const { return PropPose{props_[slot].position, props_[slot].rotation}; }

void ServerProps::stand(uint32_t slot, const PropPose& pose) {
  poses_[slot] = pose;
  boxes_[slot] = prop_box(props_[slot], pose.position, pose.rotation);
}

void ServerProps::spawn(uint32_t slot) {
  if (spawned(slot)) return;
  stand(slot, authored(slot));
  physics_.add(slot, props_[slot], poses_[slot], props_[slot].asleep);
  spawned_[slot] = true;
}

void ServerProps::despawn(uint32_t slot) {
  if (!spawned(slot)) return;
  physics_.remove(slot);
  spawned_[slot] = false;
}

bool ServerProps::moved(uint32_t slot) const { return !(poses_[slot] == authored(slot)); }

void ServerProps::push_from(const Aabb& pawn_box, const Vec3& wish_mps) {
  if (wish_mps.x == 0 && wish_mps.z == 0) return;
  const Vec3 reach{push_.reach_m, 0, push_.reach_m};
  const Aabb within_reach{pawn_box.min - reach, pawn_box.max + reach};
  for (uint32_t slot = 0; slot < props_.size(); ++slot) {
    // Within reach of the turned box itself (not only the box enclosing it), then the push rule.
    if (!spawned_[slot] || !overlaps(within_reach, boxes_[slot])) continue;
    const std::optional<Vec3> direction = push_direction(pawn_box, wish_mps, boxes_[slot].bounds(), push_);
    if (!direction) continue;
    const Vec3 impulse = push_impulse(physics_.velocity(slot), props_[slot].mass_kg, wish_mps, *direction, push_);
    if (impulse == Vec3{}) continue;
    physics_.push(slot, impulse);
    ++counts_.pushes;
  }
}

void ServerProps::step(std::span<const MovingBox> movers, std::span<const Aabb> pawns, float dt_s) {
  // A map without props has nothing for the solver to move: the pawns and movers are kinematic in
  // it only to push props (a thousand pawns' boxes cost a room of them about 3% of its tick).
  if (props_.empty()) return;
  kinematics_.assign(movers.begin(), movers.end());
  for (const Aabb& pawn : pawns) kinematics_.push_back(MovingBox{pawn, {}});
  physics_.set_kinematics(kinematics_, dt_s);
  physics_.step(dt_s);
  for (uint32_t slot = 0; slot < props_.size(); ++slot) {
    if (!spawned_[slot] || physics_.asleep(slot)) continue;  // asleep: exactly where it was
    PropPose pose = wire_pose(physics_.pose(slot), kinds_);
    if (pose.position.y < std::min(floor_y_, voxel_floor_y_) - kPropFallLimitM) {
      pose = authored(slot);
      physics_.place(slot, pose, /*at_rest=*/true);
      ++counts_.respawns;
    } else if (swings_into_pawn(slot, pose, pawns)) {
      pose = poses_[slot];  // a crate stops at a player: where it stood, still
      physics_.place(slot, pose, /*at_rest=*/true);
      ++counts_.stopped_at_pawn;
    }  // else the solver goes on from its own pose: rounding it back in would jostle a pile awake
    // Still where the map puts it, to the wire's precision: it stands exactly there, as every client
    // (which hears no pose for it) stands it, and it has not moved.
    if (pose == authored_on_wire_[slot]) pose = authored(slot);
    stand(slot, pose);
  }
}

// Whether standing at `pose` puts the prop deeper into a pawn than kPropPawnSlopM and deeper than
// it stood before (a crate the solver turned or squeezed into a player: the pawns are kinematic in
// the solver, but a spin or a pile can still press a corner in a few centimetres a tick).
bool ServerProps::swings_into_pawn(uint32_t slot, const PropPose& pose, std::span<const Aabb> pawns) const {
  const TurnedBox next = prop_box(props_[slot], pose.position, pose.rotation);
  const Aabb reach = next.bounds();
  for (const Aabb& pawn : pawns) {
    if (!pawn.overlaps(reach)) continue;
    const float depth_m = overlap_depth(pawn, next);
    if (depth_m > kPropPawnSlopM && depth_m > overlap_depth(pawn, boxes_[slot])) return true;
  }
  return false;
}

void ServerProps::append_boxes(std::vector<TurnedBox>& out) const {
  for (uint32_t slot = 0; slot < props_.size(); ++slot)
    if (spawned_[slot]) out.push_back(boxes_[slot]);
}

}  // namespace tickwire::world

// ServerProps: the reference game's physics props on the server. It owns the solver (PropPhysics)
// and each prop's pose as the wire carries it (PropPose), applies the one push rule (PropPush) for
// every pawn that shoulders a prop, steps the props once the tick's pawns and logic have run, and
// hands the pawns' step the props' boxes where the step left them. A prop that falls out of the
// world (below its map's lowest box by kPropFallLimitM) is put back where the map puts it, at rest.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <vector>

#include "tickwire/replication/frames/replica_kinds.h"
#include "tickwire/world/object_solids.h"
#include "tickwire/world/prop_physics.h"
#include "tickwire/world/prop_pose.h"
#include "tickwire/world/prop_push.h"
#include "tickwire/world/voxel_colliders.h"

namespace tickwire::world {

inline constexpr float kPropFallLimitM = 50.0f;
// How far the solver may leave a prop inside a pawn (its contact slop; well inside the mover's
// kShallowOverlapM, so the pawn's step still stops at it); deeper, the prop stops where it stood.
inline constexpr float kPropPawnSlopM = 0.02f;

struct PropStepCounts {
  uint64_t pushes = 0;    // impulses the push rule gave
  uint64_t respawns = 0;  // props put back after falling out of the world
  uint64_t stopped_at_pawn = 0;  // solver steps refused because they pressed a prop into a pawn
};

class ServerProps {
 public:
  ServerProps(const ReplicaKinds& kinds, const PropPhysicsSettings& physics = {}, const PropPushSettings& push = {});

  // A fresh solver over `solids`' props (each at the map's pose, at rest), the fixed `statics`, and
  // the lowest point of the world; `present(object_index)` says which props are spawned.
  template <class Present>
  void install(const ObjectSolids& solids, std::span<const Aabb> statics, Present present) {
    reset(solids, statics);
    for (uint32_t slot = 0; slot < solids.props().size(); ++slot)
      if (present(solids.props()[slot].object_index)) spawn(slot);
  }
  // The fixed world changed (an object with a static body joined or left).
  void set_statics(std::span<const Aabb> statics);
  // The voxel chunks `colliders` has cooked, mirrored into the solver as fixed bodies (a chunk
  // cooked, cooked again or dropped since the last call changes there), so a prop stands on a
  // voxel floor and stops at a voxel wall as a pawn does. The caller streams chunks around its props
  // too (every spawned prop's position among the stream's centres), so a prop's floor stays cooked.
  void sync_voxels(const VoxelColliders& colliders);
  void spawn(uint32_t slot);    // back where the map puts it, at rest
  void despawn(uint32_t slot);  // out of the solver and the boxes
  bool spawned(uint32_t slot) const { return slot < spawned_.size() && spawned_[slot]; }

  // A pawn (its box after its step, its wished velocity) pushes each spawned prop it leans on.
  void push_from(const Aabb& pawn_box, const Vec3& wish_mps);
  // One solver step of dt_s with the doors and lifts moving as `movers` say and the pawns standing
  // where their step left them (immovable to a prop: a crate stops at a player; only the push rule
  // moves one by a pawn); the props' poses rounded to the wire's and their boxes refreshed.
  void step(std::span<const MovingBox> movers, std::span<const Aabb> pawns, float dt_s);

  // The spawned props' boxes, appended to `out` (what a pawn's step collides with).
  void append_boxes(std::vector<TurnedBox>& out) const;
  // A prop's box where the solver left it, turned as it stands.
  const TurnedBox& box(uint32_t slot) const { return boxes_[slot]; }
  const PropPose& pose(uint32_t slot) const { return poses_[slot]; }
  // Whether a prop stands elsewhere than the map puts it (its records carry its pose).
  bool moved(uint32_t slot) const;
  bool asleep(uint32_t slot) const { return !spawned(slot) || physics_.asleep(slot); }
  std::size_t awake() const { return physics_.awake(); }
  const PropStepCounts& counts() const { return counts_; }

  // A save state (seed 002; server_props_state.cpp): every slot's presence, its pose as the wire
  // says it stands, and its body as the solver holds it. load reads it back over props installed
  // for the same map (the slot count must match): false, nothing changed, when it does not read.
  void save(ByteRecordWriter& write) const;
  bool load(ByteRecordReader& read);
  // The solver rebuilt around the bodies as they stand (PropPhysics::reseat): done by a room on
  // saving and on loading, so both step alike.
  void reseat() { physics_.reseat(); }
  // Reads past what save wrote, checking it as load would (nothing changes).
  bool check(ByteRecordReader& read) const;

 private:
  void reset(const ObjectSolids& solids, std::span<const Aabb> statics);
  PropPose authored(uint32_t slot) const;
  void stand(uint32_t slot, const PropPose& pose);  // its pose and box
  bool swings_into_pawn(uint32_t slot, const PropPose& pose, std::span<const Aabb> pawns) const;

  ReplicaKinds kinds_;  // the wire's precision for object records
  PropPhysicsSettings physics_settings_;
  PropPushSettings push_;
  PropPhysics physics_;
  std::vector<PropSolid> props_;  // by slot (ObjectSolids')
  std::vector<PropPose> poses_;   // by slot: where the wire says it stands
  std::vector<PropPose> authored_on_wire_;  // by slot: the authored pose at the wire's precision
  std::vector<TurnedBox> boxes_;  // by slot
  std::vector<bool> spawned_;
  float floor_y_ = 0;  // the world's lowest box bottom
  float voxel_floor_y_ = 0;  // the lowest voxel box bottom the solver has held (none: the float max)
  PropStepCounts counts_;
  std::vector<MovingBox> kinematics_;  // scratch: the movers, then the pawns
  std::optional<uint64_t> voxels_revision_;  // the colliders' revision last mirrored (none: never)
  std::map<uint64_t, uint64_t> voxel_chunks_;  // the chunks in the solver: id -> the stamp cooked from
  std::vector<uint64_t> voxel_seen_;            // scratch
};

}  // namespace tickwire::world

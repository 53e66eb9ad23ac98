// PropPhysics: the server's solver for physics props (seed 000: "the server keeps ownership of every
// one of them"). A Bullet dynamics world holding the map's fixed boxes as static bodies, the doors and
// lifts as kinematic ones (placed where last tick left them, given the velocity that reaches this
// tick's pose) and one dynamic box per prop. A prop slides, falls, tips, spins and is shoved: its
// body is exactly the turned box a pawn's sweep meets (prop_box, TurnedBox), and the pawns stand in
// the solver as kinematic boxes, so a turning crate stops at a pawn beside it rather than swinging
// its corner into it. Server only: Bullet stays behind this header (the client's
// prediction path may not reach a dynamic-physics engine: tests/architecture), and clients mirror the
// poses the records carry. Fixed-step and single-threaded: the same inputs in the same order give the
// same poses.
#pragma once

#include <cstdint>
#include <memory>
#include <span>

#include "tickwire/world/character_mover.h"
#include "tickwire/world/object_solids.h"
#include "tickwire/world/prop_pose.h"
#include "tickwire/world/vec3.h"

namespace tickwire {
class ByteRecordReader;
class ByteRecordWriter;
}  // namespace tickwire

namespace tickwire::world {

// The surface a material gives a prop (a row per kPropMaterials entry).
struct PropSurface {
  float friction = 0.5f;
  float restitution = 0.1f;
};
PropSurface prop_surface(uint8_t material);

struct PropPhysicsSettings {
  float gravity_mps2 = 9.81f;
  float linear_damping = 0.05f;  // per second, the air's share (the floor's friction does the rest)
  float angular_damping = 0.2f;
  // A prop slower than these for the solver's deactivation time (2 s) falls asleep: its pose stops
  // changing, so its record stops costing (the rest it comes to is what a resting prop's bits buy).
  float sleep_linear_mps = 0.05f;
  float sleep_angular_radps = 0.1f;

  bool valid() const;
};

class PropPhysics {
 public:
  explicit PropPhysics(const PropPhysicsSettings& settings = {});
  ~PropPhysics();
  PropPhysics(PropPhysics&&) noexcept;
  PropPhysics& operator=(PropPhysics&&) noexcept;

  // The fixed world, replacing every static body (the map's boxes and its objects' static bodies).
  void set_statics(std::span<const Aabb> boxes);
  // A voxel chunk's cooked boxes as fixed bodies, by the caller's id (set again: replaced), and
  // dropped. Replacing or dropping one wakes the props touching its bounds (what held them may be
  // gone); a new one wakes nothing.
  void set_chunk(uint64_t id, const Aabb& bounds, std::span<const Aabb> boxes);
  void drop_chunk(uint64_t id);
  // The kinematic bodies of the coming step: each where it stands entering the step, moving by its
  // delta over dt_s (a door pushing a crate, a lift carrying one).
  void set_kinematics(std::span<const MovingBox> boxes, float dt_s);

  // A prop's body, at `pose`, at rest (`asleep`: not moving until something wakes it, as a map
  // authors a crate); `slot` is the caller's name for it (ObjectSolids' prop slot).
  void add(uint32_t slot, const PropSolid& prop, const PropPose& pose, bool asleep = false);
  void remove(uint32_t slot);
  bool has(uint32_t slot) const;
  // Puts a prop at `pose`, keeping its velocity (the wire's rounding of the solver's pose), or at
  // rest there (`at_rest`: a respawn).
  void place(uint32_t slot, const PropPose& pose, bool at_rest = false);
  // An impulse through the prop's centre (kg m/s), waking it.
  void push(uint32_t slot, Vec3 impulse);

  PropPose pose(uint32_t slot) const;
  Vec3 velocity(uint32_t slot) const;
  bool asleep(uint32_t slot) const;
  std::size_t awake() const;  // props the solver is moving

  // One fixed step of dt_s.
  void step(float dt_s);

  // A save state (seed 002): a prop's body as the solver holds it, every bit of it a step reads
  // (its transform and interpolation transform as matrices, not as a quaternion that would not come
  // back bit-exact; its velocities; its activation state and deactivation clock). load_body reads
  // it back into the slot's body (false, nothing changed: a count or number that does not read).
  void save_body(uint32_t slot, ByteRecordWriter& write) const;
  bool load_body(uint32_t slot, ByteRecordReader& read);
  // Builds the solver afresh around the bodies as they stand (the fixed world, the voxel chunks by
  // id, the props by slot, each with its state): what a step reads beside the bodies (contact
  // manifolds and their warm-start impulses, the broadphase's pair order) is dropped, so a room
  // saved and a room loaded from its bytes, both reseated, step bit-exact alike from then on.
  void reseat();

 private:
  struct World;
  std::unique_ptr<World> world_;
};

}  // namespace tickwire::world

// The Bullet world behind PropPhysics: one collision configuration, dispatcher, broadphase and
// sequential-impulse solver; boxes for everything, a prop's turned as its pose turns it (it tips and
// spins as the solver says). Kinematic bodies carry no motion state: each step
// they are placed at their start and Bullet reads their velocity from the interpolation transform
// set one delta behind it (btRigidBody::saveKinematicState), so a crate on a lift rides its velocity.
#include "tickwire/world/prop_physics.h"

#include <btBulletDynamicsCommon.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <vector>

#include "tickwire/core/assert.h"
#include "tickwire/core/byte_record.h"
#include "tickwire/world/logic_bodies.h"
#include "tickwire/world/logic_components.h"

namespace tickwire::world {
namespace {

constexpr PropSurface kSurfaces[] = {
    {0.5f, 0.1f},   // wood
    {0.3f, 0.05f},  // metal
    {0.7f, 0.0f},   // stone
    {0.9f, 0.5f},   // rubber
};
static_assert(std::size(kSurfaces) == std::size(kPropMaterials), "a surface per prop material");
constexpr float kStaticFriction = 0.6f;  // the map's floors, walls and doors

btVector3 bt(Vec3 v) { return {v.x, v.y, v.z}; }
Vec3 vec(const btVector3& v) { return {v.x(), v.y(), v.z()}; }
Vec3 centre(const Aabb& box) { return (box.min + box.max) * 0.5f; }
Vec3 half(const Aabb& box) { return (box.max - box.min) * 0.5f; }
btTransform transform_of(const PropPose& pose) {
  return btTransform(btQuaternion(pose.rotation.x, pose.rotation.y, pose.rotation.z, pose.rotation.w), bt(pose.position));
}

// A body with the shape it owns: its half extents as asked for (Bullet keeps them less its margin).
struct Body {
  std::unique_ptr<btBoxShape> shape;
  std::unique_ptr<btRigidBody> body;
  Vec3 half_extents;
};

// A kinematic body keeps its shape while its box keeps its size (a pawn's box, recomputed from
// min and max wherever it stands, differs in the last bits; a crouch or another body does not).
constexpr float kSameShapeM = 1e-4f;
bool same_size(Vec3 a, Vec3 b) {
  return std::fabs(a.x - b.x) <= kSameShapeM && std::fabs(a.y - b.y) <= kSameShapeM && std::fabs(a.z - b.z) <= kSameShapeM;
}

Body make_body(Vec3 half_extents, float mass_kg, const btTransform& at, float friction, float restitution) {
  Body b;
  b.shape = std::make_unique<btBoxShape>(bt(half_extents));
  btVector3 inertia(0, 0, 0);
  if (mass_kg > 0) b.shape->calculateLocalInertia(mass_kg, inertia);
  btRigidBody::btRigidBodyConstructionInfo info(mass_kg, nullptr, b.shape.get(), inertia);
  info.m_startWorldTransform = at;
  info.m_friction = friction;
  info.m_restitution = restitution;
  b.body = std::make_unique<btRigidBody>(info);
  b.half_extents = half_extents;
  return b;
}

PropPose pose_of(const btRigidBody& body) {
  const btTransform& at = body.getWorldTransform();
  const btQuaternion q = at.getRotation();
  return PropPose{vec(at.getOrigin()), Quat{q.x(), q.y(), q.z(), q.w()}};
}

}  // namespace

PropSurface prop_surface(uint8_t material) { return material < std::size(kSurfaces) ? kSurfaces[material] : kSurfaces[0]; }

bool PropPhysicsSettings::valid() const {
  for (float v : {gravity_mps2, linear_damping, angular_damping, sleep_linear_mps, sleep_angular_radps})
    if (!std::isfinite(v) || v < 0) return false;
  return linear_damping <= 1 && angular_damping <= 1;
}

struct PropPhysics::World {
  explicit World(const PropPhysicsSettings& s)
      : settings(s), dispatcher(&configuration), dynamics(&dispatcher, &broadphase, &solver, &configuration) {
    dynamics.setGravity(btVector3(0, -settings.gravity_mps2, 0));
  }
  ~World() {
    for (Body& b : props)
      if (b.body) dynamics.removeRigidBody(b.body.get());
    for (Body& b : statics) dynamics.removeRigidBody(b.body.get());
    for (Body& b : kinematics) dynamics.removeRigidBody(b.body.get());
    for (auto& [id, chunk] : chunks)
      for (Body& b : chunk.bodies) dynamics.removeRigidBody(b.body.get());
  }

  PropPhysicsSettings settings;
  btDefaultCollisionConfiguration configuration;
  btCollisionDispatcher dispatcher;
  btDbvtBroadphase broadphase;
  btSequentialImpulseConstraintSolver solver;
  btDiscreteDynamicsWorld dynamics;
  std::vector<Body> statics;
  std::vector<Aabb> static_boxes;  // what the static bodies were made from
  std::vector<Body> kinematics;
  std::vector<Body> props;  // by slot; an empty body: none in that slot
  std::vector<PropSolid> prop_solids;  // by slot: what each prop's body was made from
  struct Chunk {
    Aabb bounds;
    std::vector<Aabb> boxes;  // what its bodies were made from
    std::vector<Body> bodies;
  };
  std::map<uint64_t, Chunk> chunks;  // the voxel chunks' fixed bodies, by the caller's id

  Body fixed_body(const Aabb& box) {
    btTransform at;
    at.setIdentity();
    at.setOrigin(bt(centre(box)));
    Body b = make_body(half(box), 0, at, kStaticFriction, 0);
    dynamics.addRigidBody(b.body.get());
    return b;
  }
  // Removes a chunk's bodies and wakes every prop touching its bounds.
  void clear_chunk(Chunk& chunk) {
    for (Body& b : chunk.bodies) dynamics.removeRigidBody(b.body.get());
    chunk.bodies.clear();
    const btVector3 lo = bt(chunk.bounds.min), hi = bt(chunk.bounds.max);
    for (Body& b : props) {
      if (!b.body) continue;
      btVector3 min, max;
      b.body->getAabb(min, max);
      if (min.x() <= hi.x() && max.x() >= lo.x() && min.y() <= hi.y() && max.y() >= lo.y() && min.z() <= hi.z() &&
          max.z() >= lo.z())
        b.body->activate(true);
    }
  }

  const Body& prop(uint32_t slot) const {
    TW_ASSERT(slot < props.size() && props[slot].body, "a prop slot the solver holds");
    return props[slot];
  }
  btRigidBody& body(uint32_t slot) const { return *prop(slot).body; }
};

PropPhysics::PropPhysics(const PropPhysicsSettings& settings) {
  TW_ASSERT(settings.valid(), "prop physics settings out of range");
  world_ = std::make_unique<World>(settings);
}
PropPhysics::~PropPhysics() = default;
PropPhysics::PropPhysics(PropPhysics&&) noexcept = default;
PropPhysics& PropPhysics::operator=(PropPhysics&&) noexcept = default;

void PropPhysics::set_statics(std::span<const Aabb> boxes) {
  if (std::equal(boxes.begin(), boxes.end(), world_->static_boxes.begin(), world_->static_boxes.end(),
                 [](const Aabb& a, const Aabb& b) { return a.min == b.min && a.max == b.max; })) {
    return;  // the same fixed world: nothing resting on it wakes
  }
  world_->static_boxes.assign(boxes.begin(), boxes.end());
  for (Body& b : world_->statics) world_->dynamics.removeRigidBody(b.body.get());
  world_->statics.clear();
  world_->statics.reserve(boxes.size());
  for (const Aabb& box : boxes) world_->statics.push_back(world_->fixed_body(box));
  for (Body& b : world_->props)  // what held it may be gone
    if (b.body) b.body->activate(true);
}

void PropPhysics::set_chunk(uint64_t id, const Aabb& bounds, std::span<const Aabb> boxes) {
  auto [it, fresh] = world_->chunks.try_emplace(id);
  World::Chunk& chunk = it->second;
  if (!fresh) world_->clear_chunk(chunk);
  chunk.bounds = bounds;
  chunk.boxes.assign(boxes.begin(), boxes.end());
  chunk.bodies.reserve(boxes.size());
  for (const Aabb& box : boxes) chunk.bodies.push_back(world_->fixed_body(box));
}

void PropPhysics::drop_chunk(uint64_t id) {
  auto it = world_->chunks.find(id);
  if (it == world_->chunks.end()) return;
  world_->clear_chunk(it->second);
  world_->chunks.erase(it);
}

void PropPhysics::set_kinematics(std::span<const MovingBox> boxes, float dt_s) {
  std::vector<Body>& kinematics = world_->kinematics;
  while (kinematics.size() > boxes.size()) {
    world_->dynamics.removeRigidBody(kinematics.back().body.get());
    kinematics.pop_back();
  }
  for (std::size_t i = 0; i < boxes.size(); ++i) {
    const MovingBox& box = boxes[i];
    btTransform start;
    start.setIdentity();
    start.setOrigin(bt(centre(box.start)));
    if (i == kinematics.size() || !same_size(kinematics[i].half_extents, half(box.start))) {
      if (i < kinematics.size()) world_->dynamics.removeRigidBody(kinematics[i].body.get());
      Body b = make_body(half(box.start), 0, start, kStaticFriction, 0);
      b.body->setCollisionFlags(b.body->getCollisionFlags() | btCollisionObject::CF_KINEMATIC_OBJECT);
      world_->dynamics.addRigidBody(b.body.get());
      if (i < kinematics.size()) kinematics[i] = std::move(b);
      else kinematics.push_back(std::move(b));
    }
    btRigidBody& body = *kinematics[i].body;
    // Still (where it stood and not moving): asleep, so the props leaning on it can fall asleep too
    // (an awake kinematic body keeps everything touching it awake).
    const bool still = box.delta_m == Vec3{} && vec(body.getWorldTransform().getOrigin()) == centre(box.start);
    body.forceActivationState(still ? ISLAND_SLEEPING : DISABLE_DEACTIVATION);
    // Where last tick left it, and one delta behind: the step reads its velocity as delta / dt.
    btTransform behind = start;
    behind.setOrigin(bt(centre(box.start) - box.delta_m));
    body.setWorldTransform(start);
    body.setInterpolationWorldTransform(dt_s > 0 ? behind : start);
    const Vec3 velocity = dt_s > 0 ? box.delta_m * (1.0f / dt_s) : Vec3{};
    body.setLinearVelocity(bt(velocity));
    body.setInterpolationLinearVelocity(bt(velocity));
  }
}

void PropPhysics::add(uint32_t slot, const PropSolid& prop, const PropPose& pose, bool asleep) {
  TW_ASSERT(!has(slot), "one body per prop slot");
  const PropSurface surface = prop_surface(prop.material);
  // The box a pawn meets (prop_box): the prop's own, turned by its pose.
  Body b = make_body(prop.half_extents, prop.mass_kg, transform_of(pose), surface.friction, surface.restitution);
  const PropPhysicsSettings& s = world_->settings;
  b.body->setDamping(s.linear_damping, s.angular_damping);
  b.body->setSleepingThresholds(s.sleep_linear_mps, s.sleep_angular_radps);
  world_->dynamics.addRigidBody(b.body.get());
  if (asleep) b.body->forceActivationState(ISLAND_SLEEPING);
  if (slot >= world_->props.size()) {
    world_->props.resize(slot + 1);
    world_->prop_solids.resize(slot + 1);
  }
  world_->props[slot] = std::move(b);
  world_->prop_solids[slot] = prop;
}

void PropPhysics::remove(uint32_t slot) {
  if (!has(slot)) return;
  world_->dynamics.removeRigidBody(world_->props[slot].body.get());
  world_->props[slot] = Body{};
}

bool PropPhysics::has(uint32_t slot) const { return slot < world_->props.size() && world_->props[slot].body != nullptr; }

void PropPhysics::place(uint32_t slot, const PropPose& pose, bool at_rest) {
  btRigidBody& body = world_->body(slot);
  const btTransform at = transform_of(pose);
  body.setWorldTransform(at);
  body.setInterpolationWorldTransform(at);
  if (at_rest) {
    body.setLinearVelocity(btVector3(0, 0, 0));
    body.setAngularVelocity(btVector3(0, 0, 0));
    body.activate(true);
  }
}

void PropPhysics::push(uint32_t slot, Vec3 impulse) {
  btRigidBody& body = world_->body(slot);
  body.activate(true);
  body.applyCentralImpulse(bt(impulse));
}

PropPose PropPhysics::pose(uint32_t slot) const { return pose_of(*world_->prop(slot).body); }

Vec3 PropPhysics::velocity(uint32_t slot) const { return vec(world_->body(slot).getLinearVelocity()); }

bool PropPhysics::asleep(uint32_t slot) const { return !world_->body(slot).isActive(); }

std::size_t PropPhysics::awake() const {
  std::size_t n = 0;
  for (const Body& b : world_->props) n += b.body && b.body->isActive() ? 1 : 0;
  return n;
}

void PropPhysics::step(float dt_s) {
  if (dt_s <= 0) return;
  world_->dynamics.stepSimulation(dt_s, 1, dt_s);
}

namespace {

static_assert(sizeof(btScalar) == sizeof(float), "the save state writes Bullet's single-precision scalars");

void write_transform(ByteRecordWriter& write, const btTransform& at) {
  for (int row = 0; row < 3; ++row)
    for (int column = 0; column < 3; ++column) write.f32(at.getBasis()[row][column]);
  for (int axis = 0; axis < 3; ++axis) write.f32(at.getOrigin()[axis]);
}

void write_vector(ByteRecordWriter& write, const btVector3& v) {
  for (int axis = 0; axis < 3; ++axis) write.f32(v[axis]);
}

// Numbers read in order; false from the first one that is not finite.
struct FiniteReader {
  ByteRecordReader& read;
  bool finite = true;
  float next() {
    const float v = read.f32();
    finite = finite && std::isfinite(v);
    return v;
  }
  btVector3 vector() {
    const float x = next(), y = next(), z = next();
    return {x, y, z};
  }
  btTransform transform() {
    float m[9];
    for (float& v : m) v = next();
    const btMatrix3x3 basis(m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8]);
    return btTransform(basis, vector());
  }
};

constexpr int kMaxActivationState = DISABLE_SIMULATION;

}  // namespace

void PropPhysics::save_body(uint32_t slot, ByteRecordWriter& write) const {
  const btRigidBody& body = world_->body(slot);
  write_transform(write, body.getWorldTransform());
  write_transform(write, body.getInterpolationWorldTransform());
  write_vector(write, body.getLinearVelocity());
  write_vector(write, body.getAngularVelocity());
  write_vector(write, body.getInterpolationLinearVelocity());
  write_vector(write, body.getInterpolationAngularVelocity());
  write.u8(static_cast<uint8_t>(body.getActivationState()));
  write.f32(body.getDeactivationTime());
  write.f32(body.getHitFraction());
}

bool PropPhysics::load_body(uint32_t slot, ByteRecordReader& read) {
  FiniteReader in{read};
  const btTransform at = in.transform(), interpolated = in.transform();
  const btVector3 linear = in.vector(), angular = in.vector(), interpolated_linear = in.vector(),
                  interpolated_angular = in.vector();
  const uint8_t activation = read.u8();
  const float deactivation_s = in.next(), hit_fraction = in.next();
  if (!read.ok() || !in.finite || activation < ACTIVE_TAG || activation > kMaxActivationState) return false;
  btRigidBody& body = world_->body(slot);
  body.setWorldTransform(at);
  body.setInterpolationWorldTransform(interpolated);
  body.setLinearVelocity(linear);
  body.setAngularVelocity(angular);
  body.setInterpolationLinearVelocity(interpolated_linear);
  body.setInterpolationAngularVelocity(interpolated_angular);
  body.forceActivationState(activation);
  body.setDeactivationTime(deactivation_s);
  body.setHitFraction(hit_fraction);
  return true;
}

void PropPhysics::reseat() {
  std::vector<uint8_t> bodies;
  ByteRecordWriter write(bodies);
  for (uint32_t slot = 0; slot < world_->props.size(); ++slot)
    if (has(slot)) save_body(slot, write);
  std::unique_ptr<World> old = std::move(world_);
  world_ = std::make_unique<World>(old->settings);
  // The fixed world first, the chunks by id, the props by slot: one order, whatever the history.
  world_->static_boxes = old->static_boxes;
  for (const Aabb& box : old->static_boxes) world_->statics.push_back(world_->fixed_body(box));
  for (const auto& [id, chunk] : old->chunks) {
    World::Chunk& fresh = world_->chunks[id];
    fresh.bounds = chunk.bounds;
    fresh.boxes = chunk.boxes;
    for (const Aabb& box : chunk.boxes) fresh.bodies.push_back(world_->fixed_body(box));
  }
  ByteRecordReader read(bodies);
  for (uint32_t slot = 0; slot < old->props.size(); ++slot) {
    if (!old->props[slot].body) continue;
    add(slot, old->prop_solids[slot], pose_of(*old->props[slot].body));
    const bool loaded = load_body(slot, read);
    TW_ASSERT(loaded, "a body reads back what it wrote");
  }
  // The kinematic bodies are made afresh by the next step (set_kinematics), as a loaded room's are.
}

}  // namespace tickwire::world

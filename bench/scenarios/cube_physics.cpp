// The cube scene in Bullet: the world, the player's drive, the blow and pull phases, the recording.
#include "cube_physics.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include <btBulletDynamicsCommon.h>

#include "tickwire/core/assert.h"
#include "tickwire/core/rng.h"

namespace tickwire::bench {
namespace {

constexpr int kGridSide = 30;
constexpr float kCubeHalfM = 0.5f;
constexpr float kPlayerHalfM = 1.0f;
constexpr float kCubeMassKg = 1.0f;
constexpr float kPlayerMassKg = 8.0f;
constexpr float kBoundsXYM = 256.0f;
constexpr float kBoundsTopM = 32.0f;
constexpr float kWanderM = 24.0f;         // the player's waypoints lie within this of the origin
constexpr float kPlayerDriveMps2 = 40.0f;  // the push's acceleration
constexpr float kPlayerTopSpeedMps = 8.0f;
// One cycle: a short blow, a drive, then a pull (the katamari ball), then a drive.
constexpr double kCycleS = 6.0;
constexpr double kBlowEndS = 0.25, kPullStartS = 3.0, kPullEndS = 5.0;
constexpr float kBlowRadiusM = 8.0f, kBlowMps2 = 60.0f;
constexpr float kPullRadiusM = 10.0f, kPullMps2 = 25.0f;
constexpr float kFriction = 0.5f;
constexpr uint32_t kSettleSteps = 60;  // the grid settles onto the floor before frame 0

class CubeWorld {
 public:
  CubeWorld(uint64_t seed, float spacing_m);
  ~CubeWorld();
  CubeWorld(const CubeWorld&) = delete;
  CubeWorld& operator=(const CubeWorld&) = delete;

  void step(double t_s, float dt_s);
  void settle(float dt_s);
  void record(CubeTrace& trace) const;
  uint32_t cubes() const { return static_cast<uint32_t>(bodies_.size()); }

 private:
  btRigidBody* add_body(btCollisionShape* shape, float mass_kg, const btVector3& at);
  void add_plane(const btVector3& normal, float constant);
  void drive_player();
  void push_cubes(float radius_m, float accel_mps2, bool outwards);

  Rng rng_;
  btDefaultCollisionConfiguration config_;
  btCollisionDispatcher dispatcher_{&config_};
  btDbvtBroadphase broadphase_;
  btSequentialImpulseConstraintSolver solver_;
  btDiscreteDynamicsWorld world_{&dispatcher_, &broadphase_, &solver_, &config_};
  btBoxShape cube_shape_{btVector3(kCubeHalfM, kCubeHalfM, kCubeHalfM)};
  btBoxShape player_shape_{btVector3(kPlayerHalfM, kPlayerHalfM, kPlayerHalfM)};
  std::vector<std::unique_ptr<btStaticPlaneShape>> planes_;
  std::vector<std::unique_ptr<btDefaultMotionState>> motions_;
  std::vector<std::unique_ptr<btRigidBody>> statics_;
  std::vector<std::unique_ptr<btRigidBody>> bodies_;  // [0] is the player
  btVector3 waypoint_{0, 0, 0};
};

CubeWorld::CubeWorld(uint64_t seed, float spacing_m) : rng_(seed) {
  TW_ASSERT(spacing_m >= CubeSceneConfig::kMinSpacingM && spacing_m <= CubeSceneConfig::kMaxSpacingM,
            "a cube grid spacing the scene allows");
  world_.setGravity(btVector3(0, 0, -9.81f));
  add_plane(btVector3(0, 0, 1), 0);                  // floor, z = 0
  add_plane(btVector3(0, 0, -1), -kBoundsTopM);      // ceiling, z = 32
  add_plane(btVector3(1, 0, 0), -kBoundsXYM);        // x = -256
  add_plane(btVector3(-1, 0, 0), -kBoundsXYM);       // x = 256
  add_plane(btVector3(0, 1, 0), -kBoundsXYM);
  add_plane(btVector3(0, -1, 0), -kBoundsXYM);
  btRigidBody* player = add_body(&player_shape_, kPlayerMassKg, btVector3(-kWanderM - 4, 0, kPlayerHalfM));
  player->setActivationState(DISABLE_DEACTIVATION);
  player->setDamping(0.3f, 0.6f);
  const float first = -0.5f * spacing_m * static_cast<float>(kGridSide - 1);
  for (int row = 0; row < kGridSide; ++row) {
    for (int col = 0; col < kGridSide; ++col) {
      const float x = first + spacing_m * static_cast<float>(col), y = first + spacing_m * static_cast<float>(row);
      add_body(&cube_shape_, kCubeMassKg, btVector3(x, y, kCubeHalfM));
    }
  }
}

CubeWorld::~CubeWorld() {
  for (auto& body : bodies_) world_.removeRigidBody(body.get());
  for (auto& body : statics_) world_.removeRigidBody(body.get());
}

void CubeWorld::add_plane(const btVector3& normal, float constant) {
  planes_.push_back(std::make_unique<btStaticPlaneShape>(normal, constant));
  btRigidBody::btRigidBodyConstructionInfo info(0, nullptr, planes_.back().get());
  info.m_friction = kFriction;
  statics_.push_back(std::make_unique<btRigidBody>(info));
  world_.addRigidBody(statics_.back().get());
}

btRigidBody* CubeWorld::add_body(btCollisionShape* shape, float mass_kg, const btVector3& at) {
  btVector3 inertia(0, 0, 0);
  shape->calculateLocalInertia(mass_kg, inertia);
  btTransform start;
  start.setIdentity();
  start.setOrigin(at);
  motions_.push_back(std::make_unique<btDefaultMotionState>(start));
  btRigidBody::btRigidBodyConstructionInfo info(mass_kg, motions_.back().get(), shape, inertia);
  info.m_friction = kFriction;
  bodies_.push_back(std::make_unique<btRigidBody>(info));
  world_.addRigidBody(bodies_.back().get());
  return bodies_.back().get();
}

void CubeWorld::drive_player() {
  btRigidBody& player = *bodies_[0];
  btVector3 to = waypoint_ - player.getCenterOfMassPosition();
  to.setZ(0);
  if (to.length() < 2.0f) {
    const auto coord = [this] { return static_cast<float>((rng_.unit() * 2 - 1) * kWanderM); };
    waypoint_ = btVector3(coord(), coord(), 0);
    return;
  }
  btVector3 velocity = player.getLinearVelocity();
  velocity.setZ(0);
  if (velocity.length() < kPlayerTopSpeedMps) player.applyCentralForce(to.normalized() * (kPlayerMassKg * kPlayerDriveMps2));
}

// Blow: cubes near the player fly outwards and up. Pull: they are drawn towards it.
void CubeWorld::push_cubes(float radius_m, float accel_mps2, bool outwards) {
  const btVector3 centre = bodies_[0]->getCenterOfMassPosition();
  for (std::size_t i = 1; i < bodies_.size(); ++i) {
    btRigidBody& cube = *bodies_[i];
    btVector3 away = cube.getCenterOfMassPosition() - centre;
    const float distance_m = away.length();
    if (distance_m > radius_m || distance_m < 1e-3f) continue;
    const float falloff = 1.0f - distance_m / radius_m;
    btVector3 direction = away / distance_m;
    if (outwards) {
      direction.setZ(std::max(direction.z(), 0.0f) + 1.2f);
    } else {
      direction = -direction;
    }
    cube.activate(true);
    cube.applyCentralForce(direction * (kCubeMassKg * accel_mps2 * falloff));
  }
}

void CubeWorld::step(double t_s, float dt_s) {
  drive_player();
  const double in_cycle_s = std::fmod(t_s, kCycleS);
  if (in_cycle_s < kBlowEndS) push_cubes(kBlowRadiusM, kBlowMps2, true);
  if (in_cycle_s >= kPullStartS && in_cycle_s < kPullEndS) push_cubes(kPullRadiusM, kPullMps2, false);
  world_.stepSimulation(dt_s, 0);  // exactly one fixed step, no interpolation
}

void CubeWorld::settle(float dt_s) {
  for (uint32_t i = 0; i < kSettleSteps; ++i) world_.stepSimulation(dt_s, 0);
}

void CubeWorld::record(CubeTrace& trace) const {
  for (const auto& body : bodies_) {
    const btTransform& t = body->getWorldTransform();
    const btVector3& p = t.getOrigin();
    const btQuaternion q = t.getRotation();
    trace.poses.push_back(CubePose{p.x(), p.y(), p.z(), q.x(), q.y(), q.z(), q.w()});
  }
}

}  // namespace

CubeTrace simulate_cube_scene(const CubeSceneConfig& config) {
  CubeWorld world(config.seed, config.spacing_m);
  CubeTrace trace;
  trace.cubes = world.cubes();
  trace.hz = config.hz;
  trace.poses.reserve(std::size_t{config.frames} * trace.cubes);
  const float dt_s = 1.0f / config.hz;
  world.settle(dt_s);
  for (uint32_t frame = 0; frame < config.frames; ++frame) {
    if (frame > 0) world.step(static_cast<double>(frame) / config.hz, dt_s);
    world.record(trace);
  }
  return trace;
}

}  // namespace tickwire::bench

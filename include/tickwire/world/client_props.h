// ClientProps: the physics props a map marks `sim: client` (seed 000's ClientPhysicsProps). They live
// in one client's world only: never on the wire, unknown to the server, each client's own. The
// client steps them once per predicted tick: its pawn shoves them by the one push rule the server's
// props obey (PropPush), gravity pulls them, they slide against the map's statics and each other and
// stop short of the pawn, friction brings them to rest and they fall asleep. The pawn's movement is
// the server's, so a client prop never blocks the predicted pawn (the server has no such prop: a
// block would be a correction on every touch); it is shoved out of the pawn's way instead.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "tickwire/world/map.h"
#include "tickwire/world/prop_push.h"
#include "tickwire/world/vec3.h"

namespace tickwire::world {

// Whether an object is a client's own prop (a physics_prop whose `sim` is "client"): the server never
// puts it on the wire.
bool client_simulated_prop(const MapObject& object);

struct ClientPropSettings {
  float gravity_mps2 = 9.81f;
  float max_fall_mps = 55.0f;
  float friction_mps2 = 8.0f;     // how fast a prop on the ground loses its horizontal speed
  float sleep_speed_mps = 0.02f;  // slower than this on the ground: asleep until shoved again
  float fall_out_m = 50.0f;       // this far below the map's lowest box: put back where the map puts it
};

struct ClientProp {
  uint32_t object_index = 0;
  Vec3 half_extents;  // the box never turns (a client prop's integrator slides it; the server's turn)
  Vec3 position;      // the box's centre
  Vec3 velocity_mps;
  float mass_kg = 0;
  bool asleep = false;
  Aabb box() const { return Aabb{position - half_extents, position + half_extents}; }
};

struct ClientPropCounts {
  uint64_t pushes = 0;    // shoves the push rule gave
  uint64_t respawns = 0;  // props put back after falling out of the world
};

class ClientProps {
 public:
  // Every `sim: client` physics prop of `map`, where the map puts it (asleep when authored so).
  static ClientProps build(const Map& map, const ClientPropSettings& settings = {}, const PropPushSettings& push = {});

  // One tick: the pawn (its box, its horizontal velocity: what it walks into the prop with) shoves,
  // then every awake prop falls, slides and settles against `statics`, the other props and the pawn.
  void step(const Aabb& pawn, const Vec3& pawn_velocity_mps, std::span<const Aabb> statics, float dt_s);
  // Every prop back where the map puts it.
  void reset();

  std::span<const ClientProp> props() const { return props_; }
  std::size_t awake() const;
  const ClientPropCounts& counts() const { return counts_; }

 private:
  ClientPropSettings settings_;
  PropPushSettings push_;
  std::vector<ClientProp> authored_;
  std::vector<ClientProp> props_;
  float fall_out_y_ = 0;
  ClientPropCounts counts_;
  std::vector<Aabb> others_;  // scratch
};

}  // namespace tickwire::world

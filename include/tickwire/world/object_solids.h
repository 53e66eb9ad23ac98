// ObjectSolids: the solids a map's objects make, built by both ends from the same map through
// LogicBodies: the static ones (fixed bodies) joined to the map's boxes, one track per kinematic body
// (a door, a lift) and the physics props the server's solver moves. A track turns its mover's replicated state (channel 0 the open fraction, channel 1 the
// change the next tick makes) into the MovingBox a step collides with: where it stands and how far
// the tick moves it, the Quake 3 mover trajectory a server step and a predicted one both follow.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "tickwire/protocol/snapshot.h"
#include "tickwire/world/character_mover.h"
#include "tickwire/world/logic_bodies.h"
#include "tickwire/world/map.h"
#include "tickwire/world/mover_pose.h"
#include "tickwire/world/turned_box.h"

namespace tickwire::world {

// A mover's replicated state: its open fraction and the signed change the next tick makes.
struct MoverState {
  double fraction = 0;
  double rate = 0;
};

// The state a mover component holds (its channels 0 and 1; 0 where it carries fewer).
MoverState mover_state(const ObjectComponent& mover);
// A mover's state as a snapshot's record of its object says it (a channel the section leaves
// out, or no mover section at all, is the authored value).
MoverState mover_state(const protocol::ObjectRecord& record, const MoverState& authored);

// A body moved by a mover: a door or lift's own, or one it carries (ObjectHierarchy: a collider or
// a touch volume under it). The slide, the mover component and the authored state are the driver's.
struct KinematicTrack {
  uint32_t object_index = 0;  // the body's object
  uint32_t driver_index = 0;  // the object whose mover moves it (itself for a door or lift)
  uint32_t driver_slot = 0;   // its driver's place in ObjectSolids::driver_states
  Vec3 position;              // authored: where it stands at the driver's fraction 0
  LogicBody body;
  MoverSlide slide;
  std::size_t mover_component = 0;  // which of the driver's components is its mover
  MoverState authored;              // the driver's state as the map authors it (a record leaves it out)
};

// The box of `track` `ticks_ahead` ticks after a tick that left it at `state` (1: the next tick):
// where it stands entering that tick and how far that tick moves it, the fraction clamped to [0, 1].
MovingBox moving_box(const KinematicTrack& track, const MoverState& state, uint32_t ticks_ahead = 1);

struct StaticSolid {
  uint32_t object_index = 0;
  Aabb box;
};

// A physics prop the server's solver moves (LogicBodies: dynamic, `sim` server): its box in its own
// frame and where the map puts it. Every record of it carries its pose once it left that; a pawn
// collides with its box turned as the pose turns it (TurnedBox), on the server where the solver
// left it, on a client where the newest snapshot puts it (PropPoses: the same floats on both ends).
struct PropSolid {
  uint32_t object_index = 0;
  Vec3 half_extents;  // its own frame: the size, scaled, not turned
  Vec3 position;      // authored (the box's centre)
  Quat rotation;      // authored
  float mass_kg = 0;
  uint8_t material = 0;  // a row of kPropMaterials
  bool asleep = false;   // the map authors it asleep (its section's bit 0): still until woken
};

// The box a pawn collides with for a prop standing at (position, rotation).
TurnedBox prop_box(const PropSolid& prop, Vec3 position, const Quat& rotation);

// Where a prop stands in a snapshot and how far it moved per tick since the snapshot before it: its
// trajectory (the wire states no rate for a prop, so a client reads it off its two newest poses,
// capped at kMaxPropTrajectoryMPerTick; still when there is no earlier pose or it was not later).
// Its rotation is the snapshot's: a turn is not extrapolated (measured: a crate turns by the
// contacts the client cannot see coming, and extrapolating its turn added corrections).
struct PropTrack {
  Vec3 position;
  Quat rotation;
  Vec3 per_tick;
};
inline constexpr float kMaxPropTrajectoryMPerTick = 0.25f;  // 15 m/s at 60 Hz: past it, a respawn, not a motion

class ObjectSolids {
 public:
  // By object index (the MapObjectTable's: the objects in file order).
  static ObjectSolids build(const Map& map);

  // Every object's static box, with its object (a despawned object's is left out by the game).
  std::span<const StaticSolid> statics() const { return statics_; }
  // Every moved body: the solid ones a pawn collides with (body.blocks()) and the carried touch
  // volumes (sensors) that move with their driver.
  std::span<const KinematicTrack> tracks() const { return tracks_; }
  // Every server-simulated physics prop, by prop slot.
  std::span<const PropSolid> props() const { return props_; }
  // A prop's slot, or -1: the object is no server-simulated prop.
  int32_t prop_slot(uint32_t object_index) const {
    return object_index < prop_slot_by_object_.size() ? prop_slot_by_object_[object_index] : -1;
  }

  // Every driver's state as the snapshot names it (its authored state where the snapshot does not),
  // by driver slot: one pass over the snapshot's records.
  void driver_states(const protocol::Snapshot& snapshot, std::vector<MoverState>& out) const;
  // Each solid track's moving box `ticks_ahead` ticks after the tick those driver states are of
  // (the Quake 3 trajectory: where a door will stand on the tick the server simulates that input).
  void moving_boxes(std::span<const MoverState> driver_states, uint32_t ticks_ahead, std::vector<MovingBox>& out) const;

  // Every prop's track in `snapshot` (its authored pose where it carries none), moving by its change
  // since `previous` (null, or no earlier tick: standing still).
  void prop_tracks(const protocol::Snapshot* snapshot, const protocol::Snapshot* previous, std::vector<PropTrack>& out) const;
  // Each prop's box `ticks_ahead` ticks after its tracks' snapshot, as the server steps that input:
  // where its trajectory puts it the tick before (1: the snapshot's own pose), appended to `out`. A
  // prop stops at a pawn (as the server's do): with `pawn`, one whose trajectory would carry it into
  // that box stands at the farthest point along it that does not (the snapshot's pose at the least).
  void prop_boxes_ahead(std::span<const PropTrack> tracks, uint32_t ticks_ahead, std::vector<TurnedBox>& out,
                        const Aabb* pawn = nullptr) const;
  // A hash of every prop pose `snapshot` carries (FNV-1a over the prop slots, positions and rotations):
  // equal for two snapshots that put every prop in the same place.
  uint64_t prop_revision(const protocol::Snapshot& snapshot) const;

  // Whether a mover places the object's body (a door or lift, or a body it carries) or the solver
  // does (a prop): an edit cannot move it.
  bool placed_by_motion(uint32_t object_index) const;

  // The map's boxes and the static bodies of the objects `present(object_index)` says are in.
  template <class Present>
  void collect_statics(const Map& map, Present present, std::vector<Aabb>& out) const {
    out.assign(map.boxes().begin(), map.boxes().end());
    for (const StaticSolid& s : statics_)
      if (present(s.object_index)) out.push_back(s.box);
  }

 private:
  std::vector<StaticSolid> statics_;
  std::vector<KinematicTrack> tracks_;
  std::vector<PropSolid> props_;
  std::vector<int32_t> prop_slot_by_object_;    // by object index: its prop slot, or -1
  std::vector<MoverState> authored_drivers_;     // by driver slot
  std::vector<int32_t> driver_slot_by_object_;  // by object index: its driver slot, or -1
};

// What a client predicts against before it knows better: the map's boxes and every object's static
// body, each object in (the server leaves a despawned object's out).
std::vector<Aabb> map_solid_boxes(const Map& map);

}  // namespace tickwire::world

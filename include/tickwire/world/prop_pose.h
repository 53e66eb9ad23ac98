// PropPose: where a physics prop stands, as the wire carries it. The server rounds its solver's pose
// through the object records' own quantizer (their precision in the game's ReplicaKinds), so the pose
// it collides pawns with, the one it sends and the one every client decodes are the same floats: a
// predicted walk along a crate meets the server's crate exactly. (The solver keeps its own, finer
// pose: the rounding is a millimetre at most.)
#pragma once

#include "tickwire/replication/frames/replica_kinds.h"
#include "tickwire/world/map_object.h"
#include "tickwire/world/vec3.h"

namespace tickwire::world {

struct PropPose {
  Vec3 position;  // the box's centre
  Quat rotation;
  friend bool operator==(const PropPose&, const PropPose&) = default;
};

// `pose` at the wire's precision for object records: what a client decodes from a record carrying it.
PropPose wire_pose(const PropPose& pose, const ReplicaKinds& kinds);

}  // namespace tickwire::world

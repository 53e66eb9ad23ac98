// ShardShedding: what the shard ladder's rung in force sheds, and how it composes above the room
// ladder: a shard rung holds every room of the shard at or above a room rung (its floor), so a room
// whose own signals look calm still sheds while its shard is under pressure. Rungs are cumulative.
#pragma once

#include "tickwire/protocol/load_policy.h"

namespace tickwire {

struct ShardShedding {
  ShardLoadRung rung = ShardLoadRung::calm;
  bool placement_closed = false;                 // from placement_closed: the fleet places no new room here
  RoomLoadRung room_floor = RoomLoadRung::calm;  // every room of the shard sheds at least this much
  bool migrate_costliest_room = false;           // from rooms_migrated: the fleet moves the costliest room away
  friend bool operator==(const ShardShedding&, const ShardShedding&) = default;
};

// What `rung` sheds: placement_closed closes placement; rooms_shed floors every room at
// interest_narrowed; admissions_closed floors them at the room ladder's top (no room of the shard
// admits a session); rooms_migrated asks the fleet to move the costliest room to another shard.
ShardShedding shard_shedding(ShardLoadRung rung);

// The rung a room runs at: its own ladder's, or its shard's floor when that is higher.
RoomLoadRung compose_room_rung(RoomLoadRung room_own, ShardLoadRung shard);

}  // namespace tickwire

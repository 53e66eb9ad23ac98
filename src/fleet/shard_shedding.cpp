// The shard ladder's rungs as what they shed: a fixed table (the order and the meaning of a rung are
// the engine's; only when a rung engages is policy), and the room floor that composes the ladders.
#include "tickwire/fleet/shard_shedding.h"

#include <algorithm>

#include "tickwire/core/assert.h"

namespace tickwire {
namespace {

RoomLoadRung room_floor_of(ShardLoadRung rung) {
  if (rung >= ShardLoadRung::admissions_closed) return RoomLoadRung::admissions_closed;
  if (rung >= ShardLoadRung::rooms_shed) return RoomLoadRung::interest_narrowed;
  return RoomLoadRung::calm;
}

}  // namespace

ShardShedding shard_shedding(ShardLoadRung rung) {
  TW_ASSERT(rung < ShardLoadRung::count_, "a shard rung");
  ShardShedding shedding;
  shedding.rung = rung;
  shedding.placement_closed = rung >= ShardLoadRung::placement_closed;
  shedding.room_floor = room_floor_of(rung);
  shedding.migrate_costliest_room = rung >= ShardLoadRung::rooms_migrated;
  return shedding;
}

RoomLoadRung compose_room_rung(RoomLoadRung room_own, ShardLoadRung shard) {
  return std::max(room_own, room_floor_of(shard));
}

}  // namespace tickwire

// What a room's rung in force sheds, applied to the room's server: its snapshots at the rung's
// limits (the world lane's rate, the radii, the budget) and its admissions open or closed.
#pragma once

#include "tickwire/fleet/room_shedding.h"
#include "tickwire/server/room_server.h"

namespace tickwire {

inline void apply_shedding(RoomServer& server, const RoomShedding& shedding) {
  server.set_replication_limits(replication_limits_of(shedding));
  server.set_admissions_open(!shedding.admissions_closed);
}

}  // namespace tickwire

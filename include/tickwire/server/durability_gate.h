// DurabilityGate: what the server asks before it acknowledges anything durable. A durable room
// (DurableState: the Room, over its game) hands each update's facts to the gate, which journals
// them; the server holds every acknowledgement made since (the game's entity events and messages,
// the scene edit set's revision, a resume ticket) until the gate says the update that made it is
// durable.
// So a client is never told of an edit or a write that a kill -9 could still take back. The
// durable/ module implements it (RoomKeeper); the server only asks. Updates, not ticks, are the
// unit: an edit lands between ticks, in the update that received it.
#pragma once

#include <cstdint>

#include "tickwire/clock/tick.h"
#include "tickwire/server/durable_state.h"

namespace tickwire {

class DurabilityGate {
 public:
  virtual ~DurabilityGate() = default;
  // The server's update number `update` (ascending from 1) is done with the room, whose last tick
  // run is `last_tick`: the gate takes the room's facts made since the last call.
  virtual void take_facts(DurableState& room, uint64_t update, Tick last_tick) = 0;
  // The newest update through which every fact is durable (0: none yet). Never moves back.
  virtual uint64_t durable_through() const = 0;
};

}  // namespace tickwire

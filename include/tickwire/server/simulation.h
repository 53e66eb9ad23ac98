// The Simulation seam: everything the engine needs from a game, and nothing more. The room owns
// the clock, the sessions and the inputs; the game steps pawns and its world and says what the
// tick's state is. The engine never includes the game (world/ or a user's own code): the game
// implements this interface and hands it to the room.
#pragma once

#include <cstdint>
#include <vector>

#include "tickwire/clock/tick.h"
#include "tickwire/protocol/record_batch.h"
#include "tickwire/protocol/snapshot.h"
#include "tickwire/replication/handles/entity_handle.h"
#include "tickwire/server/tick_input.h"
#include "tickwire/transport/message_envelope.h"

namespace tickwire {

class Simulation {
 public:
  virtual ~Simulation() = default;

  // A session was admitted: place the pawn the room allocated for `owner` (through the game's own
  // placement rules). A pawn leaving is despawned before its handle can be reused.
  virtual void spawn_pawn(EntityRef pawn, OwnerId owner, Tick tick) = 0;
  virtual void despawn_pawn(EntityRef pawn) = 0;

  // One fixed tick of one pawn, from the one input the room prepared for it this tick.
  virtual void step_pawn(EntityRef pawn, const TickInput& input, Tick tick, double dt_s) = 0;
  // The world's own tick, after every pawn stepped.
  virtual void step_world(Tick tick, double dt_s) = 0;

  // The owning client's view of its pawn as simulated (what prediction reconciles against).
  virtual protocol::PawnDetail pawn_detail(EntityRef pawn) const = 0;
  // What the game did with the claim that rode the pawn's input this tick (ClaimAccepted in the
  // owner detail, telemetry for its client): none when no claim was judged.
  virtual protocol::ClaimOutcome claim_outcome(EntityRef pawn) const {
    (void)pawn;
    return protocol::ClaimOutcome::none;
  }
  // The tick's state as records, appended to `out` (called once per snapshot tick).
  virtual void write_records(Tick tick, std::vector<protocol::Record>& out) const = 0;

  // The rest table's source (seed 000, "The rest table"): every map object's record as it stands
  // now, whole (every section, every field), ascending entity id. The room takes a MapRestTable
  // from it when map_generation() changes and when an entity the table names stops being written
  // by write_records. The default writes nothing: a game without map objects has no rest table.
  virtual void write_rest_records(std::vector<protocol::Record>& out) const { (void)out; }
  // Bumped each time the game installs or rebinds its map objects (a map switch, a reinstall, a
  // hot reload); the room polls it once per tick and retakes the rest table when it moves.
  // 0 means no map objects were ever installed.
  virtual uint64_t map_generation() const { return 0; }

  // A client's request naming `target`: called only after the room checked the target's
  // generation (a stale ref never reaches the game). The game judges range and rules itself.
  virtual void interact(EntityRef actor_pawn, EntityRef target, uint8_t action, Tick tick) {
    (void)actor_pawn, (void)target, (void)action, (void)tick;
  }
};

}  // namespace tickwire

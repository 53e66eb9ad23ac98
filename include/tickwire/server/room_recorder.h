// RoomRecorder: the one seam through which a room tells an observer everything that changes it, each
// at the tick it takes effect: the input each session's pawn applies on a tick (as applied, however
// it arrived), each session admitted, leaving, departing or resuming, and each interaction, construct
// call, shot, scene edit and world-settings change that reached the game. A recording (seed 002's
// replays of the snapshot modes: room_recording.h) and its replay (room_replay.h) both ride it.
#pragma once

#include <string_view>

#include "tickwire/clock/tick.h"
#include "tickwire/protocol/construct_call.h"
#include "tickwire/protocol/interact_request.h"
#include "tickwire/protocol/scene_edit.h"
#include "tickwire/protocol/world_settings.h"
#include "tickwire/replication/handles/entity_handle.h"
#include "tickwire/server/admission_grants.h"
#include "tickwire/server/fire_shot.h"
#include "tickwire/transport/message_envelope.h"

namespace tickwire {

class Room;

// Every call happens inside the room's own call, after the room accepted the change and before (or,
// for a session's arrival and departure, right after) the game hears of it. Between two ticks a
// change takes effect after the room's last tick; a shot released inside a tick (one that waited for
// its input) is told between inputs_prepared and tick_simulated of that tick.
class RoomRecorder {
 public:
  virtual ~RoomRecorder() = default;

  // Every session's input for `tick` is prepared (Room::session(owner)->inputs.current()); no pawn
  // has stepped yet.
  virtual void inputs_prepared(const Room& room, Tick tick) = 0;
  // The tick is simulated (pawns, held pawns, world, released shots); the completed seam is next.
  virtual void tick_simulated(const Room& room, Tick tick) = 0;

  virtual void admitted(OwnerId owner, EntityRef pawn, const AdmissionGrants& grants, std::string_view player) = 0;
  virtual void left(OwnerId owner) = 0;
  virtual void departed(OwnerId owner) = 0;  // its pawn now held for its player
  virtual void resumed(OwnerId owner, EntityRef pawn, std::string_view player, const AdmissionGrants& grants) = 0;
  virtual void world_settings_set(const protocol::WorldSettings& settings) = 0;
  virtual void interacted(OwnerId owner, const protocol::InteractRequest& request) = 0;
  virtual void construct_called(OwnerId owner, const protocol::ConstructCall& call) = 0;
  // A shot as the game is handed it (its rewind already bounded), traced on `tick`.
  virtual void fired(OwnerId owner, const FireShot& shot, Tick tick) = 0;
  virtual void edited(OwnerId owner, const protocol::SceneEdit& gesture) = 0;
};

}  // namespace tickwire

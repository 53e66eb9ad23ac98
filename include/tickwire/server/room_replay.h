// Replaying a room recording (seed 002, "Replays" of the snapshot modes): the recorded save state
// loaded into a fresh room with the recorded contract over the caller's game, every recorded change
// made again at its tick, each tick's applied inputs fed back and checked, and each tick's witness
// compared. The same build reproduces the run with 0 divergences; a build whose rules changed is
// told the first tick that differs, with both checksums.
#pragma once

#include <cstdint>
#include <optional>

#include "tickwire/core/reasons.h"
#include "tickwire/server/room_recording.h"
#include "tickwire/server/room_save_state.h"
#include "tickwire/server/simulation.h"

namespace tickwire {

// What differed first.
TW_REASONS(ReplayDivergence,
           witness,        // the tick's replicated state (its checksum differs from the recording's)
           applied_input,  // a session's applied input (another source, sequence or command), or
                           // another set of sessions than the recording's, on a tick
           change_refused, // a recorded change the replayed room would not make (an admission or a
                           // return refused, a shot or an interaction from no session, a pawn
                           // other than the one recorded)
           tick_not_run)   // the replayed room's clock did not run the recorded tick at its due time

struct RoomReplayVerdict {
  std::optional<SaveStateRefusal> load_refused;  // the recorded save state did not load
  uint64_t ticks_replayed = 0;
  uint64_t events_replayed = 0;
  std::optional<Tick> first_divergence;
  ReplayDivergence divergence = ReplayDivergence::witness;
  OwnerId owner = 0;               // the session an input or change divergence names
  uint64_t recorded_checksum = 0;  // a witness divergence: the recording's and the replay's
  uint64_t replayed_checksum = 0;
  bool diverged() const { return first_divergence.has_value(); }
};

// Replays `recording` (read_room_recording) over `game`, a fresh game over the map the recording's
// contract names (the caller checks the map; the game has heard no begin() yet), up to the first
// divergence.
RoomReplayVerdict replay_room_recording(const RoomRecording& recording, Simulation& game);

}  // namespace tickwire

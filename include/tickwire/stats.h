// What the facade reports: the server's and each client's figures, and every refusal, drop and kick
// the library counts, by name, so an operator sees why a client left without a debugger.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tickwire/core/owner_id.h"

namespace tickwire {

// One counted reason, named "area.reason" (e.g. "netcode.reject.token_expired", "relay.rate_limited").
struct ReasonCount {
  std::string name;
  uint64_t count = 0;
};

struct ServerStats {
  uint32_t clients = 0;              // admitted sessions now
  uint64_t sessions_admitted = 0;    // since start
  double tick_rate_hz = 0;           // the paced loop's measured rate
  double sleep_factor = 0;           // how far the host's sleeps overshoot (1: exact)
  uint64_t ticks_executed = 0;
  uint64_t ticks_declared = 0;       // ticks the room clock declared dropped (overload)
  int64_t last_tick = 0;
  uint64_t snapshots_sent = 0;
  uint64_t bytes_sent = 0;
  uint64_t bytes_received = 0;
  uint64_t relayed = 0;              // addressed messages relayed between clients
  uint64_t fires = 0;                // shots the room handed the game (past its rate and number checks)
  uint64_t hits_sent = 0;            // hit events sent, once per receiving session
  uint64_t edits = 0;                // scene edit gestures the room handed the game (world authority, rate)
  uint64_t scene_states_sent = 0;    // sceneNodeStates sent, once per receiving session and revision
  uint64_t resumes = 0;              // players back in the pawn their resume token named
  uint64_t superseded = 0;           // old connections dropped for their player's resumed one
  uint64_t held_pawns = 0;           // pawns held now for players who left
  uint64_t holds_expired = 0;        // holds that ran out (their players never came back)
  // Snapshot frames: each tick's states are kept once, shared by every client's sent frames.
  uint64_t world_frames = 0;         // shared frames allocated, each one tick's states (a high-water mark)
  uint64_t frame_states_copied = 0;  // states sent frames kept as their own copies instead (a cost per client)
  // Every nonzero refusal, drop and kick counter, and the contract's facts an operator must see
  // (contract.prediction_demoted.<why>: 1 when the room's requested prediction was demoted).
  std::vector<ReasonCount> reasons;
};

// One connected client as the server sees it.
struct ClientLink {
  OwnerId owner = 0;
  uint64_t client_id = 0;
  std::string address;
  bool admitted = false;
  int64_t admitted_tick = 0;
  uint32_t pawn_record_id = 0;  // its pawn's record (entity) id in the snapshots (0: none, a spectator)
  // The reliability layer.
  double rtt_ms = 0;
  double packet_loss = 0;
  uint64_t bytes_sent = 0;
  uint64_t bytes_received = 0;
  // Inputs: the signed queue-depth byte of the last tick (inputs waiting, or minus the starved run).
  bool has_depth = false;
  int8_t queue_depth = 0;
  uint64_t inputs_received = 0;
  uint64_t fresh_ticks = 0;
  uint64_t repeated_ticks = 0;
  uint64_t zeroed_ticks = 0;
  uint64_t awaiting_ticks = 0;  // before its first input arrived (the join; not starved)
  // Snapshots.
  uint64_t snapshots_sent = 0;
  uint64_t fragments_sent = 0;
  uint64_t snapshot_bytes = 0;
  uint64_t delta_snapshots = 0;
  uint64_t records_deferred = 0;
  std::vector<ReasonCount> reasons;  // input drops, snapshot holds, claim refusals... nonzero only
};

// A client's own view of its session (Client::stats()).
struct ClientStats {
  bool welcomed = false;
  uint64_t frames = 0;
  uint64_t inputs_sent = 0;
  uint64_t snapshots = 0;
  uint64_t snapshot_bytes = 0;
  uint64_t fragments = 0;
  double rtt_ms = 0;
  uint64_t bytes_sent = 0;
  uint64_t bytes_received = 0;
  bool link_failed = false;    // the reliability layer gave the connection up
  double clock_rate = 1.0;     // the clock regulator's rate
  double clock_margin_ticks = 0;  // the margin it earned above its base input-queue depth
  uint64_t clock_holds = 0;
  bool own_pawn_predicted = false;  // the room's contract admits predicting the own pawn
  uint64_t predicted_ticks = 0;     // client ticks the own pawn was predicted (0 when not admitted)
  uint64_t corrections = 0;    // prediction corrections eased out
  double correction_p99_m = 0;
  double correction_max_m = 0;
  uint64_t prediction_snaps = 0;
  uint64_t held_frames = 0;    // interpolation ran past the newest snapshot
  uint64_t render_snaps = 0;   // the render clock jumped
  uint64_t claims_accepted = 0;
  uint64_t claims_corrected = 0;
  uint64_t game_messages_received = 0;  // relayed from other clients or sent by the server
  std::vector<ReasonCount> reasons;  // drops, refusals, the disconnect cause
};

}  // namespace tickwire

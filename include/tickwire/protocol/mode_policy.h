// The runtime mode, a contract axis (seed 002, "Networking Overview"; DESIGN.md "The runtime
// modes"): the authoritative snapshot mode every room has run so far, the server-time mode, or the
// deterministic mode with its numbers: the rollback window, the input delay, the size of one input,
// the seats, and what happens to a peer that holds the others at the window (the lag policy); and
// the server-time mode's: the fastest client logic rate the room takes, and how far ahead of the
// server's time a client may stamp an input.
// Like every contract field it is resolved per room from its policy and hashed.
#pragma once

#include <cstdint>
#include <string_view>

#include "tickwire/protocol/contract_fields.h"
#include "tickwire/wire/types.h"

namespace tickwire {

enum class RuntimeMode : uint8_t {
  snapshot = 0,       // fixed server tick, inputs up, delta-coded snapshots down (the default)
  server_time = 1,    // server timestamps identify packets; clients run any logic rate
  deterministic = 2,  // frame-numbered inputs relayed to every peer, rollback and resimulation
  count_,
};
inline constexpr wire::NamedValue kRuntimeModeMembers[] = {{"snapshot", 0}, {"serverTime", 1}, {"deterministic", 2}};
inline constexpr wire::EnumDef kRuntimeModeDef{"RuntimeMode", kRuntimeModeMembers};

// What the others do when one peer holds them at the rollback window past the lag limit.
enum class LagPolicy : uint8_t {
  stall = 0,       // they wait for it (a peer gone for good is dropped when its connection times out)
  disconnect = 1,  // it is dropped: its inputs end, the others go on
  count_,
};
inline constexpr wire::NamedValue kLagPolicyMembers[] = {{"stall", 0}, {"disconnect", 1}};
inline constexpr wire::EnumDef kLagPolicyDef{"LagPolicy", kLagPolicyMembers};

inline constexpr uint32_t kContractMaxSeats = 16;
inline constexpr uint32_t kContractMaxInputBytes = 32;
inline constexpr uint32_t kContractMaxRollbackWindowFrames = 32;
inline constexpr uint32_t kContractMaxInputDelayFrames = 8;
inline constexpr uint32_t kContractMaxLagLimitMs = 600'000;
inline constexpr uint32_t kContractMaxCatchUpFrames = 32;

inline constexpr uint32_t kContractMaxClientLogicHz = 1000;
inline constexpr uint32_t kContractMaxStampLeadMs = 60'000;

// Server-time mode's numbers (read only in that mode). Each client runs its own logic rate, so the
// room cannot bound a session's input rate by its tick rate: the contract says how fast one may go.
struct ServerTimePolicy {
  uint32_t max_logic_hz = 240;     // inputs a second a client may send (its logic rate), x the slack
  uint32_t stamp_lead_ms = 1000;   // an input stamped further past the server's time is refused
  friend bool operator==(const ServerTimePolicy&, const ServerTimePolicy&) = default;

  static constexpr std::string_view wire_name = "ServerTimePolicy";
  template <class W>
  void fields(W& w) {
    contract_u32(w, "maxLogicHz", max_logic_hz, 1, kContractMaxClientLogicHz);
    contract_u32(w, "stampLeadMs", stamp_lead_ms, 1, kContractMaxStampLeadMs);
  }
};

// Deterministic mode's numbers (read only when the mode is deterministic; the logic rate is the
// cadence's tick rate).
struct DeterministicPolicy {
  uint32_t seats = 4;                   // the match starts when all are taken
  uint32_t input_bytes = 4;             // one seat's input for one frame
  uint32_t rollback_window_frames = 8;  // how far a peer may run past its confirmed frame
  uint32_t input_delay_frames = 2;      // a local input sampled at frame f is for frame f + delay
  LagPolicy lag_policy = LagPolicy::stall;
  uint32_t lag_limit_ms = 1000;         // how long one peer may hold the others at the window
  uint32_t max_catch_up_frames = 8;     // frames one update may run to catch the frame clock
  friend bool operator==(const DeterministicPolicy&, const DeterministicPolicy&) = default;

  static constexpr std::string_view wire_name = "DeterministicPolicy";
  template <class W>
  void fields(W& w) {
    contract_u32(w, "seats", seats, 1, kContractMaxSeats);
    contract_u32(w, "inputBytes", input_bytes, 1, kContractMaxInputBytes);
    contract_u32(w, "rollbackWindowFrames", rollback_window_frames, 1, kContractMaxRollbackWindowFrames);
    contract_u32(w, "inputDelayFrames", input_delay_frames, 0, kContractMaxInputDelayFrames);
    w.enum8("lagPolicy", lag_policy, kLagPolicyDef);
    contract_u32(w, "lagLimitMs", lag_limit_ms, 1, kContractMaxLagLimitMs);
    contract_u32(w, "maxCatchUpFrames", max_catch_up_frames, 1, kContractMaxCatchUpFrames);
  }
};

struct ModePolicy {
  RuntimeMode mode = RuntimeMode::snapshot;
  DeterministicPolicy deterministic;
  ServerTimePolicy server_time;
  friend bool operator==(const ModePolicy&, const ModePolicy&) = default;

  static constexpr std::string_view wire_name = "ModePolicy";
  template <class W>
  void fields(W& w) {
    w.enum8("mode", mode, kRuntimeModeDef);
    w.shape("deterministic", deterministic);
    w.shape("serverTime", server_time);
  }
};

}  // namespace tickwire

// The netcode contract (seed 003, "The contract is the interface"): one versioned, validated
// record resolved per room from its policy, telling every client whether to predict its pawn, how
// to interpolate, reconcile and budget, which vocabulary the game speaks and how the room sheds
// load. Its field table is the one statement of it: the wire, the canonical JSON (hashed to 16
// bytes), the validation and the revision key (the policy's identity and content) are walks of it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "tickwire/protocol/contract_error.h"
#include "tickwire/protocol/contract_fields.h"
#include "tickwire/protocol/contract_hash.h"
#include "tickwire/protocol/prediction_admission.h"
#include "tickwire/protocol/room_policy.h"

namespace tickwire {

// 2: interest, vocabulary; 3: cadence.timeScale; 4: prediction (the admission: the game's request,
// the transform owner, whether the own pawn is predicted, whether a requested prediction was demoted);
// 5: limits.firesPerSecond and limits.maxRewindMs (shots and their lag compensation); 6:
// limits.fireEyeToleranceM (how far a shot's claimed eye may stray from the server's),
// limits.pingsPerSecond, limits.kickAfterOffences and limits.offencesForgivenPerSecond (a flooding
// session is kicked); 7: limits.editsPerSecond (scene edit gestures); 8: load (the room and shard
// load ladders: each rung by name with its enter and release thresholds, the dwell, what a room's
// rungs shed by, the shard's tick-lag kill threshold); 9: mode (the runtime mode: snapshot, server
// time or deterministic, and deterministic mode's seats, input size, window, delay and lag policy);
// 10: mode.serverTime (the fastest client logic rate a server-time room takes, the stamp lead).
inline constexpr uint32_t kNetcodeContractVersion = 10;

struct NetcodeContract {
  uint32_t version = kNetcodeContractVersion;
  RoomIdentity identity;
  CadencePolicy cadence;
  uint32_t ticks_per_snapshot = 1;  // derived: tick rate / snapshot rate
  InterpolationPolicy interpolation;
  uint32_t interp_delay_ticks = 0;  // derived: ceil(intervals * ticks_per_snapshot) + 1 margin tick
  InputPolicy input;
  ByteBudgets budgets;
  InteractionLimits limits;
  InterestPolicy interest;
  PredictionAdmission prediction;  // derived: admit_prediction(the policy's prediction)
  GameVocabulary vocabulary;
  LoadPolicy load;
  ModePolicy mode;

  // The contract as it crosses the wire (in RoomWelcome): every field, derived ones included, so
  // the client validates the derivation and hashes exactly what it will obey.
  static constexpr std::string_view wire_name = "NetcodeContract";
  template <class W>
  void fields(W& w) {
    contract_u32(w, "version", version, kNetcodeContractVersion, kNetcodeContractVersion);
    w.shape("identity", identity);
    w.shape("cadence", cadence);
    contract_u32(w, "ticksPerSnapshot", ticks_per_snapshot, 1, kContractMaxTickRateHz);
    w.shape("interpolation", interpolation);
    contract_u32(w, "interpDelayTicks", interp_delay_ticks, 1, kContractMaxInterpBufferTicks);
    w.shape("input", input);
    w.shape("budgets", budgets);
    w.shape("limits", limits);
    w.shape("interest", interest);
    w.shape("prediction", prediction);
    w.shape("vocabulary", vocabulary);
    w.shape("load", load);
    w.shape("mode", mode);
  }
};

struct ContractResolution {
  std::optional<NetcodeContract> contract;
  ContractIssue issue;
  bool ok() const { return contract.has_value(); }
};

ContractIssue validate_room_policy(const RoomPolicy& policy);
// Validates a contract as a client receives it, derived fields included.
ContractIssue validate_netcode_contract(const NetcodeContract& contract);
// Policy -> validated contract, or the first issue.
ContractResolution resolve_netcode_contract(const RoomPolicy& policy);

// The world settings a room starts at: the contract's forgiveness and time scale.
protocol::WorldSettings initial_world_settings(const NetcodeContract& contract);

// The canonical JSON text of a contract (see canonical_json.h for the format).
std::string contract_canonical_json(const NetcodeContract& contract);
ContractHash contract_hash(const NetcodeContract& contract);

// The revision (cache) key: BLAKE2b-128 over the canonical JSON of the whole policy (its identity
// and content; a policy holds nothing volatile), under its own domain tag.
std::string contract_revision_key_json(const RoomPolicy& policy);
ContractHash contract_revision_key(const RoomPolicy& policy);

}  // namespace tickwire

// The netcode contract (seed 003, "The contract is the interface"): one versioned, validated
// record resolved per room from its policy, telling every client how to predict, interpolate,
// reconcile and budget. Its canonical JSON is hashed to 16 bytes; the revision key fingerprints
// the policy's identity and content, never its volatile bookkeeping.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "tickwire/protocol/contract_hash.h"
#include "tickwire/protocol/room_policy.h"

namespace tickwire {

inline constexpr uint32_t kNetcodeContractVersion = 1;

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
  GameVocabulary vocabulary;

  // The contract as it crosses the wire (in RoomWelcome): every field, derived ones included, so
  // the client validates the derivation and hashes exactly what it will obey.
  static constexpr std::string_view wire_name = "NetcodeContract";
  template <class W>
  void fields(W& w) {
    w.u32("version", version);
    w.shape("identity", identity);
    w.shape("cadence", cadence);
    w.u32("ticksPerSnapshot", ticks_per_snapshot);
    w.shape("interpolation", interpolation);
    w.u32("interpDelayTicks", interp_delay_ticks);
    w.shape("input", input);
    w.shape("budgets", budgets);
    w.shape("limits", limits);
  }
};

enum class ContractError : uint8_t {
  ok = 0,
  unsupported_version,
  field_empty,
  field_too_long,
  field_not_printable,  // outside printable ASCII
  not_finite,
  tick_rate_zero,
  tick_rate_too_high,
  snapshot_rate_zero,
  snapshot_rate_above_tick_rate,
  snapshot_rate_not_tick_divisor,
  catch_up_out_of_range,
  input_queue_out_of_range,
  starvation_out_of_range,
  forgiveness_out_of_range,
  interpolation_out_of_range,
  interpolation_delay_exceeds_buffer,
  budget_out_of_range,
  limit_out_of_range,
  derived_value_mismatch,  // a received contract whose derived fields disagree with its inputs
  count_,
};

std::string_view contract_error_name(ContractError error);

// The first thing wrong with a policy or contract, and the field it was found in.
struct ContractIssue {
  ContractError error = ContractError::ok;
  std::string_view field;
  bool ok() const { return error == ContractError::ok; }
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

// The canonical JSON text of a contract (see canonical_json.h for the format).
std::string contract_canonical_json(const NetcodeContract& contract);
ContractHash contract_hash(const NetcodeContract& contract);

// The revision (cache) key: BLAKE2b-128 over the canonical JSON of the policy's identity and
// content coordinates (every field but RoomBookkeeping), under its own domain tag.
std::string contract_revision_key_json(const RoomPolicy& policy);
ContractHash contract_revision_key(const RoomPolicy& policy);

}  // namespace tickwire

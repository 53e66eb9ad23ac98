// Resolving and validating the netcode contract: the validation walk over the field table (each
// field against its own range), then the rules between fields (contract_rules.cpp). First issue
// wins; the error names.
#include "tickwire/protocol/netcode_contract.h"

#include "contract_rules.h"
#include "tickwire/protocol/contract_validation_walker.h"

namespace tickwire {

ContractIssue validate_room_policy(const RoomPolicy& policy) {
  const ContractIssue issue = check_contract_fields(policy);
  if (!issue.ok()) return issue;
  const detail::ContractParts parts = detail::contract_parts(policy);
  return detail::check_contract_rules(parts, detail::derive_contract_values(parts));
}

ContractIssue validate_netcode_contract(const NetcodeContract& contract) {
  if (contract.version != kNetcodeContractVersion) return ContractIssue{ContractError::unsupported_version, "version"};
  const ContractIssue issue = check_contract_fields(contract);
  if (!issue.ok()) return issue;
  return detail::check_contract_rules(
      detail::contract_parts(contract),
      detail::ContractDerived{contract.ticks_per_snapshot, contract.interp_delay_ticks, contract.prediction});
}

ContractResolution resolve_netcode_contract(const RoomPolicy& policy) {
  ContractResolution resolution;
  resolution.issue = validate_room_policy(policy);
  if (!resolution.issue.ok()) return resolution;
  const detail::ContractDerived derived = detail::derive_contract_values(detail::contract_parts(policy));
  NetcodeContract contract;
  contract.identity = policy.identity;
  contract.cadence = policy.cadence;
  contract.ticks_per_snapshot = derived.ticks_per_snapshot;
  contract.interpolation = policy.interpolation;
  contract.interp_delay_ticks = derived.interp_delay_ticks;
  contract.input = policy.input;
  contract.budgets = policy.budgets;
  contract.limits = policy.limits;
  contract.interest = policy.interest;
  contract.prediction = derived.prediction;
  contract.vocabulary = policy.vocabulary;
  contract.load = policy.load;
  contract.mode = policy.mode;
  resolution.issue = validate_netcode_contract(contract);
  if (resolution.issue.ok()) resolution.contract = std::move(contract);
  return resolution;
}

protocol::WorldSettings initial_world_settings(const NetcodeContract& contract) {
  return protocol::WorldSettings{static_cast<float>(contract.input.forgiveness), static_cast<float>(contract.cadence.time_scale)};
}

}  // namespace tickwire

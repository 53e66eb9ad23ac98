// Resolving and validating the netcode contract: range checks with named errors (first issue
// wins, in a fixed order), and the derived values (ticks per snapshot, interpolation delay).
#include "tickwire/protocol/netcode_contract.h"

#include <cmath>

namespace tickwire {
namespace {

// Keeps the first issue found; later checks are still cheap no-ops.
class IssueFinder {
 public:
  void require(bool condition, ContractError error, std::string_view field) {
    if (!condition && issue_.ok()) issue_ = ContractIssue{error, field};
  }
  void require_real(double value, double lo, double hi, ContractError error, std::string_view field) {
    require(std::isfinite(value), ContractError::not_finite, field);
    require(value >= lo && value <= hi, error, field);
  }
  void require_whole(uint64_t value, uint64_t lo, uint64_t hi, ContractError error, std::string_view field) {
    require(value >= lo && value <= hi, error, field);
  }
  void require_text(std::string_view value, bool required, std::string_view field) {
    require(!required || !value.empty(), ContractError::field_empty, field);
    require(value.size() <= kContractMaxStringBytes, ContractError::field_too_long, field);
    for (const char c : value) require(c >= 0x20 && c <= 0x7e, ContractError::field_not_printable, field);
  }
  ContractIssue issue() const { return issue_; }

 private:
  ContractIssue issue_;
};

void check_identity(const RoomIdentity& id, IssueFinder& find) {
  find.require_text(id.room_id, true, "identity.room_id");
  find.require_text(id.game, true, "identity.game");
  find.require_text(id.deployment, true, "identity.deployment");
  find.require_text(id.content_version, true, "identity.content_version");
  find.require_text(id.environment, true, "identity.environment");
  find.require_text(id.blueprint, false, "identity.blueprint");
  find.require_text(id.room_template, false, "identity.room_template");
}

void check_cadence(const CadencePolicy& c, IssueFinder& find) {
  find.require(c.tick_rate_hz != 0, ContractError::tick_rate_zero, "cadence.tick_rate_hz");
  find.require(c.tick_rate_hz <= kContractMaxTickRateHz, ContractError::tick_rate_too_high, "cadence.tick_rate_hz");
  find.require(c.snapshot_rate_hz != 0, ContractError::snapshot_rate_zero, "cadence.snapshot_rate_hz");
  find.require(c.snapshot_rate_hz <= c.tick_rate_hz, ContractError::snapshot_rate_above_tick_rate,
               "cadence.snapshot_rate_hz");
  find.require(c.snapshot_rate_hz == 0 || c.tick_rate_hz % c.snapshot_rate_hz == 0,
               ContractError::snapshot_rate_not_tick_divisor, "cadence.snapshot_rate_hz");
  find.require_whole(c.max_catch_up_ticks, 1, kContractMaxCatchUpTicksCap, ContractError::catch_up_out_of_range,
                  "cadence.max_catch_up_ticks");
}

void check_interpolation(const InterpolationPolicy& i, IssueFinder& find) {
  constexpr ContractError range = ContractError::interpolation_out_of_range;
  find.require_real(i.delay_snapshot_intervals, 0.0, 16.0, range, "interpolation.delay_snapshot_intervals");
  find.require_whole(i.buffer_ticks, 2, kContractMaxInterpBufferTicks, range, "interpolation.buffer_ticks");
  find.require_real(i.margin_growth_ticks, 0.0, 64.0, range, "interpolation.margin_growth_ticks");
  find.require_real(i.max_margin_ticks, 0.0, static_cast<double>(i.buffer_ticks), range,
                  "interpolation.max_margin_ticks");
  find.require_real(i.margin_decay_seconds, 0.001, 3600.0, range, "interpolation.margin_decay_seconds");
  find.require_whole(i.max_extrapolation_ms, 0, 1000, range, "interpolation.max_extrapolation_ms");
}

void check_input(const InputPolicy& in, IssueFinder& find) {
  find.require_whole(in.queue_ticks, 1, kContractMaxInputQueueTicks, ContractError::input_queue_out_of_range,
                  "input.queue_ticks");
  find.require_whole(in.starvation_ticks, 0, 60, ContractError::starvation_out_of_range, "input.starvation_ticks");
  find.require_real(in.forgiveness, 0.0, 1.0, ContractError::forgiveness_out_of_range, "input.forgiveness");
}

void check_budgets(const ByteBudgets& b, IssueFinder& find) {
  constexpr ContractError range = ContractError::budget_out_of_range;
  find.require_whole(b.max_packet_bytes, kContractMinPacketBytes, kContractMaxPacketBytes, range,
                  "budgets.max_packet_bytes");
  find.require_whole(b.max_snapshot_fragments, 1, kContractMaxSnapshotFragments, range,
                  "budgets.max_snapshot_fragments");
  find.require_whole(b.snapshot_budget_bytes, 1, uint64_t{b.max_packet_bytes} * b.max_snapshot_fragments, range,
                  "budgets.snapshot_budget_bytes");
  find.require_whole(b.client_bytes_per_second, b.max_packet_bytes, 100'000'000, range,
                  "budgets.client_bytes_per_second");
}

void check_limits(const InteractionLimits& l, IssueFinder& find) {
  constexpr ContractError range = ContractError::limit_out_of_range;
  find.require_real(l.interaction_range_m, 0.01, 1000.0, range, "limits.interaction_range_m");
  find.require_whole(l.interactions_per_second, 1, 1000, range, "limits.interactions_per_second");
  find.require_whole(l.fire_per_second, 1, 1000, range, "limits.fire_per_second");
  find.require_whole(l.max_rewind_ms, 0, 1000, range, "limits.max_rewind_ms");
}

uint32_t derive_ticks_per_snapshot(const CadencePolicy& c) { return c.tick_rate_hz / c.snapshot_rate_hz; }

// ceil(intervals * ticks_per_snapshot) whole ticks plus one margin tick.
uint32_t derive_interp_delay_ticks(const InterpolationPolicy& i, uint32_t ticks_per_snapshot) {
  const double base = std::ceil(i.delay_snapshot_intervals * static_cast<double>(ticks_per_snapshot) - 1e-9);
  return static_cast<uint32_t>(base) + 1;
}

// The delay in force plus the most margin it may earn must still fit in the replica ring.
void check_delay_fits(const InterpolationPolicy& i, uint32_t delay_ticks, IssueFinder& find) {
  const double widest = static_cast<double>(delay_ticks) + std::ceil(i.max_margin_ticks);
  find.require(widest < static_cast<double>(i.buffer_ticks), ContractError::interpolation_delay_exceeds_buffer,
               "interpolation.buffer_ticks");
}

}  // namespace

std::string_view contract_error_name(ContractError error) {
  switch (error) {
    case ContractError::ok: return "ok";
    case ContractError::unsupported_version: return "unsupported_version";
    case ContractError::field_empty: return "field_empty";
    case ContractError::field_too_long: return "field_too_long";
    case ContractError::field_not_printable: return "field_not_printable";
    case ContractError::not_finite: return "not_finite";
    case ContractError::tick_rate_zero: return "tick_rate_zero";
    case ContractError::tick_rate_too_high: return "tick_rate_too_high";
    case ContractError::snapshot_rate_zero: return "snapshot_rate_zero";
    case ContractError::snapshot_rate_above_tick_rate: return "snapshot_rate_above_tick_rate";
    case ContractError::snapshot_rate_not_tick_divisor: return "snapshot_rate_not_tick_divisor";
    case ContractError::catch_up_out_of_range: return "catch_up_out_of_range";
    case ContractError::input_queue_out_of_range: return "input_queue_out_of_range";
    case ContractError::starvation_out_of_range: return "starvation_out_of_range";
    case ContractError::forgiveness_out_of_range: return "forgiveness_out_of_range";
    case ContractError::interpolation_out_of_range: return "interpolation_out_of_range";
    case ContractError::interpolation_delay_exceeds_buffer: return "interpolation_delay_exceeds_buffer";
    case ContractError::budget_out_of_range: return "budget_out_of_range";
    case ContractError::limit_out_of_range: return "limit_out_of_range";
    case ContractError::derived_value_mismatch: return "derived_value_mismatch";
    case ContractError::count_: break;
  }
  return "unknown";
}

ContractIssue validate_room_policy(const RoomPolicy& policy) {
  IssueFinder find;
  check_identity(policy.identity, find);
  check_cadence(policy.cadence, find);
  check_interpolation(policy.interpolation, find);
  check_input(policy.input, find);
  check_budgets(policy.budgets, find);
  check_limits(policy.limits, find);
  if (find.issue().ok()) {
    const uint32_t delay = derive_interp_delay_ticks(policy.interpolation, derive_ticks_per_snapshot(policy.cadence));
    check_delay_fits(policy.interpolation, delay, find);
  }
  return find.issue();
}

ContractIssue validate_netcode_contract(const NetcodeContract& contract) {
  IssueFinder find;
  find.require(contract.version == kNetcodeContractVersion, ContractError::unsupported_version, "version");
  check_identity(contract.identity, find);
  check_cadence(contract.cadence, find);
  check_interpolation(contract.interpolation, find);
  check_input(contract.input, find);
  check_budgets(contract.budgets, find);
  check_limits(contract.limits, find);
  if (!find.issue().ok()) return find.issue();
  const uint32_t ticks_per_snapshot = derive_ticks_per_snapshot(contract.cadence);
  find.require(contract.ticks_per_snapshot == ticks_per_snapshot, ContractError::derived_value_mismatch,
               "ticks_per_snapshot");
  find.require(contract.interp_delay_ticks == derive_interp_delay_ticks(contract.interpolation, ticks_per_snapshot),
               ContractError::derived_value_mismatch, "interp_delay_ticks");
  check_delay_fits(contract.interpolation, contract.interp_delay_ticks, find);
  return find.issue();
}

ContractResolution resolve_netcode_contract(const RoomPolicy& policy) {
  ContractResolution resolution;
  resolution.issue = validate_room_policy(policy);
  if (!resolution.issue.ok()) return resolution;
  NetcodeContract contract;
  contract.identity = policy.identity;
  contract.cadence = policy.cadence;
  contract.ticks_per_snapshot = derive_ticks_per_snapshot(policy.cadence);
  contract.interpolation = policy.interpolation;
  contract.interp_delay_ticks = derive_interp_delay_ticks(policy.interpolation, contract.ticks_per_snapshot);
  contract.input = policy.input;
  contract.budgets = policy.budgets;
  contract.limits = policy.limits;
  contract.interest = policy.interest;
  contract.vocabulary = policy.vocabulary;
  resolution.issue = validate_netcode_contract(contract);
  if (resolution.issue.ok()) resolution.contract = std::move(contract);
  return resolution;
}

}  // namespace tickwire

// The contract's cross-field rules, in a fixed order (first issue wins), and its derived values.
// Each single field's range is in its table, checked by the validation walk before these run.
#include "contract_rules.h"

#include <cmath>
#include <string>
#include <string_view>
#include <vector>

namespace tickwire::detail {
namespace {

class RuleFinder {
 public:
  bool ok() const { return issue_.ok(); }
  void fail(ContractError error, std::string path) {
    if (issue_.ok()) issue_ = ContractIssue{error, std::move(path)};
  }
  void require(bool holds, ContractError error, std::string_view path) {
    if (!holds) fail(error, std::string(path));
  }
  void adopt(const ContractIssue& issue) {
    if (issue_.ok()) issue_ = issue;
  }
  ContractIssue issue() const { return issue_; }

 private:
  ContractIssue issue_;
};

void check_cadence(const CadencePolicy& c, RuleFinder& find) {
  find.require(c.snapshot_rate_hz <= c.tick_rate_hz, ContractError::snapshot_rate_above_tick_rate,
               "cadence.snapshotRateHz");
  find.require(c.tick_rate_hz % c.snapshot_rate_hz == 0, ContractError::snapshot_rate_not_tick_divisor,
               "cadence.snapshotRateHz");
}

// A received contract's derived values must be what its inputs derive (a policy's are, by making).
void check_derived(const ContractDerived& derived, const ContractDerived& in_force, RuleFinder& find) {
  find.require(in_force.ticks_per_snapshot == derived.ticks_per_snapshot, ContractError::derived_value_mismatch,
               "ticksPerSnapshot");
  find.require(in_force.interp_delay_ticks == derived.interp_delay_ticks, ContractError::derived_value_mismatch,
               "interpDelayTicks");
}

// A received grant must be the resolver's for its request: a client never predicts more (or less)
// than the rules admit, whatever a sender wrote.
void check_prediction(const PredictionAdmission& admitted, const PredictionAdmission& in_force, RuleFinder& find) {
  constexpr ContractError mismatch = ContractError::prediction_admission_mismatch;
  find.require(in_force.transform_owner == admitted.transform_owner, mismatch, "prediction.transformOwner");
  find.require(in_force.own_pawn_predicted == admitted.own_pawn_predicted, mismatch, "prediction.ownPawnPredicted");
  find.require(in_force.demoted == admitted.demoted, mismatch, "prediction.demoted");
}

// The delay in force plus the most margin it may earn must still fit in the replica ring.
void check_interpolation(const InterpolationPolicy& i, uint32_t delay_ticks, RuleFinder& find) {
  const auto buffer = static_cast<double>(i.buffer_ticks);
  find.require(i.max_margin_ticks <= buffer, ContractError::margin_exceeds_buffer, "interpolation.maxMarginTicks");
  const double widest = static_cast<double>(delay_ticks) + std::ceil(i.max_margin_ticks);
  find.require(widest < buffer, ContractError::interpolation_delay_exceeds_buffer, "interpolation.bufferTicks");
}

void check_budgets(const ByteBudgets& b, RuleFinder& find) {
  find.require(uint64_t{b.snapshot_budget_bytes} <= uint64_t{protocol::MaxPacketBytes} * b.max_snapshot_fragments,
               ContractError::snapshot_budget_exceeds_fragments, "budgets.snapshotBudgetBytes");
}

void check_interest(const InterestPolicy& i, RuleFinder& find) {
  find.require(i.pose_radius_m <= i.radius_m, ContractError::pose_radius_exceeds_radius, "interest.poseRadiusM");
}

std::string element_path(std::string_view list, std::size_t index, std::string_view field) {
  return "vocabulary." + std::string(list) + "[" + std::to_string(index) + "]." + std::string(field);
}

template <class Def>
void check_unique_names(const std::vector<Def>& defs, std::string_view list, RuleFinder& find) {
  for (std::size_t i = 1; i < defs.size() && find.ok(); ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      if (defs[j].name == defs[i].name) return find.fail(ContractError::vocabulary_duplicate, element_path(list, i, "name"));
    }
  }
}

// One registered list: keys (ids or bits) ascending and unique, names unique.
template <class Def, class Key>
void check_keyed_list(const std::vector<Def>& defs, std::string_view list, std::string_view key_name, Key key,
                      RuleFinder& find) {
  for (std::size_t i = 1; i < defs.size() && find.ok(); ++i) {
    if (key(defs[i]) == key(defs[i - 1])) find.fail(ContractError::vocabulary_duplicate, element_path(list, i, key_name));
    if (key(defs[i]) < key(defs[i - 1])) find.fail(ContractError::vocabulary_unordered, element_path(list, i, key_name));
  }
  check_unique_names(defs, list, find);
}

// rotationSteps: 0 (rotationBits decides) or a grid of kVocabularyMinRotationSteps steps or more.
bool rotation_steps_valid(const KindPrecision& p) {
  return p.rotation_steps == 0 || p.rotation_steps >= kVocabularyMinRotationSteps;
}

void check_vocabulary(const GameVocabulary& v, RuleFinder& find) {
  check_keyed_list(v.kinds, "kinds", "id", [](const KindDef& d) { return d.id; }, find);
  for (std::size_t i = 0; i < v.kinds.size(); ++i) {
    if (!rotation_steps_valid(v.kinds[i].precision))
      find.fail(ContractError::out_of_range, element_path("kinds", i, "precision.rotationSteps"));
  }
  find.require(rotation_steps_valid(v.objects), ContractError::out_of_range, "vocabulary.objects.rotationSteps");
  check_keyed_list(v.entity_flags, "entityFlags", "bit", [](const FlagDef& d) { return d.bit; }, find);
  check_keyed_list(v.object_flags, "objectFlags", "bit", [](const FlagDef& d) { return d.bit; }, find);
  check_keyed_list(v.components, "components", "wireId", [](const ComponentDef& d) { return d.wire_id; }, find);
  check_unique_names(v.pawn_values, "pawnValues", find);
  check_keyed_list(v.buttons, "buttons", "bit", [](const ButtonDef& d) { return d.bit; }, find);
}

}  // namespace

ContractDerived derive_contract_values(const ContractParts& parts) {
  ContractDerived derived;
  derived.ticks_per_snapshot = parts.cadence.tick_rate_hz / parts.cadence.snapshot_rate_hz;
  const double base =
      std::ceil(parts.interpolation.delay_snapshot_intervals * static_cast<double>(derived.ticks_per_snapshot) - 1e-9);
  derived.interp_delay_ticks = static_cast<uint32_t>(base) + 1;
  derived.prediction = admit_prediction(parts.prediction);
  return derived;
}

ContractIssue check_contract_rules(const ContractParts& parts, const ContractDerived& in_force) {
  RuleFinder find;
  check_cadence(parts.cadence, find);
  if (find.ok()) {
    const ContractDerived derived = derive_contract_values(parts);
    check_derived(derived, in_force, find);
    check_prediction(derived.prediction, in_force.prediction, find);
  }
  check_interpolation(parts.interpolation, in_force.interp_delay_ticks, find);
  check_budgets(parts.budgets, find);
  check_interest(parts.interest, find);
  check_vocabulary(parts.vocabulary, find);
  find.adopt(check_load_policy(parts.load));
  return find.issue();
}

}  // namespace tickwire::detail

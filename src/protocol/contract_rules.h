// The contract's rules between fields, and its derived values: what no single field's table entry
// can say (a rate that must divide another, a delay that must fit a buffer, a vocabulary's ids in
// order). Run after the validation walk, on a policy and on a received contract alike.
// Internal to protocol/: netcode_contract.cpp is its one user.
#pragma once

#include <cstdint>

#include "tickwire/protocol/contract_error.h"
#include "tickwire/protocol/room_policy.h"

namespace tickwire::detail {

// The parts of a policy (or a contract) the rules read.
struct ContractParts {
  const CadencePolicy& cadence;
  const InterpolationPolicy& interpolation;
  const ByteBudgets& budgets;
  const InterestPolicy& interest;
  const GameVocabulary& vocabulary;
};

template <class P>
ContractParts contract_parts(const P& p) {
  return ContractParts{p.cadence, p.interpolation, p.budgets, p.interest, p.vocabulary};
}

uint32_t derive_ticks_per_snapshot(const CadencePolicy& cadence);
// ceil(intervals * ticks_per_snapshot) whole ticks plus one margin tick.
uint32_t derive_interp_delay_ticks(const InterpolationPolicy& interpolation, uint32_t ticks_per_snapshot);

// The first rule the parts break (every field already within its own range), or ok.
// `interp_delay_ticks`: the delay in force (derived for a policy, as received for a contract).
ContractIssue check_contract_rules(const ContractParts& parts, uint32_t interp_delay_ticks);

}  // namespace tickwire::detail

// The contract's rules between fields, and its derived values: what no single field's table entry
// can say (a rate that must divide another, a delay that must fit a buffer, a derived value that
// must equal its derivation, a prediction grant that must be the admission resolver's, a
// vocabulary's ids in order, a load ladder's rungs in order). Run after the validation walk, on a
// policy and on a received contract alike.
// Internal to protocol/: netcode_contract.cpp is its one user (load_policy_rules.cpp states the
// load ladders' part).
#pragma once

#include <cstdint>

#include "tickwire/protocol/contract_error.h"
#include "tickwire/protocol/load_policy.h"
#include "tickwire/protocol/prediction_admission.h"
#include "tickwire/protocol/room_policy.h"

namespace tickwire::detail {

// The parts of a policy (or a contract) the rules read.
struct ContractParts {
  const CadencePolicy& cadence;
  const InterpolationPolicy& interpolation;
  const ByteBudgets& budgets;
  const InterestPolicy& interest;
  const PredictionPolicy& prediction;  // the game's request (a contract carries it in its admission)
  const GameVocabulary& vocabulary;
  const LoadPolicy& load;
};

inline const PredictionPolicy& requested_prediction(const PredictionPolicy& policy) { return policy; }
inline const PredictionPolicy& requested_prediction(const PredictionAdmission& admission) { return admission.requested; }

template <class P>
ContractParts contract_parts(const P& p) {
  return ContractParts{p.cadence, p.interpolation, p.budgets, p.interest, requested_prediction(p.prediction), p.vocabulary,
                       p.load};
}

// The contract's derived values: ticks per snapshot (tick rate / snapshot rate), the
// interpolation delay (ceil(intervals x ticks per snapshot) whole ticks plus one margin tick) and
// the prediction admission (admit_prediction of the request).
struct ContractDerived {
  uint32_t ticks_per_snapshot = 0;
  uint32_t interp_delay_ticks = 0;
  PredictionAdmission prediction;
};
ContractDerived derive_contract_values(const ContractParts& parts);

// The first rule the parts break (every field already within its own range), or ok. `in_force`:
// the derived values the parts go with (derived for a policy, as received for a contract); they
// must equal their derivation.
ContractIssue check_contract_rules(const ContractParts& parts, const ContractDerived& in_force);

// The load ladders' rules (load_policy_rules.cpp): the first one `load` breaks, or ok.
ContractIssue check_load_policy(const LoadPolicy& load);

}  // namespace tickwire::detail

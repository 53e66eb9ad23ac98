// The relay's counters as the facade's named reasons, stated once for every facade that serves a
// relay (DeterministicHost, and DeterministicPlayer while its process hosts): its drops and
// refusals by reason, and the inputs and checksums it refused from the far future.
#pragma once

#include <vector>

#include "reason_list.h"
#include "tickwire/lockstep/lockstep_relay.h"

namespace tickwire {

inline void append_relay_reasons(std::vector<ReasonCount>& out, const lockstep::RelayStats& r) {
  append_reasons(out, "lockstep.drop", r.drops);
  append_reasons(out, "lockstep.refused", r.refused);
  if (r.inputs_too_early != 0) out.push_back(ReasonCount{"lockstep.inputs_too_early", r.inputs_too_early});
  if (r.checksums_too_early != 0) out.push_back(ReasonCount{"lockstep.checksums_too_early", r.checksums_too_early});
}

}  // namespace tickwire

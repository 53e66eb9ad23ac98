// Turning the library's reason counters into the facade's named list ("area.reason": count), the
// one way every refusal, drop and kick reaches stats, the CLI and metrics.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "tickwire/core/reason_counters.h"
#include "tickwire/core/reasons.h"
#include "tickwire/stats.h"

namespace tickwire {

// Appends every nonzero counter of `counters` as "area.reason".
template <class E>
void append_reasons(std::vector<ReasonCount>& out, std::string_view area, const ReasonCounters<E>& counters) {
  visit_nonzero(counters, [&](E reason, uint64_t count) {
    std::string name(area);
    name.append(".").append(reason_name(reason));
    out.push_back(ReasonCount{std::move(name), count});
  });
}

}  // namespace tickwire

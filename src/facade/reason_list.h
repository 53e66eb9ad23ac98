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
  for (std::size_t i = 0; i < ReasonCounters<E>::size(); ++i) {
    const auto reason = static_cast<E>(i);
    if (counters[reason] == 0) continue;
    std::string name(area);
    name.append(".").append(reason_name(reason));
    out.push_back(ReasonCount{std::move(name), counters[reason]});
  }
}

}  // namespace tickwire

// The facade's reason list ("area.reason": count) read from C one entry at a time: a count in the
// stats struct, then each name and count by index, so no list of strings crosses the boundary.
#pragma once

#include <cstdint>
#include <vector>

#include "tickwire/stats.h"
#include "tickwire/tickwire_c.h"

namespace tickwire::capi {

// Entry `index` of `reasons` (its name valid while the list is kept), or TW_ERR_INVALID_ARGUMENT.
inline tw_result reason_at(const std::vector<ReasonCount>& reasons, uint32_t index, const char** name, uint64_t* count) {
  if (name == nullptr || count == nullptr || index >= reasons.size()) return TW_ERR_INVALID_ARGUMENT;
  *name = reasons[index].name.c_str();
  *count = reasons[index].count;
  return TW_OK;
}

}  // namespace tickwire::capi

// The dynamic encoder: a DynTree (decoded by the schema walker, or rewritten by a plan) written as
// bytes of its schema, byte for byte what the typed codec writes for the same values. Derived
// parts are recomputed, not trusted: a counted list's count field, a sparse mask, a section's
// length. A field marked absent is written as its zero value, unless it sits after a tail with
// nothing but absent fields to the end of its scope: then the bytes end at the tail, as an older
// writer's would, and a typed reader keeps its own defaults for the rest.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "tickwire/core/status.h"
#include "tickwire/wire/dyn_value.h"

namespace tickwire::wire {

struct EncodeLimits {
  std::size_t max_bytes = std::size_t{1} << 20;   // bytes appended at most (buffer_full past it)
  std::size_t step_budget = std::size_t{1} << 22; // field visits at most (walk_budget_exceeded)
};

// Appends the bytes of `root` (a record of its tree's schema) to `out`. On an error `out` is
// left as it was. Zero values: 0, 0.0, false, "", zero bytes, an enum's first member (that fits
// the width), no flags, a nested shape of zero values, an absent optional, a list of its minimum
// count of zero-valued elements, an empty counted list or token list, a union's first case
// zeroed, a sparse member's mask bit clear, a quantized value nearest 0, the identity quaternion.
Status encode_dynamic(const DynValue& root, std::vector<uint8_t>& out, const EncodeLimits& limits = {});

}  // namespace tickwire::wire

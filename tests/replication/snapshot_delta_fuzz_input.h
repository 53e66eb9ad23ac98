// The input format of fuzz_snapshot_delta, shared with its seed corpus test: a flags byte saying
// which references the decoder is given, a u16 seed from which the baseline and older frames are
// built (so every input decodes against real frames), the body's u32 tick, then the body itself.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "replica_frame_support.h"
#include "tickwire/core/bytes.h"
#include "tickwire/replication/snapshot_delta_codec.h"

namespace tickwire::test {

inline constexpr uint8_t kFuzzBaseline = 1;   // the decoder is given a baseline
inline constexpr uint8_t kFuzzOlder = 2;      // and an older frame
inline constexpr uint8_t kFuzzRestFrame = 4;  // the baseline is the rest table's frame (tick 0)
inline constexpr std::size_t kFuzzHeaderBytes = 7;

struct FuzzReferences {
  ReplicaFrame rest, older, baseline;
  DeltaRefs refs;
};

// The frames a seed names: an older frame at tick 100, its successor 3 ticks on as the baseline,
// and a rest frame; `refs` points into the returned object (do not copy it).
inline void build_fuzz_references(uint8_t flags, uint16_t seed, FuzzReferences& out) {
  Rng rng(seed);
  out.rest = {};
  for (uint32_t id = 0; id < 40; ++id) {
    if (rng.chance(0.5)) out.rest.states.push_back(random_state(rng, id));
  }
  out.older = successor(rng, out.rest, 100, 48);
  out.baseline = successor(rng, out.older, 3, 48);
  out.refs = {};
  if (flags & kFuzzBaseline) out.refs.baseline = (flags & kFuzzRestFrame) ? &out.rest : &out.baseline;
  if (flags & kFuzzOlder) out.refs.older = &out.older;
}

inline std::vector<uint8_t> fuzz_input(uint8_t flags, uint16_t seed, uint32_t tick, std::span<const uint8_t> body) {
  std::vector<uint8_t> out(kFuzzHeaderBytes);
  out[0] = flags;
  store_le<uint16_t>(out.data() + 1, seed);
  store_le<uint32_t>(out.data() + 3, tick);
  out.insert(out.end(), body.begin(), body.end());
  return out;
}

}  // namespace tickwire::test

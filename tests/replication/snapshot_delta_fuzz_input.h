// The input format of fuzz_snapshot_delta, shared with its seed corpus test: a flags byte saying
// which references the decoder is given, a u16 seed from which the baseline and older frames are
// built (so every input decodes against real frames), the body's u32 tick, then the body itself.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "replica_frame_support.h"
#include "tickwire/core/bytes.h"
#include "tickwire/replication/frames/held_frames.h"
#include "tickwire/replication/delta/snapshot_delta_codec.h"

namespace tickwire::test {

inline constexpr uint8_t kFuzzBaseline = 1;   // the decoder is given a baseline
inline constexpr uint8_t kFuzzOlder = 2;      // and an older frame
inline constexpr uint8_t kFuzzRestFrame = 4;  // the baseline is the rest table's frame (tick 0)
inline constexpr uint8_t kFuzzHistory = 8;    // and the held frames a body may fit over
inline constexpr std::size_t kFuzzHeaderBytes = 7;

struct FuzzReferences {
  ReplicaFrame rest, older, baseline;
  HeldFrames history;  // older, two frames after it, and the baseline
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
  out.history.reset();
  out.history.keep(out.older);
  const ReplicaFrame between = successor(rng, out.older, 1, 48);
  out.history.keep(between);
  out.history.keep(successor(rng, between, 1, 48));
  out.history.keep(out.baseline);
  out.refs = {};
  if (flags & kFuzzHistory) out.refs.history = &out.history;
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

// The kinds both the target and its seeds use: kind 3 and map objects at their own precisions and
// fitted over the history, the others at the defaults (two-frame prediction).
inline ReplicaKinds fuzz_kinds() {
  ReplicaKinds k = ReplicaKinds::defaults();
  k.set(3, ReplicaPrecision{0.02f, 13, 0, true});
  k.set_objects(ReplicaPrecision{1.0f / 256.0f, 9, 2400, true});
  return k;
}

}  // namespace tickwire::test

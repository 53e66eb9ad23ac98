// What the SnapshotDelta encoder and decoder share above the records: the body's learnt models,
// the record operations, which references a body may use, and the walk through the older frame.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "delta_coding.h"
#include "delta_prediction.h"
#include "owner_detail_delta.h"
#include "record_delta.h"
#include "tickwire/replication/replica_state.h"

namespace tickwire::delta {

// When the next baseline record is not kept as it is: it changed, a record the baseline lacks is
// added before it, or it is removed.
enum class RecordOp : uint8_t { changed = 0, added = 1, removed = 2 };

// How the older frame saw a baseline record, the context of its "kept" decision: a record that
// changed from the older frame to the baseline is likely moving still, one that did not, at rest.
enum class KeepContext : uint8_t { no_older = 0, was_still = 1, was_changing = 2 };

struct FrameModels {
  BitModel owner_present;
  std::array<BitModel, 3> keep;               // by KeepContext
  BitModel end;                               // every remaining baseline record is unchanged?
  std::array<std::array<BitModel, 2>, 3> op;  // by the previous op: changed?, added?
  UIntModel id_gap;
  RecordModels record;
  OwnerModels owner;

  static const FrameModels& fresh();  // the priors every body starts from
};

template <class C>
RecordOp code_op(C& c, FrameModels& m, RecordOp previous, RecordOp op) {
  std::array<BitModel, 2>& models = m.op[static_cast<std::size_t>(previous)];
  bool is = op == RecordOp::changed;
  c.bit(models[0], is);
  if (is) return RecordOp::changed;
  is = op == RecordOp::added;
  c.bit(models[1], is);
  return is ? RecordOp::added : RecordOp::removed;
}

template <class C>
bool code_end(C& c, FrameModels& m, bool end) {
  c.bit(m.end, end);
  return end;
}

// The references a body is coded against, as both ends resolve them.
struct BodyRefs {
  const ReplicaFrame* baseline = nullptr;
  const ReplicaFrame* older = nullptr;  // only with an active extrapolation
  Extrapolation ex;                     // ex.ahead: ticks since the baseline (0 without one)
};

inline constexpr uint32_t kMaxReferenceAgeTicks = 255;  // the ages SnapshotDelta can name

// An older frame predicts only through a baseline snapshot (not the rest table's tick 0), both
// strictly in the past and within the ages the message can name.
inline bool older_usable(const ReplicaFrame& baseline, const ReplicaFrame& older, uint32_t tick) {
  return baseline.tick != 0 && older.tick < baseline.tick && baseline.tick < tick &&
         tick - baseline.tick <= kMaxReferenceAgeTicks && tick - older.tick <= kMaxReferenceAgeTicks;
}

inline BodyRefs body_refs(const ReplicaFrame* baseline, const ReplicaFrame* older, uint32_t tick) {
  BodyRefs r;
  r.baseline = baseline;
  if (baseline == nullptr) return r;
  r.ex.ahead = static_cast<int64_t>(tick) - static_cast<int64_t>(baseline->tick);
  if (older != nullptr && older_usable(*baseline, *older, tick)) {
    r.older = older;
    r.ex.active = true;
    r.ex.span = static_cast<int64_t>(baseline->tick) - static_cast<int64_t>(older->tick);
  }
  return r;
}

// Finds records of the older frame by ascending id, walking it once per body.
class OlderCursor {
 public:
  explicit OlderCursor(const ReplicaFrame* older) : older_(older) {}
  const ReplicaState* find(uint32_t id, const ReplicaState& base) {
    if (older_ == nullptr) return nullptr;
    const std::vector<ReplicaState>& states = older_->states;
    while (next_ < states.size() && states[next_].id < id) ++next_;
    if (next_ < states.size() && states[next_].id == id && states[next_].form == base.form) return &states[next_];
    return nullptr;
  }

 private:
  const ReplicaFrame* older_;
  std::size_t next_ = 0;
};

inline KeepContext keep_context(OlderCursor& older, const ReplicaState& base) {
  const ReplicaState* o = older.find(base.id, base);
  if (o == nullptr) return KeepContext::no_older;
  return *o == base ? KeepContext::was_still : KeepContext::was_changing;
}

template <class C>
bool code_keep(C& c, FrameModels& m, KeepContext context, bool keep) {
  c.bit(m.keep[static_cast<std::size_t>(context)], keep);
  return keep;
}

}  // namespace tickwire::delta

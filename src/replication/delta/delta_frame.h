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
#include "history_fit.h"
#include "world_settings_delta.h"
#include "tickwire/protocol/constants.h"
#include "tickwire/replication/frames/reference_frames.h"
#include "tickwire/replication/frames/replica_state.h"

namespace tickwire::delta {

// When the next baseline record is not kept as it is: it changed, a record the baseline lacks is
// added before it, or it is removed.
enum class RecordOp : uint8_t { changed = 0, added = 1, removed = 2 };
inline constexpr std::size_t kRecordOps = 3;

// What the walk does at the next baseline record, one symbol: keep it, or one of the operations.
enum class RecordStep : uint8_t { kept = 0, changed = 1, added = 2, removed = 3 };
inline constexpr RecordOp op_of(RecordStep step) { return static_cast<RecordOp>(static_cast<uint8_t>(step) - 1); }

// How the older frame saw a baseline record, the context of its "kept" decision: a record that
// changed from the older frame to the baseline is likely moving still, one that did not, at rest.
enum class KeepContext : uint8_t { no_older = 0, was_still = 1, was_changing = 2 };

struct FrameModels {
  BitModel owner_present;
  // The step at a baseline record, by its KeepContext and the previous operation.
  std::array<std::array<AdaptiveCdf, kRecordOps>, 3> step;
  BitModel end;               // every remaining baseline record is unchanged?
  BitModel fit, fit_frame;    // the body fits over history frames; which
  UIntModel id_gap;
  RecordModels record;
  OwnerModels owner;
  WorldModels world;

  static const FrameModels& fresh();  // the priors every body starts from
};

// The step at a baseline record. Past the baseline's records only an addition can follow, and
// nothing is coded for it. A symbol no step has is refused.
template <class C>
RecordStep code_step(C& c, FrameModels& m, KeepContext context, RecordOp previous, RecordStep step) {
  unsigned symbol = static_cast<unsigned>(step);
  c.symbol(m.step[static_cast<std::size_t>(context)][static_cast<std::size_t>(previous)], symbol);
  c.require(symbol <= static_cast<unsigned>(RecordStep::removed), DeltaRefusal::corrupt_stream);
  return symbol <= static_cast<unsigned>(RecordStep::removed) ? static_cast<RecordStep>(symbol) : RecordStep::removed;
}

template <class C>
bool code_end(C& c, FrameModels& m, bool end) {
  c.bit(m.end, end);
  return end;
}

// The references a body is coded against, as both ends resolve them.
struct BodyRefs {
  FrameView baseline;
  FrameView older;  // only with an active extrapolation
  Extrapolation ex;                     // ex.ahead: ticks since the baseline (0 without one)
};

inline constexpr uint32_t kMaxReferenceAgeTicks = 255;  // the ages SnapshotDelta can name

// An older frame predicts only through a baseline snapshot (not the rest table's tick 0), both
// strictly in the past and within the ages the message can name.
inline bool older_usable(const FrameView& baseline, const FrameView& older, uint32_t tick) {
  return baseline.tick() != 0 && older.tick() < baseline.tick() && baseline.tick() < tick &&
         tick - baseline.tick() <= kMaxReferenceAgeTicks && tick - older.tick() <= kMaxReferenceAgeTicks;
}

inline BodyRefs body_refs(const FrameView& baseline, const FrameView& older, uint32_t tick) {
  BodyRefs r;
  r.baseline = baseline;
  if (!baseline) return r;
  r.ex.ahead = static_cast<int64_t>(tick) - static_cast<int64_t>(baseline.tick());
  if (older && older_usable(baseline, older, tick)) {
    r.older = older;
    r.ex = Extrapolation::over(r.ex.ahead, static_cast<int64_t>(baseline.tick()) - static_cast<int64_t>(older.tick()));
  }
  return r;
}

// Whether a record's prediction may be fitted over the history: its kind says its motion is
// smooth enough (ReplicaPrecision::fit_history); both ends read the same registry.
inline bool kind_fits(const ReplicaState& base, const ReplicaKinds& kinds) {
  return precision_of(base, kinds).fit_history;
}

inline bool any_kind_fits(const FrameView& frame, const ReplicaKinds& kinds) {
  if (!kinds.any_fit_history()) return false;  // no frame's records can fit: no scan
  for (std::size_t i = 0; i < frame.size(); ++i) {
    if (kind_fits(frame[i], kinds)) return true;
  }
  return false;
}

// Finds records of the older frame by ascending id, walking it once per body.
using OlderCursor = FrameCursor;

inline constexpr uint32_t kMinFitFrames = 2;  // history frames besides the baseline a fit needs

// The ticks before the baseline a body may name for its fit: within MaxBaselineTicks of `tick`.
inline uint32_t fit_backs(uint32_t baseline_tick, uint32_t tick) {
  const uint32_t window = static_cast<uint32_t>(protocol::MaxBaselineTicks);
  const uint32_t oldest = tick > window ? tick - window : 1;
  const uint32_t backs = baseline_tick > oldest ? baseline_tick - oldest : 0;
  return backs < kMaxFitFrames - 1 ? backs : static_cast<uint32_t>(kMaxFitFrames - 1);
}

// The frames `history` holds among those a body may name.
inline uint32_t held_fit_frames(const ReferenceFrames& history, uint32_t baseline_tick, uint32_t tick) {
  uint32_t held = 0;
  for (uint32_t back = 1; back <= fit_backs(baseline_tick, tick); ++back) held += history.held_frame(baseline_tick - back) ? 1u : 0u;
  return held;
}

// The history frames a body fits over, named after its owner detail, both directions: when the
// baseline is a snapshot with records (a fit predicts only records the baseline holds), bit(fit); if set, for each tick before the baseline in the window,
// newest first, bit(used). The encoder uses the frames the history holds, every `stride`-th of
// them (newest first) so that at most `max_frames` span the window; the decoder refuses a body
// naming one its history lacks. Returns whether the body fits.
template <class C>
bool code_fit_window(C& c, FrameModels& m, const BodyRefs& refs, const ReferenceFrames* history, bool fit,
                     uint32_t tick, FitWindow& window, uint32_t stride = 1) {
  window.reset(static_cast<int32_t>(refs.ex.ahead));
  if (!refs.baseline || refs.baseline.tick() == 0 || refs.baseline.empty()) return false;
  c.bit(m.fit, fit);
  if (!fit) return false;
  const uint32_t baseline_tick = refs.baseline.tick();
  uint32_t held = 0;
  for (uint32_t back = 1; back <= fit_backs(baseline_tick, tick); ++back) {
    const FrameView frame = history != nullptr ? history->held_frame(baseline_tick - back) : FrameView();
    bool used = frame && held++ % stride == 0;
    c.bit(m.fit_frame, used);
    if (!used) continue;
    c.require(frame && frame.tick() == baseline_tick - back, DeltaRefusal::missing_history);
    if (c.failed()) return false;
    window.add(frame, -static_cast<int32_t>(back));
  }
  return true;
}

inline KeepContext keep_context(OlderCursor& older, const ReplicaState& base) {
  const ReplicaState* o = older.find(base.id, base);
  if (o == nullptr) return KeepContext::no_older;
  return same_record(*o, base) ? KeepContext::was_still : KeepContext::was_changing;
}


}  // namespace tickwire::delta

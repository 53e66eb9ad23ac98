// Prediction fitted over many held frames: the baseline and up to 31 frames before it that the
// client is known to hold. A least-squares polynomial through them (its degree set by their span)
// averages the references' quantization noise away and follows curved motion, where extrapolating
// from two frames amplifies the noise and misses the curvature. Integers only, on both ends.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "delta_prediction.h"
#include "tickwire/replication/frames/frame_view.h"
#include "tickwire/replication/frames/replica_kinds.h"
#include "tickwire/replication/frames/replica_state.h"

namespace tickwire::delta {

inline constexpr std::size_t kMaxFitFrames = 32;  // the baseline and at most 31 frames before it
inline constexpr int kFitWeightBits = 24;         // weights are Q24
inline constexpr int kFitFractionBits = 8;        // fitted positions carry 8 bits below a quantum

// A state's precision: its kind's, or the objects' for an object record.
inline const ReplicaPrecision& precision_of(const ReplicaState& s, const ReplicaKinds& kinds) {
  return s.form == ReplicaForm::object ? kinds.objects() : kinds.of(s.kind);
}

// A state's smallest-three max step.
inline int32_t max_step_of(const ReplicaState& s, const ReplicaKinds& kinds) {
  return rotation_max_step(precision_of(s, kinds));
}

// Weights w (Q24, summing to about one) such that sum w_i y_i is the value at `ahead` ticks past
// the baseline of the least-squares polynomial through the points y_i at tick offsets taus_i
// (taus[0] = 0 the baseline, the rest negative, distinct). The degree is 1, 2 or 3 as the
// points span fewer than 6, fewer than 12 or more ticks (and below their count). n == 0: no fit.
struct FitWeights {
  uint32_t n = 0;
  std::array<int64_t, kMaxFitFrames> w{};
};
FitWeights fit_weights(std::span<const int32_t> taus, int32_t ahead);

// Finds records of a frame by ascending id, walking it once per body.
class FrameCursor {
 public:

  FrameCursor() = default;
  explicit FrameCursor(const FrameView& frame) : frame_(frame) {}
  // The record of `id` in the frame when it has `base`'s form, else null.
  const ReplicaState* find(uint32_t id, const ReplicaState& base) {
    const std::size_t size = frame_.size();  // no frame: empty
    while (next_ < size && frame_[next_].id < id) ++next_;
    frame_.prefetch(next_ + kPrefetchAheadRecords);
    if (next_ < size && frame_[next_].id == id && frame_[next_].form == base.form) return &frame_[next_];
    return nullptr;
  }

 private:
  FrameView frame_;
  std::size_t next_ = 0;
};

// One record's fit: its state in the baseline (first) and in each window frame that holds it
// in the same form and kind, with or without a rotation alike.
struct RecordFit {
  uint32_t n = 0;
  std::array<const ReplicaState*, kMaxFitFrames> states{};
  std::array<int32_t, kMaxFitFrames> taus{};
  const FitWeights* weights = nullptr;  // into the window (all frames) or `own`
  FitWeights own;
};

// The frames a body fits over, in the order the body names them (newest first).
class FitWindow {
 public:
  void reset(int32_t ahead);
  void add(const FrameView& frame, int32_t tau);  // tau < 0, descending
  uint32_t frames() const { return count_; }
  // Fills `out` for the baseline record `base` (records asked in ascending id); false when no
  // window frame holds it (nothing to fit).
  bool gather(const ReplicaState& base, RecordFit& out);

 private:
  uint32_t count_ = 0;
  int32_t ahead_ = 0;
  std::array<FrameCursor, kMaxFitFrames - 1> cursors_{};
  std::array<int32_t, kMaxFitFrames> taus_{};  // taus_[0] = 0: the baseline
  FitWeights all_;                             // for a record every frame holds
  uint32_t all_for_ = UINT32_MAX;              // the frame count all_ was computed for
};

// The fitted value of position axis `axis` in 1/256 quanta, or the baseline's when the record
// jumped too far to fit (a teleport).
int64_t fit_position_q8(const RecordFit& fit, std::size_t axis);
// The fitted rotation: each frame's rotation from the baseline's as a rotation vector (where a
// steady spin is a line), fitted to the body's tick and applied to the baseline's. The records
// hold rotations.
Quat30 fit_rotation(const RecordFit& fit, const ReplicaKinds& kinds);

}  // namespace tickwire::delta

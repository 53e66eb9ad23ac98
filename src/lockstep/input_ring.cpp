// InputRing: slots keyed by frame modulo capacity, each tagged with its frame, so a stale slot is
// never read as a newer frame's input.
#include "tickwire/lockstep/input_ring.h"

#include <algorithm>

#include "tickwire/core/assert.h"

namespace tickwire::lockstep {

namespace {
const uint8_t kZeros[64] = {};
}

InputRing::InputRing(uint32_t capacity_frames, uint32_t input_bytes, uint32_t known_through)
    : capacity_(capacity_frames),
      input_bytes_(input_bytes),
      known_through_(known_through),
      contiguous_(known_through),
      frames_(capacity_frames, 0),
      bytes_(static_cast<std::size_t>(capacity_frames) * input_bytes, 0) {
  TW_ASSERT(capacity_frames >= 4 && capacity_frames % 2 == 0, "an input ring needs an even room of four or more");
  TW_ASSERT(input_bytes > 0 && input_bytes <= sizeof(kZeros), "input size outside the ring's bound");
}

bool InputRing::held(uint32_t frame) const { return frame != 0 && frames_[slot(frame)] == frame; }

InputRing::Put InputRing::put(uint32_t frame, std::span<const uint8_t> input) {
  TW_ASSERT(input.size() == input_bytes_, "an input of the wrong size");
  if (frame <= contiguous_ || held(frame)) return Put::duplicate;
  if (frame > contiguous_ + capacity_ / 2) return Put::too_far_ahead;
  frames_[slot(frame)] = frame;
  std::copy(input.begin(), input.end(), bytes_.begin() + static_cast<std::ptrdiff_t>(slot(frame)) * input_bytes_);
  while (held(contiguous_ + 1)) ++contiguous_;
  return Put::stored;
}

void InputRing::skip_to(uint32_t frame) {
  if (frame <= contiguous_) return;
  std::fill(frames_.begin(), frames_.end(), 0u);
  contiguous_ = frame;
  forgotten_through_ = frame;
}

std::optional<std::span<const uint8_t>> InputRing::find(uint32_t frame) const {
  if (forgotten_through_ != 0 && frame <= forgotten_through_) return std::nullopt;
  if (frame <= known_through_) return std::span<const uint8_t>(kZeros, input_bytes_);  // frame 0 included: before the first
  if (!held(frame) || frame < oldest_kept()) return std::nullopt;
  return std::span<const uint8_t>(bytes_.data() + static_cast<std::size_t>(slot(frame)) * input_bytes_, input_bytes_);
}

uint32_t InputRing::oldest_kept() const {
  const uint32_t history = capacity_ / 2;
  const uint32_t oldest = contiguous_ > history ? contiguous_ - history + 1 : 1;
  return std::max(oldest, forgotten_through_ + 1);
}

}  // namespace tickwire::lockstep

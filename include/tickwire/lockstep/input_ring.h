// One peer's inputs by frame, in storage allocated once: the authority's canonical history and a
// peer's view of every seat. Frames arrive out of order and twice; the ring knows the newest frame
// through which it holds every input (contiguous), keeps half its room behind that frame for
// history and takes at most half its room ahead of it, so nothing still needed is overwritten.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace tickwire::lockstep {

class InputRing {
 public:
  // Holds frames up to `capacity_frames` apart; every input is `input_bytes` long. Frames up to
  // `known_through` count as held (the zero inputs before the first sampled frame).
  InputRing(uint32_t capacity_frames, uint32_t input_bytes, uint32_t known_through);

  enum class Put : uint8_t { stored, duplicate, too_far_ahead };
  // Stores a frame's input (a frame already held is a duplicate and is not compared).
  Put put(uint32_t frame, std::span<const uint8_t> input);
  // Declares every frame through `frame` held and forgotten (a relay restored from a state that
  // starts there): contiguous() moves to it; nothing at or before it can be found.
  void skip_to(uint32_t frame);
  // The input of a frame still held, or nothing (unknown, or too old).
  std::optional<std::span<const uint8_t>> find(uint32_t frame) const;
  // The newest frame through which every input is held.
  uint32_t contiguous() const { return contiguous_; }
  // The oldest frame still guaranteed held (history kept behind contiguous()).
  uint32_t oldest_kept() const;
  uint32_t input_bytes() const { return input_bytes_; }

 private:
  uint32_t slot(uint32_t frame) const { return frame % capacity_; }
  bool held(uint32_t frame) const;

  uint32_t capacity_;
  uint32_t input_bytes_;
  uint32_t known_through_;       // frames up to here read as zeros
  uint32_t forgotten_through_ = 0;  // frames up to here were skipped (skip_to)
  uint32_t contiguous_;
  std::vector<uint32_t> frames_;  // the frame each slot holds (0 = none)
  std::vector<uint8_t> bytes_;
};

}  // namespace tickwire::lockstep

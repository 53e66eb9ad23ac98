// Input runs: how a stretch of one seat's inputs crosses the wire. Players hold their controls for
// many frames, so consecutive equal inputs travel once with a count: [count u8, 1..255][the input]
// per run. Reading checks every count and length and the number of frames it adds up to.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "tickwire/core/status.h"
#include "tickwire/lockstep/lockstep_messages.h"

namespace tickwire::lockstep {

// Appends inputs one frame at a time, folding each into the run before it when equal.
class InputRunWriter {
 public:
  // `out` is cleared; every input is `input_bytes` long.
  InputRunWriter(std::vector<InputByte>& out, uint32_t input_bytes);
  void add(std::span<const uint8_t> input);
  uint32_t frames() const { return frames_; }

 private:
  std::vector<InputByte>& out_;
  uint32_t input_bytes_;
  uint32_t frames_ = 0;
  std::size_t count_at_ = 0;  // where the current run's count byte is
};

// Calls visit(frame_offset, input) for every frame the runs hold, in order, after checking them
// whole: a zero count, a run cut short, or more than `max_frames` frames is refused (and nothing
// is visited).
template <class Visit>
Status read_input_runs(const std::vector<InputByte>& runs, uint32_t input_bytes, uint32_t max_frames, Visit&& visit) {
  uint32_t frames = 0;
  for (std::size_t at = 0; at < runs.size(); at += 1 + input_bytes) {
    if (runs[at].value == 0) return Error::value_out_of_range;
    if (runs.size() - at - 1 < input_bytes) return Error::truncated;
    frames += runs[at].value;
    if (frames > max_frames) return Error::count_over_max;
  }
  std::array<uint8_t, kMaxInputBytes> input{};
  uint32_t offset = 0;
  for (std::size_t at = 0; at < runs.size(); at += 1 + input_bytes) {
    for (uint32_t b = 0; b < input_bytes; ++b) input[b] = runs[at + 1 + b].value;
    for (uint32_t r = 0; r < runs[at].value; ++r) visit(offset++, std::span<const uint8_t>(input.data(), input_bytes));
  }
  return Error::ok;
}

}  // namespace tickwire::lockstep

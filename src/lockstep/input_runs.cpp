// InputRunWriter: a run grows while the next input equals it and its count has room.
#include "tickwire/lockstep/input_runs.h"

#include <algorithm>

#include "tickwire/core/assert.h"

namespace tickwire::lockstep {

InputRunWriter::InputRunWriter(std::vector<InputByte>& out, uint32_t input_bytes) : out_(out), input_bytes_(input_bytes) {
  out_.clear();
}

void InputRunWriter::add(std::span<const uint8_t> input) {
  TW_ASSERT(input.size() == input_bytes_, "an input of the wrong size");
  const bool extends = frames_ > 0 && out_[count_at_].value < 255 &&
                       std::equal(input.begin(), input.end(), out_.begin() + static_cast<std::ptrdiff_t>(count_at_) + 1,
                                  [](uint8_t a, const InputByte& b) { return a == b.value; });
  ++frames_;
  if (extends) {
    ++out_[count_at_].value;
    return;
  }
  count_at_ = out_.size();
  out_.push_back(InputByte{1});
  for (uint8_t b : input) out_.push_back(InputByte{b});
}

}  // namespace tickwire::lockstep

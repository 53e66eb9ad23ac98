// The pending-input ring and its redundant frames.
#include "tickwire/client/input_sender.h"

#include <algorithm>

#include "tickwire/core/assert.h"

namespace tickwire {

InputSender::InputSender(uint32_t first_sequence, std::size_t max_inputs_per_frame)
    : oldest_(first_sequence), next_(first_sequence), max_per_frame_(max_inputs_per_frame) {
  TW_ASSERT(max_per_frame_ >= 1 && max_per_frame_ <= protocol::MaxInputsPerPacket,
            "inputs per frame must be 1..MaxInputsPerPacket");
}

uint32_t InputSender::push(const protocol::InputCmd& cmd) {
  TW_ASSERT(next_ != UINT32_MAX, "input sequences end at the top of the u32 space");
  if (pending_count() == kInputSenderPendingCap) {
    ++oldest_;
    ++overflowed_;
  }
  const uint32_t sequence = next_++;
  ring_[sequence % kInputSenderPendingCap] = cmd;
  return sequence;
}

void InputSender::ack(uint32_t sequence) {
  if (last_acked_ && sequence <= *last_acked_) return;
  if (sequence >= next_) return;  // names an input never sent: a hostile or confused ack changes nothing
  last_acked_ = sequence;
  oldest_ = std::max(oldest_, sequence + 1);
}

bool InputSender::build_frame(protocol::InputFrame& out) const {
  const std::size_t count = std::min(pending_count(), max_per_frame_);
  if (count == 0) return false;
  out.first_sequence = next_ - static_cast<uint32_t>(count);
  out.inputs.resize(count);
  for (std::size_t i = 0; i < count; ++i) {
    out.inputs[i] = ring_[(out.first_sequence + i) % kInputSenderPendingCap];
  }
  out.claim.reset();
  return true;
}

const protocol::InputCmd* InputSender::pending(uint32_t sequence) const {
  if (sequence < oldest_ || sequence >= next_) return nullptr;
  return &ring_[sequence % kInputSenderPendingCap];
}

}  // namespace tickwire

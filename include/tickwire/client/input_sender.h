// InputSender: the client's un-acked inputs, numbered by sequence, and the redundant frames that
// carry them. Inputs go up unreliably; every frame repeats the newest un-acked inputs (up to a
// cap) so a lost packet costs nothing while a later one arrives. The server's honest ack (the last
// input it simulated) retires them. The pending ring is capped; overflowing it forgets the oldest.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>

#include "tickwire/protocol/constants.h"
#include "tickwire/protocol/input_frame.h"

namespace tickwire {

inline constexpr std::size_t kInputSenderPendingCap = 128;  // ~2 s of input at 60 Hz

class InputSender {
 public:
  explicit InputSender(uint32_t first_sequence = 0, std::size_t max_inputs_per_frame = protocol::MaxInputsPerPacket);

  // Records the input for the client's next tick and returns its sequence.
  uint32_t push(const protocol::InputCmd& cmd);
  // The server applied every input up to `sequence` (an older or repeated ack changes nothing).
  void ack(uint32_t sequence);
  // The frame to send now: the newest un-acked inputs, oldest first. False when none is pending.
  bool build_frame(protocol::InputFrame& out) const;

  // The input with this sequence, while it is still pending (prediction replays from these).
  const protocol::InputCmd* pending(uint32_t sequence) const;
  uint32_t next_sequence() const { return next_; }
  uint32_t oldest_pending() const { return oldest_; }
  std::size_t pending_count() const { return next_ - oldest_; }
  std::optional<uint32_t> last_acked() const { return last_acked_; }
  uint64_t overflowed() const { return overflowed_; }
  std::size_t max_inputs_per_frame() const { return max_per_frame_; }

 private:
  std::array<protocol::InputCmd, kInputSenderPendingCap> ring_{};
  uint32_t oldest_;  // oldest pending sequence
  uint32_t next_;    // sequence the next push gets
  std::optional<uint32_t> last_acked_;
  std::size_t max_per_frame_;
  uint64_t overflowed_ = 0;
};

}  // namespace tickwire

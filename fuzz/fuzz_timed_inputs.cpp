// Fuzzes a server-time room's input path (a client's timedInputFrame is untrusted input): a script of
// bytes alternates ticks with frames decoded from the bytes that follow (as the room server decodes
// and checks them), fed to a merging SessionInputs. Any rule it breaks traps: the honest ack never
// goes back and only ever names a sequence that arrived, the queue never holds more than its cap,
// a merged input's axes stay within [-1, 1] and its buttons within the vocabulary's, and a frame
// stamped past the lead queues nothing.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <span>

#include "tickwire/protocol/timed_input_frame.h"
#include "tickwire/server/session_inputs.h"
#include "tickwire/wire/codec.h"

namespace {

constexpr uint64_t kTickUs = 33'333;
constexpr uint64_t kLeadUs = 1'000'000;
constexpr uint32_t kKnownButtons = 0x3F;

[[noreturn]] void violated(const char* rule) {
  std::fprintf(stderr, "timed inputs: %s\n", rule);
  __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  using namespace tickwire;
  InputQueueConfig config;
  config.merge_arrived = true;
  config.known_buttons = kKnownButtons;
  SessionInputs inputs(config);
  int64_t tick = 0;
  std::optional<uint32_t> ack;
  uint64_t highest_offered = 0;
  bool offered = false;
  std::size_t at = 0;
  while (at < size) {
    const uint8_t op = data[at++];
    if (op < 0x40) {  // a tick
      const TickInput& taken = inputs.prepare(Tick::from_value(++tick));
      const std::optional<uint32_t> now_acked = inputs.queue().ack_sequence();
      if (ack && (!now_acked || *now_acked < *ack)) violated("the ack went back");
      if (now_acked && (!offered || *now_acked > highest_offered)) violated("the ack names a sequence that never arrived");
      ack = now_acked;
      if (taken.cmd.move_x < -1.0f || taken.cmd.move_x > 1.0f || taken.cmd.move_y < -1.0f || taken.cmd.move_y > 1.0f)
        violated("a merged axis left [-1, 1]");
      if ((taken.cmd.buttons & ~kKnownButtons) != 0) violated("a merged input holds a button the vocabulary does not name");
      continue;
    }
    const std::size_t length = std::min<std::size_t>(op - 0x40u, size - at);
    protocol::TimedInputFrame frame;
    const std::span<const uint8_t> body(data + at, length);
    at += length;
    if (!wire::decode(body, frame).ok() || !protocol::timed_input_frame_valid(frame)) continue;
    const uint64_t server_us = static_cast<uint64_t>(tick) * kTickUs;
    const uint64_t refused_before = inputs.queue().drops()[InputDropReason::stamp_ahead];
    const std::size_t queued = inputs.receive_timed(frame, server_us, kLeadUs);
    if (frame.newest_stamp_us > server_us + kLeadUs) {
      if (queued != 0) violated("a frame stamped past the lead queued an input");
      if (inputs.queue().drops()[InputDropReason::stamp_ahead] != refused_before + frame.inputs.size())
        violated("a refused frame's inputs were not each counted");
      continue;
    }
    if (inputs.queue().waiting_ticks() > config.capacity_ticks) violated("the queue holds more than its cap");
    const uint64_t last = uint64_t{frame.first_sequence} + frame.inputs.size() - 1;
    if (queued > 0) {
      highest_offered = offered ? std::max(highest_offered, last) : last;
      offered = true;
    }
  }
  return 0;
}

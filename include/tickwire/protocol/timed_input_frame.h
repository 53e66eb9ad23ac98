// TimedInputFrame: a server-time room's input frame (seed 002, "Non-Deterministic Mode"). The
// client runs its own logic rate, so its inputs are named by the server time it believed when it
// sampled them, not by a server tick: the newest input's stamp and the client's logic step place
// every input the frame repeats (inputs[i] was sampled at newest_stamp_us - (n-1-i) x step_us).
// Like InputFrame it is sent unreliably and redundantly, numbered by sequence for the honest ack,
// and says which snapshots the client holds; it carries no forgiveness claim (a claim is a tick's).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "tickwire/protocol/input_frame.h"

namespace tickwire::protocol {

inline constexpr uint32_t MaxLogicStepUs = 1'000'000;  // a 1 Hz client; a longer step is malformed

struct TimedInputFrame {
  static constexpr std::string_view wire_name = "TimedInputFrame";
  static constexpr std::string_view message_name = "timedInputFrame";
  static constexpr uint8_t wire_id = 31;
  static constexpr wire::Direction wire_direction = wire::Direction::client_to_server;

  uint32_t first_sequence = 0;  // sequence of inputs[0]; the rest follow consecutively
  uint64_t newest_stamp_us = 0;  // the server time the client believed when it sampled the newest
  uint32_t step_us = 0;          // the client's logic step (1 .. MaxLogicStepUs)
  std::vector<InputCmd> inputs;
  std::optional<SnapshotsHeld> held;

  template <class W>
  void fields(W& w) {
    w.u32("firstSequence", first_sequence);
    w.varu64("newestStampUs", newest_stamp_us);
    w.varu32("stepUs", step_us);
    w.list8("inputs", inputs, 1, MaxInputsPerPacket);
    w.optional("held", held);
  }
};

// The server time a tick stands for, in microseconds (tick x the tick's length, floored): the one
// mapping both ends use, the server to judge stamps and the client to read its snapshots' times.
constexpr uint64_t server_time_us_of_tick(uint64_t tick, uint32_t tick_rate_hz) {
  return tick_rate_hz == 0 ? 0 : tick * 1'000'000 / tick_rate_hz;
}

// The stamp of inputs[index] (index < inputs.size()), saturating at 0.
uint64_t timed_input_stamp_us(const TimedInputFrame& frame, std::size_t index);
// Whether a decoded frame's numbers are ones a client could send: a step in 1..MaxLogicStepUs.
bool timed_input_frame_valid(const TimedInputFrame& frame);

}  // namespace tickwire::protocol

// TickInput: the one input a session's pawn simulates on one fixed tick, and where it came from.
// A fresh input advances the honest ack by its own sequence; a repeated one (a starved tick within
// the repeat limit) is the server's guess at the next sequence's input once the client has led,
// and advances it by that one (input_queue.h says why); a zeroed one never does. The
// starvation rule lives here too, as a pure function, so the queue and the tests share one truth.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "tickwire/protocol/input_frame.h"

namespace tickwire {

enum class TickInputSource : uint8_t {
  fresh,     // the oldest queued input, applied for the first and only time
  repeated,  // starved tick within the repeat limit: the previous input applies again as it was
  zeroed,    // starved past the limit: movement and buttons zeroed, look angles (and postures) kept
};

std::string_view tick_input_source_name(TickInputSource source);

struct TickInput {
  protocol::InputCmd cmd;
  // The input sequence whose tick this is: a fresh input's own, a starved tick's guessed one (before
  // the client has led, or in server-time mode's merging, the last one applied; absent when none
  // ever was).
  uint32_t sequence = 0;
  bool has_sequence = false;
  TickInputSource source = TickInputSource::zeroed;
  // A starved tick that stands for `sequence`'s tick: the ack moves to it as a fresh input's would.
  bool guessed = false;
  // On a fresh tick: buttons late inputs pressed that their ticks' guesses did not, pressed here
  // (already in cmd.buttons); a game that wants to know a press came late reads them here.
  uint32_t late_buttons = 0;
  // Consecutive starved ticks including this one (0 on a fresh tick).
  uint32_t starved_run_ticks = 0;
  // On a fresh tick: the forgiveness claim the client sent with this input (its pawn as predicted
  // after it), when this input was the newest of a frame that carried one.
  std::optional<protocol::Claim> claim;

  bool fresh() const { return source == TickInputSource::fresh; }
  // The tick ran `sequence`'s slot, on its input or on the guess: what the honest ack names.
  bool runs_sequence() const { return fresh() || guessed; }
};

// What a starved tick applies: the previous command unchanged for the first `repeat_limit_ticks`
// ticks of a run (run_ticks counts from 1), then the same command with movement and buttons zeroed
// and look angles kept, so a dead link cannot walk a pawn off a ledge. Posture buttons (the
// vocabulary's: a crouch) are kept: standing up under a ledge is a change the player never asked for.
protocol::InputCmd starved_command(const protocol::InputCmd& previous, uint32_t run_ticks, uint32_t repeat_limit_ticks,
                                   uint32_t posture_buttons);

}  // namespace tickwire

// The per-session server input queue: inputs arrive unreliably and redundantly (each InputFrame
// repeats the last un-acked inputs), and exactly one of them is simulated per fixed tick, oldest
// first. The ack it reports is the last sequence whose tick actually ran, never a merely received one.
// Waiting inputs are kept sorted by sequence, so a reordered packet that fills a gap before the
// gap's successor runs still has its input applied in order; once a later input has run, the
// passed-over sequences are stale for good.
// A starved tick within the repeat limit (none waiting, once the client has led: a fresh tick has
// left another of its inputs waiting) is the next sequence's tick, run on the server's guess (the
// last input repeated) and acked as run, so the state the ack names is the state the client
// reconciles from. Its input, arriving after its tick, is late: dropped, save the buttons it
// pressed that the guess did not, which the next fresh tick presses. So a stall's backlog never
// becomes lead: the inputs that were late for their ticks do not all run later, one tick each,
// behind the ones that came in time. Past the repeat limit the link is taken for dead and nothing
// more is guessed (zeroed ticks stand for no sequence). A client is expected to lead the server by
// its link's delay and jitter (the clock regulator's job); until it first has, a starved tick is
// its join's, not a stall's: it guesses nothing, and the input that comes late runs on a later
// tick, which builds the lead the regulator would take seconds to.
// A server-time room's clients run their own logic rates, so its queue merges instead: each tick
// takes every input that has arrived (their mean movement, the newest look, every button pressed).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

#include "tickwire/protocol/constants.h"
#include "tickwire/protocol/input_frame.h"
#include "tickwire/server/input_drop_reason.h"
#include "tickwire/server/tick_input.h"

namespace tickwire {
class ByteRecordReader;
class ByteRecordWriter;


// Sequences never wrap within a session: they are u32 counted from the session's first sequence,
// one per client tick, so a wrap needs 2^32 inputs (828 days at 60 Hz, 49 days at the 1000 Hz rate
// cap). Inputs numbered past 2^32 - 1 are refused (InputDropReason::sequence_end), never wrapped.
struct InputQueueConfig {
  uint32_t first_sequence = 0;  // the session's first input; anything below it is stale
  std::size_t capacity_ticks = protocol::InputQueueTicks;  // inputs waiting at most (<= InputQueueTicks)
  uint32_t starvation_repeat_ticks = static_cast<uint32_t>(protocol::StarvationRepeatTicks);
  uint32_t known_buttons = 0xFF;   // the vocabulary's buttons: other bits are cleared on arrival, counted
  uint32_t posture_buttons = 0;    // the vocabulary's postures: held through a starved run's zeroed ticks
  // Server-time mode: a tick takes every waiting input merged into one (mean movement, the newest
  // input's look angles, the union of the buttons) and acks the newest; none waiting starves it.
  bool merge_arrived = false;
};

struct InputQueueStats {
  uint64_t received = 0;  // inputs offered (every redundant copy counts)
  uint64_t queued = 0;    // inputs accepted into the queue
  uint64_t fresh_ticks = 0;
  uint64_t repeated_ticks = 0;
  uint64_t zeroed_ticks = 0;
  // Ticks before the session's first input arrived (its join: the welcome's trip out and the first
  // input's back). Run as zeroed ticks, but not starvation: no queue was fed yet to run dry.
  uint64_t awaiting_ticks = 0;
  uint64_t unknown_buttons = 0;  // queued inputs that set a button bit the vocabulary does not name
  uint64_t merged_inputs = 0;    // merge_arrived: inputs taken into fresh ticks (fresh_ticks of them)
};

class InputQueue {
 public:
  // How far below the last applied sequence the queue still tells a duplicate from a stale input.
  static constexpr uint32_t kAppliedWindowInputs = 64;

  explicit InputQueue(const InputQueueConfig& config = {});

  // Offers a frame's inputs (first_sequence, first_sequence + 1, ...). Returns how many were
  // queued; every other one is dropped and counted by reason. Never fails, never allocates.
  std::size_t accept(const protocol::InputFrame& frame);
  // A frame's claim rides with its newest input.
  std::size_t accept(uint32_t first_sequence, std::span<const protocol::InputCmd> inputs,
                     const std::optional<protocol::Claim>& claim = std::nullopt);

  // The input to simulate on the next fixed tick: the oldest queued one (merge_arrived: every
  // queued one, merged), or, on an empty queue, the starvation rule over the last applied one.
  // Call exactly once per simulated tick.
  TickInput take_for_tick();
  // Inputs refused before they reached the queue (a server-time stamp too far ahead), counted here
  // with the queue's own refusals.
  void refuse(InputDropReason reason, uint64_t count) { drops_.add(reason, count); }

  // The honest ack: the last input sequence whose tick ran, on its input or on the guess of a starved
  // tick (absent before the first input ran).
  std::optional<uint32_t> ack_sequence() const;
  // Inputs waiting unsimulated (never above the capacity).
  std::size_t waiting_ticks() const { return waiting_count_; }
  // Consecutive starved ticks ending with the last taken one (0 after a fresh tick).
  uint32_t starved_run_ticks() const { return starved_run_ticks_; }
  // Whether the client has led (a fresh tick left another input waiting): from then on a starved
  // tick within the repeat limit is a guess. A replay, which hands each input over on its own tick,
  // is told so by the recording (assume_led) before the first tick the recorded room guessed.
  bool led() const { return led_; }
  void assume_led() { led_ = true; }
  // The signed queue-depth byte of the owner detail: inputs waiting, or, when none wait, minus the
  // run of consecutive starved ticks; clamped to int8.
  int8_t depth_byte() const;

  const InputDropCounters& drops() const { return drops_; }
  const InputQueueStats& stats() const { return stats_; }
  const InputQueueConfig& config() const { return config_; }

  // The window a save state carries (seed 002; input_queue_window.cpp): the inputs waiting, the
  // last one applied, the duplicate window and the starved run, so a loaded room applies, repeats
  // and acks exactly as the saved one would have. load_window replaces them (a fresh queue with
  // the same config); false, nothing changed, when the bytes do not read or break the queue's rules.
  // The window carries whether the client has led.
  void save_window(ByteRecordWriter& write) const;
  bool load_window(ByteRecordReader& read);

 private:
  struct Entry {
    uint32_t sequence = 0;
    protocol::InputCmd cmd;
    std::optional<protocol::Claim> claim;
  };

  Entry take_merged();
  TickInput take_starved();
  bool offer(uint64_t sequence, const protocol::InputCmd& cmd, const std::optional<protocol::Claim>& claim);
  void take_late(uint64_t sequence, const protocol::InputCmd& cmd);
  void insert_sorted(const Entry& entry);
  void mark_applied(uint32_t sequence);
  bool in_window(uint64_t bits, uint64_t sequence) const;

  InputQueueConfig config_;
  // Waiting inputs, ascending by sequence; at most config_.capacity_ticks of them.
  std::array<Entry, protocol::InputQueueTicks> waiting_{};
  std::size_t waiting_count_ = 0;
  // The lowest sequence that may still be queued: first_sequence, then the last applied + 1.
  // u64 so that it can sit past 2^32 - 1 after the last sequence of the space has run.
  uint64_t next_applicable_ = 0;
  // Bit i: sequence ack - i was applied (tells a duplicate from a passed-over, stale input).
  uint64_t applied_bits_ = 0;
  // Bit i: sequence ack - i ran on a starved tick's guess and its input has not arrived since.
  uint64_t guessed_bits_ = 0;
  // The buttons each guessed sequence's tick pressed, at sequence % kAppliedWindowInputs.
  std::array<uint32_t, kAppliedWindowInputs> guess_buttons_{};
  // Buttons late inputs pressed that their guesses did not: pressed on the next fresh tick.
  uint32_t late_buttons_ = 0;
  protocol::InputCmd last_applied_cmd_;
  std::optional<uint32_t> ack_sequence_;
  uint32_t starved_run_ticks_ = 0;
  bool led_ = false;
  InputDropCounters drops_;
  InputQueueStats stats_;
};

}  // namespace tickwire

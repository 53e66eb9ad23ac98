// The per-tick "preparing" seam between a session's input queue and the room's tick loop: the
// receive path may drain any number of packets per poll, but an input is taken only here, once per
// simulated tick (catch-up ticks included), and the owner detail reports what that tick applied.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

#include "tickwire/clock/tick.h"
#include "tickwire/protocol/input_frame.h"
#include "tickwire/protocol/timed_input_frame.h"
#include "tickwire/server/input_queue.h"
#include "tickwire/server/tick_input.h"

namespace tickwire {

// What a tick's snapshot tells the owning client about its inputs, captured when the tick took
// its input so that packets received later cannot make it claim more than was applied.
struct OwnerInputReport {
  Tick tick;
  std::optional<uint32_t> ack_sequence;  // last input applied to simulation up to this tick
  int8_t queue_depth = 0;                // waiting inputs, or minus the starved run
};

class SessionInputs {
 public:
  explicit SessionInputs(const InputQueueConfig& config = {});

  // Receive path: called for every InputFrame drained, however many arrive between two ticks.
  // Only queues; never advances the ack. Returns how many inputs were queued.
  std::size_t receive(const protocol::InputFrame& frame) { return queue_.accept(frame); }
  // A server-time frame: refused whole (stamp_ahead, each input counted) when its newest stamp is
  // past `server_time_us` by more than `stamp_lead_us`, else queued like any other.
  std::size_t receive_timed(const protocol::TimedInputFrame& frame, uint64_t server_time_us, uint64_t stamp_lead_us);

  // The preparing seam: takes the one input `tick` simulates. Call exactly once per simulated
  // tick, ticks strictly increasing (a tick the room clock declared dropped is simply skipped:
  // it simulates nothing, so it takes no input). Calling it twice for a tick is a programmer error.
  const TickInput& prepare(Tick tick);

  // The input of the last prepared tick (the pawn step reads this).
  const TickInput& current() const;
  std::optional<Tick> prepared_tick() const { return prepared_tick_; }
  // For the snapshot of the last prepared tick (the "completed" seam reads this).
  const OwnerInputReport& report() const;

  const InputQueue& queue() const { return queue_; }
  // The queue's window in a save state (InputQueue::save_window): what comes next is prepared as
  // the saved session's would have been.
  void save_window(ByteRecordWriter& write) const { queue_.save_window(write); }
  bool load_window(ByteRecordReader& read) { return queue_.load_window(read); }
  // A replay's: the recorded room guessed this session's starved ticks from here (InputQueue::led).
  void assume_led() { queue_.assume_led(); }

 private:
  InputQueue queue_;
  std::optional<Tick> prepared_tick_;
  TickInput current_;
  OwnerInputReport report_;
};

// The room's TickPreparing seam over all its sessions: one input per session for `tick`.
void prepare_tick(std::span<SessionInputs> sessions, Tick tick);

}  // namespace tickwire

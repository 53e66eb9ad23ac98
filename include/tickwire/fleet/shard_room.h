// ShardRoom: a room as a shard runs it (seed 003, "Many rooms per process"). A shard thread runs
// many rooms, each still single-threaded and deterministic: it asks each when its next tick is
// due, runs it then (one server iteration: receive, the due ticks, send), and tells it what its
// load ladder's rung in force sheds. The room's own RoomLoop and RoomServer sit behind it
// (LoopShardRoom); a test or a bench puts its own rooms (a burner) on a shard the same way.
#pragma once

#include <cstdint>

#include "tickwire/clock/time.h"
#include "tickwire/fleet/room_shedding.h"
#include "tickwire/protocol/netcode_contract.h"

namespace tickwire {

class ShardRoom {
 public:
  virtual ~ShardRoom() = default;

  // Host time the room's next tick is due at.
  virtual MonoTime next_due() const = 0;
  // One iteration at `now` (normally just after next_due()); returns the ticks it ran.
  virtual uint32_t run(MonoTime now) = 0;
  // What the room's rung in force sheds, from its next iteration on (calm: the contract's numbers).
  virtual void shed(const RoomShedding& shedding) = 0;
  // The room's contract: its tick period and its ladder (`load.room`).
  virtual const NetcodeContract& contract() const = 0;
  // The achieved tick rate its pacer measures (Hz).
  virtual double measured_hz() const = 0;
  // Whether the shard ladder's top rung may move it to another shard (a room pinned to its shard
  // for a reason of the game's, or a bench's burner, says no).
  virtual bool movable() const { return true; }
};

// A room's tick period, from its contract's tick rate.
inline Duration tick_period_of(const NetcodeContract& contract) {
  return Duration::nanoseconds(1'000'000'000 / contract.cadence.tick_rate_hz);
}

// For a room that keeps its own fixed schedule (a burner, a test's timed room): the ticks due by
// `now`, `next` moved past them.
inline uint32_t take_due_ticks(MonoTime& next, Duration period, MonoTime now) {
  uint32_t ticks = 0;
  while (next <= now) {
    next += period;
    ++ticks;
  }
  return ticks;
}

}  // namespace tickwire

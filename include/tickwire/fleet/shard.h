// Shard: the rooms pinned to one worker thread, and the two ladders over them (seed 003, "Many
// rooms per process" and "Load ladders"). One step() runs every room whose tick is due, one after
// another on the calling thread, measuring each iteration; once per window it turns what it
// measured into signals, walks the shard ladder and each room's own ladder, and tells every room
// the rung it runs at (its own, or the shard's floor when that is higher: compose_room_rung). The
// shard never relaxes its kill threshold: a window at or past it is counted and reported by name.
// Deterministic for a given host timer (a SimHostTimer in tests); ShardThread runs it for real.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <vector>

#include "tickwire/clock/host_timer.h"
#include "tickwire/clock/time.h"
#include "tickwire/core/reason_counters.h"
#include "tickwire/fleet/room_load_ladder.h"
#include "tickwire/fleet/room_load_meter.h"
#include "tickwire/fleet/shard_load_ladder.h"
#include "tickwire/fleet/shard_room.h"
#include "tickwire/fleet/work_clock.h"

namespace tickwire {

inline constexpr std::size_t kShardMaxRooms = 256;        // rooms pinned to one thread
inline constexpr std::size_t kShardRungChangesKept = 64;  // the newest shard rung changes, for reports

struct ShardConfig {
  ShardLadderPolicy ladder;                         // the contract's `load.shard`
  Duration window = Duration::milliseconds(250);    // signals are measured over this much host time
};

// One change of the shard's rung in force.
struct ShardRungChange {
  MonoTime at;
  ShardLoadRung from = ShardLoadRung::calm;
  ShardLoadRung to = ShardLoadRung::calm;
};

// One room as the shard's last window saw it.
struct ShardRoomState {
  uint32_t id = 0;
  RoomLoadSignals signals;
  RoomLoadRung own = RoomLoadRung::calm;       // its own ladder's rung
  RoomLoadRung in_force = RoomLoadRung::calm;  // what it sheds: its own or the shard's floor
  double measured_hz = 0.0;
  uint64_t iterations = 0;
  uint64_t ticks = 0;  // ticks run while on this shard
  bool movable = true;
};

class Shard {
 public:
  // `work` (null: the host timer) measures what each iteration cost: a ThreadCpuClock read on the
  // shard's own thread for real, the simulated host's timer in tests.
  Shard(HostTimer& timer, const ShardConfig& config = {}, WorkClock* work = nullptr);
  ~Shard();
  Shard(const Shard&) = delete;
  Shard& operator=(const Shard&) = delete;

  // A room pinned here from now on under `id` (unique on the shard); it starts calm. False (the
  // room left untouched) when the shard already holds kShardMaxRooms or the id.
  bool adopt(uint32_t id, std::unique_ptr<ShardRoom>& room);
  // The room taken off the shard (shed back to calm first), or null when it holds no such id.
  std::unique_ptr<ShardRoom> release(uint32_t id);

  // Runs every room due at the timer's now (each measured), and evaluates the ladders when the
  // window has passed. Returns the earliest time a room is due next (now + window when empty).
  MonoTime step();

  ShardLoadRung rung() const { return ladder_.rung(); }
  const ShardLoadSignals& signals() const { return signals_; }
  const std::vector<ShardRoomState>& rooms() const { return states_; }
  std::size_t room_count() const { return rooms_.size(); }
  // The movable room whose iterations cost most over the last window (what rooms_migrated moves).
  std::optional<uint32_t> costliest_movable() const;
  // The newest rung changes (at most kShardRungChangesKept), oldest first.
  const std::deque<ShardRungChange>& rung_changes() const { return changes_; }
  // How often each rung engaged (a window that raised the rung in force to it, or past it).
  const ReasonCounters<ShardLoadRung>& rungs_engaged() const { return engaged_; }
  const ReasonCounters<RoomLoadRung>& room_rungs_engaged() const { return room_engaged_; }
  uint64_t windows() const { return windows_; }
  uint64_t windows_at_kill_threshold() const { return kill_windows_; }
  const ShardConfig& config() const { return config_; }

 private:
  struct Pinned;
  void close_window(MonoTime now);
  void note_shard_rung(MonoTime now, ShardLoadRung before, ShardLoadRung after);

  Duration work_spent();

  HostTimer& timer_;
  WorkClock* work_;
  ShardConfig config_;
  ShardLoadLadder ladder_;
  std::vector<std::unique_ptr<Pinned>> rooms_;
  std::vector<ShardRoomState> states_;
  MonoTime window_start_;
  bool window_open_ = false;
  Duration window_busy_;
  ShardLoadSignals signals_;
  std::deque<ShardRungChange> changes_;
  ReasonCounters<ShardLoadRung> engaged_;
  ReasonCounters<RoomLoadRung> room_engaged_;
  uint64_t windows_ = 0;
  uint64_t kill_windows_ = 0;
};

}  // namespace tickwire

// ShardThread: one worker thread running one Shard (seed 003, "Many rooms per process": one thread
// per shard, rooms pinned to it). Rooms are handed to it from any thread and adopted between its
// steps; a room leaves it only on its own thread (a move to another shard, or the stop), so a room
// is never run by two threads and never runs while it changes hands. What the shard measured is
// published once per window as a ShardReport any thread may copy.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "tickwire/clock/deadline_wait.h"
#include "tickwire/clock/host_timer.h"
#include "tickwire/fleet/shard.h"

namespace tickwire {

// What a shard published after its last window.
struct ShardReport {
  uint32_t index = 0;
  MonoTime at;  // when the window it reports closed
  ShardLoadRung rung = ShardLoadRung::calm;
  ShardLoadSignals signals;
  std::vector<ShardRoomState> rooms;
  std::deque<ShardRungChange> rung_changes;
  ReasonCounters<ShardLoadRung> rungs_engaged;
  ReasonCounters<RoomLoadRung> room_rungs_engaged;
  uint64_t windows = 0;
  uint64_t windows_at_kill_threshold = 0;
  uint64_t rooms_moved_out = 0;  // moved to another shard by the top rung
  uint64_t rooms_adopted = 0;    // placed here or moved in
  uint64_t rooms_refused = 0;  // handed here past the shard's cap (the room is destroyed: counted)
};

class ShardThread {
 public:
  // `timer` must be safe to read from the shard's thread (a SystemHostTimer) and outlive it.
  // Waits sleep, then spin at most `wait.max_spin`: several shards share the host's cores.
  ShardThread(uint32_t index, HostTimer& timer, const ShardConfig& config, const DeadlineWaitConfig& wait);
  ~ShardThread();  // stops (its rooms are destroyed on this thread)
  ShardThread(const ShardThread&) = delete;
  ShardThread& operator=(const ShardThread&) = delete;

  void start();
  // Stops the thread and gives its rooms back to the caller (ids with rooms), each shed to calm.
  std::vector<std::pair<uint32_t, std::unique_ptr<ShardRoom>>> stop();

  // `room` pinned to this shard from its next step (from any thread).
  void hand(uint32_t id, std::unique_ptr<ShardRoom> room);
  // On this shard's thread, at its next step: its costliest movable room handed to `target`.
  void move_costliest_to(ShardThread& target);

  ShardReport report() const;
  uint32_t index() const { return index_; }
  // Rooms pinned here or handed to it, as of now (any thread).
  uint32_t rooms_held() const { return held_.load(); }

 private:
  void run();
  void take_handed();

  uint32_t index_;
  HostTimer& timer_;
  ThreadCpuClock work_;  // read on the shard's thread only
  Shard shard_;
  DeadlineWait wait_;
  std::atomic<bool> stopping_{false};
  std::atomic<uint32_t> held_{0};
  std::thread thread_;
  mutable std::mutex mutex_;  // guards everything below
  std::vector<std::pair<uint32_t, std::unique_ptr<ShardRoom>>> handed_;
  ShardThread* move_to_ = nullptr;
  ShardReport report_;
  uint64_t moved_out_ = 0;
  uint64_t adopted_ = 0;
  uint64_t refused_ = 0;
};

}  // namespace tickwire

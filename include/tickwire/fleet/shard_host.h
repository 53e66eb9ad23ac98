// ShardHost: a process's rooms on worker-thread shards (seed 003, "Many rooms per process"). It
// places each room on a shard (the calmest whose ladder has not closed placement), and on its
// owner's cadence acts on the shard ladders' top rung: a shard at rooms_migrated has its costliest
// movable room moved to the calmest shard still open for placement. Each room stays single-threaded
// and deterministic: it runs on one shard's thread at a time and moves only between its iterations.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "tickwire/clock/deadline_wait.h"
#include "tickwire/clock/host_timer.h"
#include "tickwire/core/reason_counters.h"
#include "tickwire/core/reasons.h"
#include "tickwire/fleet/shard_thread.h"

namespace tickwire {

inline constexpr uint32_t kShardHostMaxShards = 64;

// Why a room was not placed (counted).
TW_REASONS(PlacementRefusal,
           placement_closed,  // every shard's ladder has closed placement: the fleet places it elsewhere
           shard_full)        // every shard open for placement holds kShardMaxRooms rooms

struct ShardHostConfig {
  uint32_t shards = 4;  // 1..kShardHostMaxShards
  ShardConfig shard;
  // A shard thread's wait: sleep most of it, spin little (shards share the host's cores).
  DeadlineWaitConfig wait{Duration::microseconds(500), Duration::milliseconds(1), Duration::microseconds(500), {}};
  // After moving a room off a shard, the next move off it waits this long (the move's relief shows
  // in the shard's signals a window later; its ladder releases only after its dwell).
  Duration move_cooldown = Duration::seconds(2);
};

class ShardHost {
 public:
  // `timer` is read from every shard's thread (a SystemHostTimer) and outlives the host.
  ShardHost(HostTimer& timer, const ShardHostConfig& config);
  ~ShardHost();
  ShardHost(const ShardHost&) = delete;
  ShardHost& operator=(const ShardHost&) = delete;

  void start();
  // The shards stopped; every room handed back (shed to calm), with its id.
  std::vector<std::pair<uint32_t, std::unique_ptr<ShardRoom>>> stop();

  // `room` placed on the calmest shard open for placement (fewest rooms first); the shard's index,
  // or the refusal (counted; the room is handed back in `room`).
  std::optional<uint32_t> place(uint32_t id, std::unique_ptr<ShardRoom>& room);
  // `room` pinned to shard `shard` whatever its ladder says (a bench's burner, a test).
  void pin(uint32_t shard, uint32_t id, std::unique_ptr<ShardRoom> room);

  // Acts on the shards' last reports at `now`: a room moved off each shard at rooms_migrated.
  void supervise(MonoTime now);

  std::vector<ShardReport> reports() const;
  const ReasonCounters<PlacementRefusal>& placement_refusals() const { return refusals_; }
  // Moves asked of a shard at the top rung (each carried out on that shard's thread when it holds a
  // movable room: its report's rooms_moved_out counts those done).
  uint64_t moves_asked() const { return moves_; }
  uint32_t shard_count() const { return static_cast<uint32_t>(shards_.size()); }

 private:
  std::optional<uint32_t> calmest_open(const std::vector<ShardReport>& reports, std::optional<uint32_t> besides) const;

  ShardHostConfig config_;
  std::vector<std::unique_ptr<ShardThread>> shards_;
  std::vector<std::optional<MonoTime>> last_move_;
  ReasonCounters<PlacementRefusal> refusals_;
  uint64_t moves_ = 0;
};

}  // namespace tickwire

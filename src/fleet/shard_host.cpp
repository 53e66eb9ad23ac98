// Rooms placed on the calmest open shard; the top rung acted on by moving the costliest room.
#include "tickwire/fleet/shard_host.h"

#include <utility>

#include "tickwire/core/assert.h"

namespace tickwire {

ShardHost::ShardHost(HostTimer& timer, const ShardHostConfig& config) : config_(config) {
  TW_ASSERT(config.shards >= 1 && config.shards <= kShardHostMaxShards, "a host runs 1..64 shards");
  for (uint32_t i = 0; i < config.shards; ++i) {
    shards_.push_back(std::make_unique<ShardThread>(i, timer, config.shard, config.wait));
  }
  last_move_.resize(config.shards);
}

ShardHost::~ShardHost() { (void)stop(); }

void ShardHost::start() {
  for (auto& shard : shards_) shard->start();
}

std::vector<std::pair<uint32_t, std::unique_ptr<ShardRoom>>> ShardHost::stop() {
  std::vector<std::pair<uint32_t, std::unique_ptr<ShardRoom>>> rooms;
  for (auto& shard : shards_) {
    for (auto& room : shard->stop()) rooms.push_back(std::move(room));
  }
  return rooms;
}

std::optional<uint32_t> ShardHost::calmest_open(const std::vector<ShardReport>& reports,
                                                std::optional<uint32_t> besides) const {
  std::optional<uint32_t> best;
  for (uint32_t i = 0; i < shards_.size(); ++i) {
    if (i == besides || reports[i].rung >= ShardLoadRung::placement_closed) continue;
    if (shards_[i]->rooms_held() >= kShardMaxRooms) continue;
    if (!best) {
      best = i;
      continue;
    }
    const auto held = shards_[i]->rooms_held(), best_held = shards_[*best]->rooms_held();
    if (held < best_held || (held == best_held && reports[i].signals.busy_percent < reports[*best].signals.busy_percent)) {
      best = i;
    }
  }
  return best;
}

std::optional<uint32_t> ShardHost::place(uint32_t id, std::unique_ptr<ShardRoom>& room) {
  const std::vector<ShardReport> now = reports();
  const auto shard = calmest_open(now, std::nullopt);
  if (!shard) {
    bool any_open = false;
    for (const ShardReport& report : now) any_open = any_open || report.rung < ShardLoadRung::placement_closed;
    refusals_.add(any_open ? PlacementRefusal::shard_full : PlacementRefusal::placement_closed);
    return std::nullopt;
  }
  shards_[*shard]->hand(id, std::move(room));
  return shard;
}

void ShardHost::pin(uint32_t shard, uint32_t id, std::unique_ptr<ShardRoom> room) {
  TW_ASSERT(shard < shards_.size(), "a room is pinned to one of the host's shards");
  shards_[shard]->hand(id, std::move(room));
}

void ShardHost::supervise(MonoTime now) {
  const std::vector<ShardReport> all = reports();
  for (uint32_t i = 0; i < shards_.size(); ++i) {
    if (all[i].rung < ShardLoadRung::rooms_migrated) continue;
    if (last_move_[i] && now - *last_move_[i] < config_.move_cooldown) continue;
    const auto target = calmest_open(all, i);
    if (!target) continue;  // nowhere calmer: the shard keeps shedding in place
    shards_[i]->move_costliest_to(*shards_[*target]);
    last_move_[i] = now;
    ++moves_;
  }
}

std::vector<ShardReport> ShardHost::reports() const {
  std::vector<ShardReport> all;
  all.reserve(shards_.size());
  for (const auto& shard : shards_) all.push_back(shard->report());
  return all;
}

}  // namespace tickwire

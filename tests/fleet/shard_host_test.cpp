// The shard host on real threads: rooms are placed evenly over the shards, a shard's top rung
// moves its costliest movable room to a calmer shard (never its burner), a shard closed for
// placement is passed over, and stopping hands every room back.
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <set>
#include <thread>

#include "tickwire/clock/system_host_timer.h"
#include "tickwire/fleet/shard_host.h"
#include "timed_room.h"

namespace tickwire {
namespace {

using test::TimedRoom;

std::unique_ptr<ShardRoom> timed(HostTimer& timer, Duration cost, bool movable = true) {
  return std::make_unique<TimedRoom>(timer, nullptr, timer.now(), cost, movable);
}

TEST(ShardHost, PlacesRoomsEvenlyAndHandsThemAllBackOnStop) {
  SystemHostTimer timer;
  ShardHost host(timer, ShardHostConfig{});
  std::vector<uint32_t> per_shard(host.shard_count());
  for (uint32_t id = 1; id <= 8; ++id) {
    auto room = timed(timer, Duration::microseconds(50));
    const auto shard = host.place(id, room);
    ASSERT_TRUE(shard.has_value());
    ++per_shard[*shard];
  }
  for (const uint32_t n : per_shard) EXPECT_EQ(n, 2u);
  host.start();
  std::this_thread::sleep_for(std::chrono::milliseconds(600));
  for (const ShardReport& report : host.reports()) {
    EXPECT_EQ(report.rooms.size(), 2u);
    EXPECT_GE(report.windows, 1u);
  }
  auto rooms = host.stop();
  std::set<uint32_t> ids;
  for (const auto& [id, room] : rooms) {
    EXPECT_NE(room, nullptr);
    ids.insert(id);
  }
  EXPECT_EQ(ids.size(), 8u);
}

TEST(ShardHost, TheTopRungMovesTheCostliestMovableRoomToACalmerShard) {
  SystemHostTimer timer;
  ShardHostConfig config;
  config.shards = 2;
  ShardHost host(timer, config);
  // Shard 0: a burner past its whole period (never movable) and two light rooms; shard 1: empty.
  host.pin(0, 100, timed(timer, Duration::milliseconds(20), /*movable=*/false));
  host.pin(0, 1, timed(timer, Duration::microseconds(300)));
  host.pin(0, 2, timed(timer, Duration::microseconds(100)));
  host.start();
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (host.moves_asked() == 0 && std::chrono::steady_clock::now() < deadline) {
    host.supervise(timer.now());
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  ASSERT_GE(host.moves_asked(), 1u);
  // The move happens on shard 0's thread at its next step, and shard 1 adopts it at its own.
  ShardReport from, to;
  while (std::chrono::steady_clock::now() < deadline) {
    from = host.reports()[0];
    to = host.reports()[1];
    if (!to.rooms.empty() && from.rooms_moved_out >= 1) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_GE(from.rungs_engaged[ShardLoadRung::rooms_migrated], 1u);
  EXPECT_EQ(from.rooms_moved_out, 1u);  // once per cooldown
  EXPECT_EQ(to.rooms_adopted, 1u);
  ASSERT_FALSE(to.rooms.empty());
  EXPECT_NE(to.rooms[0].id, 100u);  // never the burner
  auto rooms = host.stop();
  EXPECT_EQ(rooms.size(), 3u);
}

TEST(ShardHost, AShardClosedForPlacementIsPassedOver) {
  SystemHostTimer timer;
  ShardHostConfig config;
  config.shards = 2;
  ShardHost host(timer, config);
  host.pin(0, 100, timed(timer, Duration::milliseconds(12), /*movable=*/false));  // ~72% busy
  host.start();
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (host.reports()[0].rung < ShardLoadRung::placement_closed && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  ASSERT_GE(host.reports()[0].rung, ShardLoadRung::placement_closed);
  for (uint32_t id = 1; id <= 3; ++id) {
    auto room = timed(timer, Duration::microseconds(50));
    EXPECT_EQ(host.place(id, room), std::optional<uint32_t>{1u});
  }
  (void)host.stop();
}

}  // namespace
}  // namespace tickwire

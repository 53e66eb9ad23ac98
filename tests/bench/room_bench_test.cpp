// The full-stack room bench, short: its scripted clients really join (handshake, welcome, contract),
// decode a snapshot every tick with no drop, see their neighbours, and the server's cost per tick is
// measured, over both transports. Correctness only: the figures are the bench's to print.
#include <gtest/gtest.h>

#include "room_bench.h"
#include "room_bench_map.h"
#include "tickwire/world/map_loader.h"

namespace tickwire {
namespace {

using namespace tickwire::bench;

RoomBenchRequest short_request() {
  RoomBenchRequest request;
  request.ticks = 60;
  request.seed = 7;
  return request;
}

void expect_whole_run(const RoomBenchRun& run, uint32_t clients) {
  EXPECT_EQ(run.joined, clients);
  EXPECT_TRUE(run.correct()) << "drops " << run.client_drops << ", snapshots/s " << run.snapshots_per_client_s;
  EXPECT_GE(run.ticks, 59u);
  EXPECT_GT(run.server_ms.mean, 0.0);
  EXPECT_GE(run.server_ms.p99, run.server_ms.mean * 0.5);
  EXPECT_GT(run.snapshot_bytes_mean, 0.0);
  // At 20 m spacing every one of 9 players is within the 100 m interest radius of the others.
  EXPECT_GE(run.records_mean, clients - 1.0);
}

TEST(RoomBench, ScriptedClientsJoinAndDecodeEveryTickOverSimNetwork) {
  expect_whole_run(run_room(short_request(), 9, RoomBenchTransport::sim), 9);
}

TEST(RoomBench, ScriptedClientsJoinAndDecodeEveryTickOverLoopbackUdp) {
  expect_whole_run(run_room(short_request(), 9, RoomBenchTransport::udp), 9);
}

TEST(RoomBench, ALossyLinkStillJoinsEveryClient) {
  RoomBenchRequest request = short_request();
  request.sim_link = *link_profile("transatlantic");
  const RoomBenchRun run = run_room(request, 4, RoomBenchTransport::sim);
  EXPECT_EQ(run.joined, 4u);
  EXPECT_EQ(run.client_drops, 0u);
}

TEST(RoomBench, TheMapSeatsEveryPlayerOnItsOwnSpawnPoint) {
  RoomBenchMap shape;
  shape.players = 255;
  auto loaded = world::load_map(room_bench_map_text(shape));
  ASSERT_TRUE(loaded.ok()) << loaded.error().message;
  EXPECT_EQ(loaded.value().spawn_points().size(), 255u);
  EXPECT_DOUBLE_EQ(players_per_km2(20.0f), 2500.0);
}

TEST(RoomBench, CapacityIsTheLargestHeldRunAndItsProjection) {
  RoomBenchResult result;
  result.request.transports = {RoomBenchTransport::sim};
  RoomBenchRun small;
  small.clients = 10;
  small.joined = 10;
  small.server_ms = {1.0, 1.5, 2.0};
  small.us_per_client_tick = 100.0;
  RoomBenchRun big = small;
  big.clients = 100;
  big.joined = 100;
  big.server_ms = {10.0, 20.0, 25.0};  // past one tick at p99: not held
  big.us_per_client_tick = 100.0;
  result.runs = {small, big};
  const auto capacity = result.capacity();
  ASSERT_EQ(capacity.size(), 1u);
  EXPECT_EQ(capacity[0].largest_held, 10u);
  EXPECT_NEAR(capacity[0].projected, 166.7, 0.1);
}

}  // namespace
}  // namespace tickwire

// Deterministic mode through the facade (tickwire/deterministic.h), on SimNetwork and a virtual
// clock: a DeterministicHost and three DeterministicPeers, each a config, a game and an input
// source, play without a desync, their counters reaching the host's stats; a host whose policy is
// not deterministic is refused by field.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "netcode_test_support.h"
#include "support.h"
#include "tickwire/deterministic.h"
#include "tickwire/lockstep/link_layout.h"
#include "tickwire/world/arena_bot_input.h"
#include "tickwire/world/lockstep_arena.h"

namespace tickwire::test {
namespace {

RoomPolicy arena_policy(uint32_t seats) {
  RoomPolicy policy;
  policy.identity = {"arena-1", "arena", "sim", "content-1", "test", "", ""};
  policy.mode.mode = RuntimeMode::deterministic;
  policy.mode.deterministic.seats = seats;
  return policy;
}

TEST(DeterministicFacade, AHostAndThreePeersPlayWithoutADesync) {
  const uint64_t seed = test_seed(0xd37);
  SimWorld world(seed);
  world.net.set_default_link(*link_profile("broadband"));
  WorldTimer timer(world);
  const netcode::Key key = fixed_key(41);
  auto host_socket = world.net.bind(server_address());
  DeterministicHostConfig host_config;
  host_config.private_key = key;
  host_config.policy = arena_policy(3);
  host_config.socket = host_socket.get();
  host_config.timer = &timer;
  host_config.wall_at_start = world.wall();
  DeterministicHostOpen host = DeterministicHost::open(host_config);
  ASSERT_TRUE(host) << host.error;

  struct Player {
    std::unique_ptr<SimSocket> socket;
    std::unique_ptr<world::LockstepArena> game;
    std::unique_ptr<world::ArenaBotInput> input;
    std::unique_ptr<DeterministicPeer> peer;
  };
  std::vector<Player> players(3);
  for (uint32_t i = 0; i < players.size(); ++i) {
    Player& p = players[i];
    p.socket = world.net.bind(client_address(i));
    p.game = std::make_unique<world::LockstepArena>(3, 5);
    p.input = std::make_unique<world::ArenaBotInput>(seed + i);
    netcode::ConnectTokenParams params;
    params.client_id = 100 + i;
    params.server_addresses.add(server_address());
    params.user_data = lockstep::seat_grant(static_cast<uint8_t>(i));
    const auto token = netcode::generate_connect_token(params, key, world.wall());
    netcode::ConnectTokenBytes bytes{};
    netcode::write_connect_token(token.value(), bytes);
    DeterministicPeerConfig config;
    config.connect_token.assign(bytes.begin(), bytes.end());
    config.socket = p.socket.get();
    config.timer = &timer;
    DeterministicPeerOpen opened = DeterministicPeer::open(config, *p.game, *p.input);
    ASSERT_TRUE(opened) << opened.error;
    p.peer = std::move(opened.peer);
  }
  for (int frame = 0; frame < 20 * 60; ++frame) {
    world.advance(Duration::nanoseconds(16'666'667));
    host.host->update();
    for (Player& p : players) p.peer->update();
  }
  const DeterministicHostStats stats = host.host->stats();
  std::printf("seed=%llu: clock frame %u, %llu frames compared, relay %llu bytes\n", static_cast<unsigned long long>(seed),
              stats.clock_frame, static_cast<unsigned long long>(stats.frames_compared),
              static_cast<unsigned long long>(stats.relay_bytes));
  EXPECT_EQ(stats.desync_frame, lockstep::kNoFrame) << "seed=" << seed;
  EXPECT_GT(stats.frames_compared, 1100u);
  for (const ReasonCount& r : stats.reasons) ADD_FAILURE() << "unexpected " << r.name << " " << r.count;
  for (const Player& p : players) {
    EXPECT_TRUE(p.peer->connected());
    EXPECT_TRUE(p.peer->seated());
    EXPECT_GT(p.peer->next_frame(), 1150u);
    EXPECT_EQ(p.peer->stats().refused.total(), 0u);
  }
}

TEST(DeterministicFacade, AHostRefusesAPolicyInAnotherMode) {
  DeterministicHostConfig config;
  config.policy = arena_policy(2);
  config.policy.mode.mode = RuntimeMode::snapshot;
  config.bind = "127.0.0.1:0";
  const DeterministicHostOpen opened = DeterministicHost::open(config);
  EXPECT_FALSE(opened);
  EXPECT_NE(opened.error.find("mode.mode"), std::string::npos) << opened.error;
}

}  // namespace
}  // namespace tickwire::test

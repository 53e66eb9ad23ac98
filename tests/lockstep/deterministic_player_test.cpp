// A listen-server deterministic match through the facade (tickwire/deterministic_player.h), on
// SimNetwork and a virtual clock: four DeterministicPlayers, each a config, an arena and a bot,
// each process with its own server. The first host hands the authority over with begin_handover()
// and no player loses a frame; or its process vanishes and the first successor rebuilds the
// authority, the survivors playing on without a divergence. What each did is in its stats.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "netcode_test_support.h"
#include "support.h"
#include "tickwire/deterministic_player.h"
#include "tickwire/world/arena_bot_input.h"
#include "tickwire/world/lockstep_arena.h"

namespace tickwire::test {
namespace {

constexpr uint32_t kPlayers = 4;

Address player_server(uint32_t i) { return Address::ipv4(10, 4, 0, static_cast<uint8_t>(i + 1), 40000); }
Address player_client(uint32_t i, uint32_t s) { return Address::ipv4(10, 5, static_cast<uint8_t>(i), static_cast<uint8_t>(s + 1), 50000); }

RoomPolicy arena_policy() {
  RoomPolicy policy;
  policy.identity = {"arena-1", "arena", "sim", "content-1", "test", "", ""};
  policy.mode.mode = RuntimeMode::deterministic;
  policy.mode.deterministic.seats = kPlayers;
  return policy;
}

DeterministicPlayerConfig player_config(uint32_t i, const netcode::Key& key) {
  DeterministicPlayerConfig config;
  config.seat = static_cast<uint8_t>(i);
  config.first_host_seat = 0;
  config.policy = arena_policy();
  for (uint32_t s = 0; s < kPlayers; ++s) config.player_servers.push_back(player_server(s).to_string());
  config.private_key = key;
  config.token_timeout_s = 1;  // a vanished host is noticed after a second
  return config;
}

// Four players' processes on one simulated network; a process that is killed stops running.
struct ListenMatch {
  explicit ListenMatch(uint64_t seed) : world(seed), timer(world), key(fixed_key(43)) {
    world.net.set_default_link(*link_profile("transatlantic"));
    for (uint32_t i = 0; i < kPlayers; ++i) {
      Process& p = processes[i];
      p.server = world.net.bind(player_server(i));
      for (uint32_t s = 0; s < 2; ++s) p.clients[s] = world.net.bind(player_client(i, s));
      p.game = std::make_unique<world::LockstepArena>(kPlayers, static_cast<uint32_t>(seed));
      p.input = std::make_unique<world::ArenaBotInput>(seed * 17 + i);
      DeterministicPlayerConfig config = player_config(i, key);
      config.server_socket = p.server.get();
      config.client_sockets = {p.clients[0].get(), p.clients[1].get()};
      config.timer = &timer;
      config.wall_at_start = world.wall();
      DeterministicPlayerOpen opened = DeterministicPlayer::open(config, *p.game, *p.input);
      EXPECT_TRUE(opened) << opened.error;
      p.player = std::move(opened.player);
    }
  }

  void run(Duration length) {
    const MonoTime end = world.now + length;
    while (world.now < end) {
      world.advance(Duration::nanoseconds(16'666'667));
      for (Process& p : processes) {
        if (p.alive && p.player) p.player->update();
      }
    }
  }

  std::vector<DeterministicPlayerStats> stats() const {
    std::vector<DeterministicPlayerStats> out;
    for (const Process& p : processes) out.push_back(p.player->stats());
    return out;
  }

  struct Process {
    std::unique_ptr<SimSocket> server;
    std::array<std::unique_ptr<SimSocket>, 2> clients;
    std::unique_ptr<world::LockstepArena> game;
    std::unique_ptr<world::ArenaBotInput> input;
    std::unique_ptr<DeterministicPlayer> player;
    bool alive = true;
  };
  SimWorld world;
  WorldTimer timer;
  netcode::Key key;
  std::array<Process, kPlayers> processes;
};

void print(const char* what, uint64_t seed, const std::vector<DeterministicPlayerStats>& stats) {
  std::printf("[ listen players ] %s, seed %llu:\n", what, static_cast<unsigned long long>(seed));
  for (std::size_t i = 0; i < stats.size(); ++i) {
    std::printf("  player %zu: %s, confirmed %u, moves %u, host losses %u, takeovers %llu, longest relay gap %.0f ms%s\n", i,
                stats[i].hosting ? "hosting" : "playing", stats[i].peer.confirmed_frame, stats[i].moves, stats[i].host_losses,
                static_cast<unsigned long long>(stats[i].takeovers), stats[i].longest_relay_gap_ms,
                stats[i].hosting ? (", " + std::to_string(stats[i].frames_compared) + " frames compared").c_str() : "");
  }
}

TEST(DeterministicPlayer, TheFirstHostHandsTheAuthorityOverAndNoPlayerLosesAFrame) {
  const uint64_t seed = test_seed(0x115);
  ListenMatch match(seed);
  match.run(Duration::seconds(5));
  for (const auto& p : match.processes) ASSERT_TRUE(p.player->seated());
  EXPECT_TRUE(match.processes[0].player->hosting());
  EXPECT_FALSE(match.processes[1].player->begin_handover()) << "only the host hands over";
  ASSERT_TRUE(match.processes[0].player->begin_handover());
  EXPECT_FALSE(match.processes[0].player->begin_handover()) << "one handover at a time";
  match.run(Duration::seconds(7));
  const std::vector<DeterministicPlayerStats> stats = match.stats();
  print("planned handover at 5 s", seed, stats);
  EXPECT_FALSE(stats[0].hosting);
  uint32_t hosts = 0;
  for (std::size_t i = 0; i < stats.size(); ++i) {
    EXPECT_EQ(stats[i].moves, 1u) << i;
    EXPECT_LT(stats[i].longest_relay_gap_ms, 200.0) << "no frame lost: " << i;
    EXPECT_GT(stats[i].peer.confirmed_frame, 650u) << i;
    if (!stats[i].hosting) continue;
    ++hosts;
    EXPECT_EQ(stats[i].handovers_completed, 1u);
    EXPECT_GT(stats[i].frames_compared, 300u);
    EXPECT_EQ(stats[i].desync_frame, 0xffff'ffffu);
  }
  EXPECT_EQ(hosts, 1u);
  for (const ReasonCount& r : stats[0].reasons) EXPECT_FALSE(r.name.starts_with("lockstep.handover.abort")) << r.name;
}

TEST(DeterministicPlayer, WhenTheHostsProcessVanishesASuccessorRebuildsTheAuthority) {
  const uint64_t seed = test_seed(0x116);
  ListenMatch match(seed);
  match.run(Duration::seconds(5));
  const uint32_t before = match.processes[1].player->stats().peer.confirmed_frame;
  match.processes[0].alive = false;  // the host's process dies without a word
  match.run(Duration::seconds(8));
  const std::vector<DeterministicPlayerStats> stats = match.stats();
  print("host killed at 5 s", seed, stats);
  uint32_t hosts = 0;
  for (std::size_t i = 1; i < stats.size(); ++i) {
    EXPECT_EQ(stats[i].host_losses, 1u) << i;
    EXPECT_GT(stats[i].peer.confirmed_frame, before + 300) << "the survivors play on: " << i;
    if (!stats[i].hosting) continue;
    ++hosts;
    EXPECT_EQ(stats[i].takeovers, 1u);
    EXPECT_GT(stats[i].frames_compared, 200u);
    EXPECT_EQ(stats[i].desync_frame, 0xffff'ffffu);
  }
  EXPECT_EQ(hosts, 1u);
}

TEST(DeterministicPlayer, AConfigThatCannotPlayIsRefusedByName) {
  world::LockstepArena game(kPlayers, 1);
  world::ArenaBotInput input(1);
  DeterministicPlayerConfig config = player_config(0, fixed_key(43));
  config.policy.mode.mode = RuntimeMode::snapshot;
  DeterministicPlayerOpen opened = DeterministicPlayer::open(config, game, input);
  EXPECT_FALSE(opened);
  EXPECT_NE(opened.error.find("mode.mode"), std::string::npos) << opened.error;
  config = player_config(7, fixed_key(43));
  opened = DeterministicPlayer::open(config, game, input);
  EXPECT_NE(opened.error.find("seat"), std::string::npos) << opened.error;
  config = player_config(0, fixed_key(43));
  config.player_servers.pop_back();
  opened = DeterministicPlayer::open(config, game, input);
  EXPECT_NE(opened.error.find("player_servers"), std::string::npos) << opened.error;
  config = player_config(0, fixed_key(43));
  config.player_servers[2] = "nowhere";
  opened = DeterministicPlayer::open(config, game, input);
  EXPECT_NE(opened.error.find("player_servers: not a numeric HOST:PORT"), std::string::npos) << opened.error;
}

}  // namespace
}  // namespace tickwire::test

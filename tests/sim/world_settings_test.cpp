// World settings through the whole game (seed 000: "replicated in every snapshot like the other world
// settings"): the server changes forgiveness and the world time scale mid-session; every client
// hears the new settings within its latency, its prediction steps at the new scale and claims by the
// new forgiveness, the server's pawns move at the scaled speed, and a paused world stands still on
// both ends.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <optional>
#include <vector>

#include "game_sim.h"
#include "support.h"

namespace tickwire {
namespace {

using namespace tickwire::test;

constexpr protocol::WorldSettings kSlowForgiving{0.25f, 0.5f};

struct Walkers {
  explicit Walkers(uint64_t seed) : sim(seed, config()) {
    GameClientSetup setup;
    setup.up = setup.down = steady_link(40.0, 5.0);
    for (int i = 0; i < 3; ++i) {
      setup.input = walk_forward(static_cast<float>(i) * 120.0f);
      clients.push_back(&sim.add_client(setup));
    }
    sim.run_for(Duration::seconds(3));
  }
  static GameSimConfig config() {
    GameSimConfig c;
    c.map_text = flat_map_json();
    return c;
  }
  // The mean horizontal distance the server moved each pawn per tick over `d`.
  double metres_per_tick(Duration d) {
    std::vector<protocol::Vec3> from;
    for (SimGameClient* c : clients) from.push_back(sim.pawn_of(*c).feet.to_wire());
    const int64_t first = sim.room.last_tick().value();
    sim.run_for(d);
    const auto ticks = static_cast<double>(sim.room.last_tick().value() - first);
    double sum = 0;
    for (std::size_t i = 0; i < clients.size(); ++i) {
      const protocol::Vec3 to = sim.pawn_of(*clients[i]).feet.to_wire();
      sum += std::hypot(to.x - from[i].x, to.z - from[i].z);
    }
    return sum / static_cast<double>(clients.size()) / ticks;
  }
  // Sets the settings, then runs until every client holds them; the longest wait.
  Duration change_to(const protocol::WorldSettings& settings) {
    EXPECT_TRUE(sim.facade->set_world_settings(settings));
    const MonoTime at = sim.world.now;
    std::vector<std::optional<MonoTime>> heard(clients.size());
    sim.after_frame = [&](SimGameClient& c) {
      for (std::size_t i = 0; i < clients.size(); ++i) {
        if (clients[i] == &c && !heard[i] && c.facade->world_settings() == settings) heard[i] = sim.world.now;
      }
    };
    sim.run_for(Duration::seconds(1));
    sim.after_frame = nullptr;
    Duration worst;
    for (const auto& h : heard) {
      EXPECT_TRUE(h.has_value()) << "a client never heard the settings";
      if (h) worst = std::max(worst, *h - at);
    }
    return worst;
  }
  uint64_t corrections() const {
    uint64_t n = 0;
    for (SimGameClient* c : clients) n += c->client.predictor()->stats().corrections;
    return n;
  }
  uint64_t claims_accepted() const {
    uint64_t n = 0;
    for (SimGameClient* c : clients) n += c->client.counters().claims_accepted;
    return n;
  }
  uint64_t claims_corrected() const {
    uint64_t n = 0;
    for (SimGameClient* c : clients) n += c->client.counters().claims_corrected;
    return n;
  }

  GameSim sim;
  std::vector<SimGameClient*> clients;
};

TEST(WorldSettings, AChangeReachesEveryClientAndPredictionStepsAtTheNewScale) {
  Walkers w(test_seed(0x3e70));
  ASSERT_TRUE(w.sim.all_welcomed());
  for (SimGameClient* c : w.clients) EXPECT_EQ(c->facade->world_settings(), protocol::WorldSettings{});
  const double before_mpt = w.metres_per_tick(Duration::seconds(1));
  const uint64_t corrections_before = w.corrections();
  EXPECT_EQ(w.claims_accepted(), 0u) << "at forgiveness 1 no client claims";

  const Duration heard = w.change_to(kSlowForgiving);
  for (SimGameClient* c : w.clients) {
    EXPECT_FLOAT_EQ(static_cast<float>(c->client.predictor()->forgiveness()), 0.25f);
    EXPECT_EQ(c->client.predictor()->time_scale(), 0.5f);
  }
  const uint64_t corrections_at_change = w.corrections() - corrections_before;
  const uint64_t claims_corrected_at_change = w.claims_corrected();
  const uint64_t settled = w.corrections();
  const double slow_mpt = w.metres_per_tick(Duration::seconds(2));
  const uint64_t corrections_after = w.corrections() - settled;
  const uint64_t claims_corrected_after = w.claims_corrected() - claims_corrected_at_change;
  const uint64_t accepted = w.claims_accepted();

  const Duration heard_back = w.change_to(protocol::WorldSettings{});
  const uint64_t accepted_back = w.claims_accepted();
  const double back_mpt = w.metres_per_tick(Duration::seconds(1));
  std::printf("[ world settings ] 3 walkers, 40 ms links: heard in %.0f ms (back: %.0f ms); %.4f m/tick at scale 1, "
              "%.4f at 0.5, %.4f back at 1; corrections: %llu around the change, %llu in the 2 s after; claims "
              "accepted %llu at forgiveness 0.25, %llu after the return to 1; claims corrected %llu around the "
              "change, %llu after\n",
              heard.seconds_f() * 1e3, heard_back.seconds_f() * 1e3, before_mpt, slow_mpt, back_mpt,
              static_cast<unsigned long long>(corrections_at_change), static_cast<unsigned long long>(corrections_after),
              static_cast<unsigned long long>(accepted), static_cast<unsigned long long>(accepted_back - accepted),
              static_cast<unsigned long long>(claims_corrected_at_change),
              static_cast<unsigned long long>(claims_corrected_after));
  EXPECT_LT(heard, Duration::milliseconds(200)) << "a 40 ms link, every snapshot carries them";
  EXPECT_LT(heard_back, Duration::milliseconds(200));
  EXPECT_NEAR(slow_mpt / before_mpt, 0.5, 0.02) << "the server steps half the world time per tick";
  EXPECT_NEAR(back_mpt / before_mpt, 1.0, 0.02);
  EXPECT_EQ(corrections_after, 0u) << "prediction steps at the replicated scale: nothing to correct";
  EXPECT_GT(accepted, 200u) << "at forgiveness 0.25 the honest clients claim, and are adopted";
  EXPECT_LE(accepted_back - accepted, 30u) << "claims stop within a round trip of forgiveness 1";
  // The claims a client simulated at the old scale before it heard of the new one (one round trip
  // of ticks) are corrected: the gate bounds a claim by the mover's speed over the tick's world time.
  EXPECT_LE(claims_corrected_at_change, 3u * 12u);
  EXPECT_EQ(claims_corrected_after, 0u) << "once heard, honest claims are adopted";
}

// A paused world (time scale 0): the server's pawns stand where they are however their clients
// walk, and each client's drawn pawn stops too (its prediction steps zero seconds).
TEST(WorldSettings, APausedWorldStandsStillOnBothEnds) {
  Walkers w(test_seed(0x3e71));
  ASSERT_TRUE(w.sim.all_welcomed());
  (void)w.change_to(protocol::WorldSettings{1.0f, 0.0f});
  std::vector<protocol::Vec3> server_at, drawn_at;
  for (SimGameClient* c : w.clients) {
    server_at.push_back(w.sim.pawn_of(*c).feet.to_wire());
    drawn_at.push_back(c->facade->own_position());
  }
  w.sim.run_for(Duration::seconds(2));
  double server_moved = 0, drawn_moved = 0;
  for (std::size_t i = 0; i < w.clients.size(); ++i) {
    const protocol::Vec3 s = w.sim.pawn_of(*w.clients[i]).feet.to_wire();
    const protocol::Vec3 d = w.clients[i]->facade->own_position();
    server_moved = std::max(server_moved, static_cast<double>(std::hypot(s.x - server_at[i].x, s.z - server_at[i].z)));
    drawn_moved = std::max(drawn_moved, static_cast<double>(std::hypot(d.x - drawn_at[i].x, d.z - drawn_at[i].z)));
  }
  std::printf("[ world settings ] paused 2 s: server pawns moved at most %.6f m, drawn pawns %.6f m\n", server_moved,
              drawn_moved);
  EXPECT_EQ(server_moved, 0.0);
  EXPECT_LT(drawn_moved, 0.01) << "the last eased correction at most";
}

}  // namespace
}  // namespace tickwire

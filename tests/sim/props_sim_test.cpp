// 200 server props shoved by 16 bots over the network (the crate yard) (SimNetwork, seeded): the server's solver owns
// every crate, the clients mirror the poses their snapshots carry and predict against them. Neither
// the server's pawns nor any client's predicted pawn is ever found inside a crate (a pawn stops at a
// crate; the server's crates stop at a pawn; only the push rule moves one); when the bots stand
// still the crates come to rest (the solver puts every one to sleep).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "game_profiles.h"
#include "game_sim.h"
#include "support.h"
#include "tickwire/world/box_sweep.h"
#include "tickwire/world/crate_yard_map.h"
#include "tickwire/world/turned_box.h"

namespace tickwire {
namespace {

using namespace tickwire::test;

constexpr float kFoundInsideM = world::kShallowOverlapM;  // deeper than this on every axis is inside

float deepest(const world::Aabb& pawn, const std::vector<world::TurnedBox>& boxes) {
  float d = 0;
  for (const world::TurnedBox& box : boxes) d = std::max(d, world::overlap_depth(pawn, box));
  return d;
}

TEST(PropsSim, SixteenBotsShoveTwoHundredCratesNobodyWalksThroughOneAndTheyComeToRest) {
  const uint64_t seed = test_seed(0xc4a7e);
  GameSimConfig config;
  config.map_text = world::crate_yard_map_text();
  GameSim sim(seed, config);
  ASSERT_EQ(sim.solids.props().size(), world::kCrateYardCrates);
  bool still = false;
  for (int i = 0; i < 16; ++i) {
    GameClientSetup setup;
    setup.up = setup.down = *link_profile(i % 2 == 0 ? "broadband" : "transatlantic");
    auto brain = std::make_shared<world::BotBrain>(world::BotBehaviour::wander, seed * 31 + static_cast<uint64_t>(i));
    setup.input = [brain, &still](uint32_t sequence) { return still ? protocol::InputCmd{} : brain->next(sequence); };
    sim.add_client(setup);
  }
  const float radius = sim.mover.settings().radius_m;
  uint64_t server_checks = 0, server_inside = 0, client_checks = 0, client_inside = 0;
  float server_deepest = 0, client_deepest = 0;
  std::vector<world::TurnedBox> boxes;
  sim.watched.after_tick = [&](Tick) {
    boxes.clear();
    sim.game.props().append_boxes(boxes);
    for (const auto& c : sim.clients) {
      if (!c->client.session().welcomed() || sim.game.pawn(c->pawn()) == nullptr) continue;
      const float d = deepest(world::pawn_bounds(sim.pawn_of(*c), radius), boxes);
      ++server_checks;
      server_inside += d > kFoundInsideM ? 1 : 0;
      server_deepest = std::max(server_deepest, d);
    }
  };
  std::vector<world::TurnedBox> mirrored;
  std::vector<world::PropTrack> tracks;
  sim.after_frame = [&](SimGameClient& c) {
    const Predictor* predictor = c.client.predictor();
    const PredictionContext context = c.client.prediction_context();
    if (predictor == nullptr || context.snapshot == nullptr) return;
    // Each prop as the prediction saw it: on its trajectory ticks_ahead after the snapshot, stopped
    // short of the pawn (a prop stops at a pawn), never further back than the snapshot's own pose:
    // the pawn is inside one only if it walked into it.
    sim.solids.prop_tracks(context.snapshot, context.previous, tracks);
    mirrored.clear();
    const world::Aabb pawn = world::pawn_bounds(world::pawn_from_predicted(predictor->predicted()), radius);
    sim.solids.prop_boxes_ahead(tracks, context.ticks_ahead, mirrored, &pawn);
    const float d = deepest(pawn, mirrored);
    ++client_checks;
    client_inside += d > kFoundInsideM ? 1 : 0;
    client_deepest = std::max(client_deepest, d);
  };

  sim.run_for(Duration::seconds(30));
  ASSERT_TRUE(sim.all_welcomed());
  uint32_t moved = 0;
  for (uint32_t slot = 0; slot < 200; ++slot) moved += sim.game.props().moved(slot) ? 1 : 0;
  const std::size_t awake_while_shoving = sim.game.props().awake();
  still = true;
  sim.run_for(Duration::seconds(10));
  uint64_t corrections = 0;
  for (const auto& c : sim.clients) corrections += c->client.predictor()->stats().corrections;
  std::printf("[ props ] 16 bots, 200 crates, 30 s then 10 s still, seed %llu: %llu pushes, %u crates moved, %zu awake "
              "while shoving, %zu awake after 10 s still; pawns inside a crate: server %llu of %llu ticks (deepest %.4f m), "
              "predicted %llu of %llu frames (deepest %.4f m); corrections %llu; solver steps stopped at a pawn %llu\n",
              static_cast<unsigned long long>(seed), static_cast<unsigned long long>(sim.game.props().counts().pushes),
              moved, awake_while_shoving, sim.game.props().awake(), static_cast<unsigned long long>(server_inside),
              static_cast<unsigned long long>(server_checks), server_deepest, static_cast<unsigned long long>(client_inside),
              static_cast<unsigned long long>(client_checks), client_deepest, static_cast<unsigned long long>(corrections),
              static_cast<unsigned long long>(sim.game.props().counts().stopped_at_pawn));
  for (uint32_t slot = 0; slot < 200; ++slot) {
    if (sim.game.props().asleep(slot)) continue;
    const world::Vec3 p = sim.game.props().pose(slot).position;
    float nearest = 1e9f;
    for (const auto& c : sim.clients) {
      const world::Vec3 f = sim.pawn_of(*c).feet;
      nearest = std::min(nearest, std::max(std::fabs(f.x - p.x), std::fabs(f.z - p.z)));
    }
    std::printf("awake %u at %.3f %.3f %.3f, nearest pawn %.3f\n", slot, p.x, p.y, p.z, nearest);
  }
  EXPECT_GT(sim.game.props().counts().pushes, 100u) << "the bots did shove crates";
  EXPECT_GT(moved, 10u);
  EXPECT_GT(client_checks, 10000u);
  EXPECT_EQ(server_inside, 0u) << "a server pawn walked into a crate";
  EXPECT_EQ(client_inside, 0u) << "a predicted pawn walked into a crate";
  EXPECT_EQ(sim.game.props().awake(), 0u) << "every crate came to rest";
}

}  // namespace
}  // namespace tickwire

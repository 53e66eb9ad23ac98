// Walking along a server crate over the network: a pawn brushing a crate's side (within the push
// reach, walking parallel to the face) slides past it without shoving it, and its predicted walk
// against the mirrored crate is the server's, so a transatlantic client logs no correction.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <map>
#include <string>

#include "game_profiles.h"
#include "game_sim.h"
#include "support.h"

namespace tickwire {
namespace {

using namespace tickwire::test;

// Two spawns facing +z, each with a row of heavy crates 5 mm beside its path (one on the right, one on
// the left), 3 to 12 m ahead.
std::string crate_lane_map() {
  std::string objects;
  for (int i = 0; i < 5; ++i) {
    const std::string z = std::to_string(3 + 2 * i);
    objects += (i ? ", " : "") + std::string(R"({"key": "right.)") + std::to_string(i) + R"(", "kind": "crate_prop", "position": [0.905, 0.5, )" +
               z + R"(], "components": [{"name": "physics_prop", "channels": [], "bits": 1, "settings": {"mass": 40, "size": [1, 1, 1]}}]})";
    objects += std::string(R"(, {"key": "left.)") + std::to_string(i) + R"(", "kind": "crate_prop", "position": [9.095, 0.5, )" + z +
               R"(], "components": [{"name": "physics_prop", "channels": [], "bits": 1, "settings": {"mass": 40, "size": [1, 1, 1]}}]})";
  }
  return R"({"format": "tickwire-map", "version": 2, "name": "crate-lane", "boxes": [{"tag": "floor", "material": "concrete",)"
         R"( "min": [-50, -1, -50], "max": [50, 0, 50]}], "spawns": [{"position": [0, 0, 0], "yaw_deg": 0}, {"position": [10, 0, 0], "yaw_deg": 0}],)"
         R"( "objects": [)" + objects + "]}";
}

TEST(CrateWalk, WalkingAlongACrateSlidesPastItAndLogsNoCorrection) {
  const uint64_t seed = test_seed(0xc7a7e);
  GameSimConfig config;
  config.map_text = crate_lane_map();
  GameSim sim(seed, config);
  ASSERT_EQ(sim.solids.props().size(), 10u);
  GameClientSetup setup;
  setup.up = setup.down = *link_profile("transatlantic");
  setup.input = walk_forward();
  SimGameClient& first = sim.add_client(setup);
  SimGameClient& second = sim.add_client(setup);
  // Corrections counted from where the row begins (a start-up correction as the first inputs meet the
  // first reconcile is not the crates' doing).
  std::map<const SimGameClient*, uint64_t> before_row;
  sim.after_frame = [&](SimGameClient& c) {
    if (c.client.predictor() == nullptr || !c.client.session().welcomed() || before_row.count(&c) != 0) return;
    if (sim.game.pawn(c.pawn()) != nullptr && sim.pawn_of(c).feet.z > 2.0f)
      before_row[&c] = c.client.predictor()->stats().corrections;
  };
  sim.run_for(Duration::seconds(6));
  ASSERT_TRUE(sim.all_welcomed());
  const auto along = [&](const SimGameClient& c) {
    EXPECT_EQ(before_row.count(&c), 1u);
    return c.client.predictor()->stats().corrections - before_row[&c];
  };
  uint32_t moved = 0;
  for (uint32_t slot = 0; slot < 10; ++slot) moved += sim.game.props().moved(slot) ? 1 : 0;
  std::printf("[ crate walk ] transatlantic, seed %llu: walked to z %.2f and %.2f past the crates; %u crates moved, %llu "
              "pushes; corrections before the row %llu and %llu, along the row %llu and %llu\n",
              static_cast<unsigned long long>(seed), sim.pawn_of(first).feet.z, sim.pawn_of(second).feet.z, moved,
              static_cast<unsigned long long>(sim.game.props().counts().pushes),
              static_cast<unsigned long long>(before_row[&first]), static_cast<unsigned long long>(before_row[&second]),
              static_cast<unsigned long long>(along(first)), static_cast<unsigned long long>(along(second)));
  EXPECT_GT(sim.pawn_of(first).feet.z, 14.0f) << "slid past the whole row";
  EXPECT_GT(sim.pawn_of(second).feet.z, 14.0f);
  EXPECT_EQ(moved, 0u) << "walking along a face shoves nothing";
  EXPECT_EQ(along(first), 0u);
  EXPECT_EQ(along(second), 0u);
}

}  // namespace
}  // namespace tickwire

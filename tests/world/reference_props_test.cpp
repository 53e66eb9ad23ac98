// The reference game's physics props, no network: a pawn walking into a crate shoves it along and
// follows it (its records carry the pose the solver gave it, the asleep bit clears while it moves
// and sets when it rests); a despawned crate's body goes with it; a map switch away and back puts
// every crate where the map does; two games fed the same inputs move every crate bit for bit alike.
#include <gtest/gtest.h>

#include <string_view>
#include <variant>

#include "game_rig.h"
#include "tickwire/world/crate_yard_map.h"

namespace tickwire::world {
namespace {

using rigs::Rig;

// One crate 3 m ahead of the spawn (the pawn walks +z into it), a wall 8 m further on.
const char* kOneCrate =
    R"({"format": "tickwire-map", "version": 2, "name": "one-crate", "boxes": [{"tag": "floor", "material": "concrete",)"
    R"( "min": [-20, -1, -20], "max": [20, 0, 20]}, {"tag": "wall", "material": "concrete", "min": [-20, 0, 11], "max": [20, 3, 12]}],)"
    R"( "spawns": [{"position": [0, 0, 0], "yaw_deg": 0}], "objects": [{"key": "crate", "kind": "crate_prop", "position": [0, 0.5, 3],)"
    R"( "components": [{"name": "physics_prop", "channels": [10], "bits": 1}]}]})";

void step(Rig& rig, bool walking) {
  ++rig.now;
  const uint32_t sequence = static_cast<uint32_t>(rig.now);
  rig.game.step_pawn(rig.pawn, walking ? rigs::walking_input(sequence, 0) : rigs::still_input(sequence, 0), Tick::from_value(rig.now), rigs::kRigDt);
  rig.game.step_world(Tick::from_value(rig.now), rigs::kRigDt);
}

const protocol::ObjectRecord* record_of(const TickRecords& records, uint32_t index) {
  for (const protocol::Record& r : records.records)
    if (const auto* o = std::get_if<protocol::ObjectRecord>(&r.body); o != nullptr && o->object_index == index) return o;
  return nullptr;
}

TEST(ReferenceProps, AWalkingPawnShovesACrateAndItsRecordsCarryWhereItWent) {
  Rig rig(kOneCrate);
  rig.stand({0, 0, 0}, 0);
  const uint32_t crate = rig.index("crate");
  EXPECT_EQ(rig.bits("crate") & kPropAsleepBit, kPropAsleepBit) << "authored asleep";
  TickRecords records;
  rig.game.write_records(Tick::from_value(0), records);
  ASSERT_NE(record_of(records, crate), nullptr);
  EXPECT_FALSE(record_of(records, crate)->transform.has_value()) << "where the map puts it: no pose on the wire";

  bool woke = false;
  for (int i = 0; i < 120; ++i) {
    step(rig, true);
    woke = woke || (rig.bits("crate") & kPropAsleepBit) == 0;
  }
  EXPECT_TRUE(woke) << "shoved, it woke";
  const PropPose pose = rig.game.props().pose(0);
  EXPECT_GT(pose.position.z, 4.0f) << "pushed along +z";
  EXPECT_NEAR(pose.position.x, 0.0f, 0.05f);
  const PawnState& pawn = *rig.game.pawn(rig.pawn);
  EXPECT_LT(pawn.feet.z + 0.3f, pose.position.z - 0.5f + 0.06f) << "the pawn follows it, never inside it";
  EXPECT_GT(pawn.feet.z, 3.0f) << "and walked on behind it";
  records = {};
  rig.game.write_records(Tick::from_value(rig.now), records);
  const protocol::ObjectRecord* moved = record_of(records, crate);
  ASSERT_NE(moved, nullptr);
  ASSERT_TRUE(moved->transform.has_value());
  EXPECT_EQ(Vec3::from_wire(moved->transform->position), pose.position) << "the pose the server collides with";

  uint64_t pushes_counted = 0;
  rig.game.visit_game_reasons([&](std::string_view name, uint64_t count) {
    if (name == "prop.push") pushes_counted = count;
  });
  EXPECT_EQ(pushes_counted, rig.game.props().counts().pushes) << "an operator sees the shoves in the stats";
  EXPECT_GT(pushes_counted, 0u);

  for (int i = 0; i < 60 * 5; ++i) step(rig, false);
  EXPECT_EQ(rig.bits("crate") & kPropAsleepBit, kPropAsleepBit) << "at rest again, asleep";
  EXPECT_EQ(rig.game.props().awake(), 0u);
}

TEST(ReferenceProps, ADespawnedCrateLetsThePawnThroughAndComesBackWhereTheMapPutsIt) {
  Rig rig(kOneCrate);
  rig.stand({0, 0, 0}, 0);
  ASSERT_TRUE(rig.game.despawn_object(rig.index("crate")));
  for (int i = 0; i < 90; ++i) step(rig, true);
  EXPECT_GT(rig.game.pawn(rig.pawn)->feet.z, 5.0f) << "walked where the crate stood";
  EXPECT_EQ(rig.game.props().counts().pushes, 0u);
  rig.stand({0, 0, 0}, 0);
  ASSERT_TRUE(rig.game.spawn_object(rig.index("crate")));
  EXPECT_FALSE(rig.game.props().moved(0));
  for (int i = 0; i < 60; ++i) step(rig, true);
  EXPECT_GT(rig.game.props().counts().pushes, 0u) << "back, and solid again";
}

TEST(ReferenceProps, AMapSwitchAwayAndBackPutsEveryCrateWhereTheMapDoes) {
  Rig rig(kOneCrate);
  rig.stand({0, 0, 0}, 0);
  for (int i = 0; i < 90; ++i) step(rig, true);
  ASSERT_TRUE(rig.game.props().moved(0));
  const Map yard = rigs::load_rig_map(crate_yard_map_text());
  rig.game.switch_map(yard);
  EXPECT_EQ(rig.game.solids().props().size(), kCrateYardCrates);
  rig.game.switch_map(rig.map);
  ASSERT_EQ(rig.game.solids().props().size(), 1u);
  EXPECT_FALSE(rig.game.props().moved(0)) << "the crate is back where the map puts it";
  EXPECT_EQ(rig.game.props().awake(), 0u) << "and asleep, as authored";
}

TEST(ReferenceProps, TwoGamesFedTheSameInputsMoveEveryCrateAlike) {
  const Map yard = rigs::load_rig_map(crate_yard_map_text());
  const auto run = [&yard]() {
    ReferenceGame game(yard);
    game.begin(rigs::rig_contract());
    std::vector<EntityRef> pawns;
    for (uint8_t i = 0; i < 8; ++i) {
      pawns.push_back(EntityRef::make(EntityNetHandle::make(static_cast<uint8_t>(i + 1), 1), 1));
      game.spawn_pawn(pawns.back(), i + 1, Tick::from_value(0));
    }
    for (int64_t t = 1; t <= 600; ++t) {
      for (std::size_t i = 0; i < pawns.size(); ++i) {
        TickInput input = rigs::still_input(static_cast<uint32_t>(t), static_cast<float>((t / 90 + static_cast<int64_t>(i) * 3) % 8 * 45));
        input.cmd.move_y = 1.0f;
        game.step_pawn(pawns[i], input, Tick::from_value(t), rigs::kRigDt);
      }
      game.step_world(Tick::from_value(t), rigs::kRigDt);
    }
    std::vector<PropPose> poses;
    for (uint32_t slot = 0; slot < kCrateYardCrates; ++slot) poses.push_back(game.props().pose(slot));
    return std::pair{poses, game.props().counts().pushes};
  };
  const auto [first, first_pushes] = run();
  const auto [second, second_pushes] = run();
  EXPECT_GT(first_pushes, 50u);
  EXPECT_EQ(first_pushes, second_pushes);
  EXPECT_EQ(first, second);
}

}  // namespace
}  // namespace tickwire::world

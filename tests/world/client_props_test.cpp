// A client's own props (sim: client): shoved by the pawn through the one push rule, they slide on the
// floor, stop against walls, come to rest and fall asleep; the server never puts one on the wire.
#include <gtest/gtest.h>

#include <variant>

#include "game_rig.h"
#include "tickwire/world/client_props.h"
#include "tickwire/world/client_world.h"

namespace tickwire::world {
namespace {

constexpr const char* kMap = R"({"format": "tickwire-map", "version": 2, "name": "client-crates",
  "boxes": [{"tag": "floor", "material": "concrete", "min": [-50, -1, -50], "max": [50, 0, 50]},
            {"tag": "wall", "material": "concrete", "min": [-50, 0, 12], "max": [50, 3, 13]}],
  "spawns": [{"position": [0, 0, 0], "yaw_deg": 0}],
  "objects": [
    {"key": "crate.client", "kind": "crate_prop", "position": [0, 0.5, 3],
     "components": [{"name": "physics_prop", "channels": [], "bits": 0, "settings": {"mass": 10, "sim": 1, "size": [1, 1, 1]}}]},
    {"key": "crate.server", "kind": "crate_prop", "position": [6, 0.5, 3],
     "components": [{"name": "physics_prop", "channels": [], "bits": 0, "settings": {"mass": 10, "size": [1, 1, 1]}}]}]})";

Aabb pawn_box_at(const Vec3& feet) { return Aabb{feet - Vec3{0.4f, 0, 0.4f}, feet + Vec3{0.4f, 1.8f, 0.4f}}; }

TEST(ClientProps, APawnWalkingIntoOneShovesItUntilAWallStopsItAndThenItSleeps) {
  const Map map = rigs::load_rig_map(kMap);
  ClientProps props = ClientProps::build(map);
  ASSERT_EQ(props.props().size(), 1u) << "only the client's own crate";
  EXPECT_EQ(props.props()[0].object_index, 0u);
  const std::vector<Aabb> statics(map.boxes().begin(), map.boxes().end());
  const Vec3 walk{0, 0, 4};  // 4 m/s along +z
  Vec3 feet{0, 0, 1.5f};
  float lowest = 1e9f, fastest = 0;
  for (int t = 0; t < 60 * 4; ++t) {
    const ClientProp& crate = props.props()[0];
    // The pawn walks on until it leans on the crate (it is never blocked by it: the server's pawn
    // does not know it) and stops short of the wall.
    if (feet.z + 0.4f < 11.9f) feet.z = std::min(feet.z + walk.z / 60.0f, crate.box().min.z - 0.4f + 0.01f);
    props.step(pawn_box_at(feet), walk, statics, 1.0f / 60);
    lowest = std::min(lowest, props.props()[0].box().min.y);
    fastest = std::max(fastest, props.props()[0].velocity_mps.length());
  }
  const ClientProp& crate = props.props()[0];
  EXPECT_GT(props.counts().pushes, 10u);
  EXPECT_LE(fastest, PropPushSettings{}.max_speed_mps + 1e-3f) << "a shove matches, never accumulates";
  EXPECT_GE(lowest, -1e-3f) << "never sinks into the floor";
  EXPECT_LE(crate.box().max.z, 12.0f) << "the wall stops it";
  EXPECT_GT(crate.position.z, 10.0f) << "shoved all the way";
  // The pawn walks away: the crate settles.
  for (int t = 0; t < 60; ++t) props.step(pawn_box_at({0, 0, -5}), {}, statics, 1.0f / 60);
  EXPECT_EQ(props.awake(), 0u);
  props.reset();
  EXPECT_EQ(props.props()[0].position, (Vec3{0, 0.5f, 3}));
}

TEST(ClientProps, TheServerNeverPutsAClientPropOnTheWire) {
  rigs::Rig rig(kMap);
  TickRecords records;
  rig.game.write_records(Tick::from_value(1), records);
  std::vector<protocol::Record> rest;
  rig.game.write_rest_records(rest);
  const auto names = [](const protocol::Record& r, uint32_t index) {
    const auto* object = std::get_if<protocol::ObjectRecord>(&r.body);
    return object != nullptr && object->object_index == index;
  };
  bool client_crate = false, server_crate = false;
  for (const protocol::Record& r : records.records) {
    client_crate = client_crate || names(r, 0);
    server_crate = server_crate || names(r, 1);
  }
  for (const protocol::Record& r : rest) client_crate = client_crate || names(r, 0);
  EXPECT_FALSE(client_crate);
  EXPECT_TRUE(server_crate) << "the server's own crate is in every snapshot";
}

}  // namespace
}  // namespace tickwire::world

// Claims ride presence: an object carried by a voxel volume stands for its cell while it is present,
// so the volume's cook leaves the cell out; despawned, the cell is the volume's again. The server
// judges presence by what it spawned, a client by what its snapshot holds, and the two cook alike.
#include <gtest/gtest.h>

#include <string>

#include "game_rig.h"
#include "tickwire/world/voxel_live.h"
#include "tickwire/world/voxel_prediction_world.h"

namespace tickwire::world {
namespace {

// A wall of 1 m stone cells (4 wide, 3 high, 1 thick) with a door set into cell (1, 0, 0): the door
// object's kind and components as given.
std::string wall_map(const std::string& door) {
  return R"({"format": "tickwire-map", "version": 2, "name": "door-in-wall",
  "boxes": [{"tag": "floor", "material": "concrete", "min": [-20, -1, -20], "max": [20, 0, 20]}],
  "spawns": [{"position": [1.5, 0, -3], "yaw_deg": 0}],
  "voxelGrids": [{"name": "wall", "size": [4, 3, 1], "cellM": 1, "chunkEdge": 4,
                  "blocks": [{"name": "stone"}], "fills": [{"min": [0, 0, 0], "max": [3, 2, 0], "block": 1}]}],
  "objects": [
    {"key": "wall", "kind": "voxel_volume", "position": [0, 0, 0],
     "components": [{"name": "voxel_volume", "channels": [], "bits": 1, "settings": {"grid": 0}}]},
    {"key": "wall/door", "position": [1.5, 0.5, 0.5], )" + door + "}]}";
}

// A plain block: it only stands for its cell.
const std::string kMap = wall_map(R"("kind": "door_block")");

// Whether some box holds the centre of the unit cell whose min corner is `at`.
bool covered(const std::vector<Aabb>& boxes, Vec3 at) {
  const Vec3 c = at + Vec3{0.5f, 0.5f, 0.5f};
  for (const Aabb& b : boxes)
    if (c.x > b.min.x && c.x < b.max.x && c.y > b.min.y && c.y < b.max.y && c.z > b.min.z && c.z < b.max.z) return true;
  return false;
}

const Aabb kAround{{-5, -1, -5}, {9, 5, 5}};

TEST(VoxelClaims, APresentBlockTakesItsCellOutOfTheCookOnBothEnds) {
  rigs::Rig rig(kMap);
  const uint32_t door = rig.index("wall/door");
  const std::vector<VoxelBlockCell> blocks = voxel_block_cells(rig.map);
  ASSERT_EQ(blocks.size(), 1u);
  EXPECT_EQ(blocks[0].object_index, door);
  rig.ticks(2);
  std::vector<Aabb> server;
  rig.game.voxels().colliders().append_boxes_near(kAround, server);
  EXPECT_TRUE(covered(server, {0, 0, 0}));
  EXPECT_FALSE(covered(server, {1, 0, 0})) << "the door stands for its cell";
  EXPECT_TRUE(covered(server, {1, 1, 0}));

  // A client holding a snapshot with the door's record cooks the same; one whose snapshot lacks it
  // (the door despawned) cooks the cell back in.
  VoxelLive live(rig.map);
  VoxelPredictionWorld world(live);
  TickRecords records;
  rig.game.write_records(Tick::from_value(2), records);
  protocol::Snapshot snapshot;
  snapshot.tick = 2;
  snapshot.records = records.records;
  world.sync(&snapshot, {1.5f, 0, -3});
  std::vector<Aabb> client;
  world.append_boxes_near(kAround, client);
  EXPECT_EQ(client.size(), server.size());
  EXPECT_FALSE(covered(client, {1, 0, 0}));

  ASSERT_TRUE(rig.game.despawn_object(door));
  rig.tick();
  server.clear();
  rig.game.voxels().colliders().append_boxes_near(kAround, server);
  EXPECT_TRUE(covered(server, {1, 0, 0})) << "despawned: the cell is the wall's again";
  records.records.clear();
  rig.game.write_records(Tick::from_value(3), records);
  protocol::Snapshot later;
  later.tick = 3;
  later.records = records.records;
  world.sync(&later, {1.5f, 0, -3});
  client.clear();
  world.append_boxes_near(kAround, client);
  EXPECT_TRUE(covered(client, {1, 0, 0}));
  EXPECT_EQ(client.size(), server.size());
  EXPECT_EQ(world.claims().claimed_cells(), 0u);
  EXPECT_EQ(rig.game.voxels().claims().claimed_cells(), 0u);
}

// The same wall, its door a usable mover that writes air through into its cell while open.
const std::string kDoorMap = wall_map(R"("kind": "door", "components": [
    {"name": "mover", "channels": [0, 0], "settings": {"axis": [0, 1, 0], "distance_m": 1, "speed_mps": 10, "usable": 1}},
    {"name": "voxel_block", "settings": {"open_block": 0}}])");

TEST(VoxelClaims, ADoorSetInAWallWritesItsOpenBlockThroughAndEveryClientHearsIt) {
  rigs::Rig rig(kDoorMap);
  const uint32_t wall = rig.index("wall");
  const uint32_t door = rig.index("wall/door");
  const VoxelCell cell{1, 0, 0};
  rig.ticks(2);
  std::vector<GameMessageOut> messages;
  rig.game.take_messages(messages);
  messages.clear();  // the joiner's download: nothing written yet
  EXPECT_EQ(rig.game.voxels().block(wall, cell), 1);

  ASSERT_TRUE(rig.game.logic()->use(door, LogicActivator{rig.pawn.raw()}));
  rig.ticks(30);  // 1 m at 10 m/s: open
  EXPECT_EQ(rig.game.voxels().block(wall, cell), kVoxelAir) << "open: its cell holds the open block";
  rig.game.take_messages(messages);
  ASSERT_FALSE(messages.empty());
  VoxelLive live(rig.map);
  for (const GameMessageOut& m : messages) EXPECT_TRUE(live.take(GameMessage{0, m.type, m.payload}));
  EXPECT_EQ(live.block(wall, cell), kVoxelAir);

  ASSERT_TRUE(rig.game.logic()->use(door, LogicActivator{rig.pawn.raw()}));
  rig.ticks(30);
  EXPECT_EQ(rig.game.voxels().block(wall, cell), 1) << "closed: the map's block again";
  messages.clear();
  rig.game.take_messages(messages);
  for (const GameMessageOut& m : messages) EXPECT_TRUE(live.take(GameMessage{0, m.type, m.payload}));
  EXPECT_EQ(live.block(wall, cell), 1);
  EXPECT_EQ(live.cells(), rig.game.voxels().cells());
  EXPECT_EQ(rig.game.voxels().write_refusals().total(), 0u);
}

}  // namespace
}  // namespace tickwire::world

// The server's physics props on voxel volumes: the prop solver holds the cooked chunks around every
// prop as fixed bodies, so a crate lands on a voxel floor and rests there; a hole written under a
// resting crate wakes it and it falls through; and a crate far from every pawn keeps its floor
// (its own position streams the chunks around it).
#include <gtest/gtest.h>

#include <string>

#include "game_rig.h"

namespace tickwire::world {
namespace {

// An 80 x 1 x 8 m stone floor of 1 m cells (its top at y = 0) and nothing else under the crates: one
// 1 m crate dropped from 2 m at x = 0 beside the pawn, another at x = 70, 73 m from it (past the
// pawn's stream radius and its margin); the map's only box is a post far off the floor.
const char* kMap = R"({"format": "tickwire-map", "version": 2, "name": "voxel-floor",
  "boxes": [{"tag": "post", "material": "concrete", "min": [40, -1, 40], "max": [41, 3, 41]}],
  "spawns": [{"position": [-3, 0, 0], "yaw_deg": 0}],
  "voxelGrids": [{"name": "floor", "size": [80, 1, 8], "cellM": 1, "chunkEdge": 8,
                  "blocks": [{"name": "stone"}], "fills": [{"min": [0, 0, 0], "max": [79, 0, 7], "block": 1}]}],
  "objects": [
    {"key": "floor", "kind": "voxel_volume", "position": [-4, -1, -4],
     "components": [{"name": "voxel_volume", "channels": [], "bits": 1, "settings": {"grid": 0}}]},
    {"key": "crate.near", "kind": "crate_prop", "position": [0, 2, 0], "components": [{"name": "physics_prop", "channels": [10], "bits": 0}]},
    {"key": "crate.far", "kind": "crate_prop", "position": [70, 2, 0], "components": [{"name": "physics_prop", "channels": [10], "bits": 0}]}]})";

TEST(VoxelProps, ACrateLandsOnAVoxelFloorAndFallsThroughAHoleWrittenUnderIt) {
  rigs::Rig rig(kMap);
  rig.ticks(60 * 3);
  const ServerProps& props = rig.game.props();
  ASSERT_EQ(props.counts().respawns, 0u) << "nothing fell out of the world";
  EXPECT_NEAR(props.pose(0).position.y, 0.5f, 0.05f) << "the near crate rests on the voxel floor";
  EXPECT_NEAR(props.pose(1).position.y, 0.5f, 0.05f) << "so does the far one: its own floor was cooked";
  EXPECT_TRUE(props.asleep(0));
  EXPECT_TRUE(props.asleep(1));

  // A 2 x 2 m hole under the near crate (cells x 3..4, z 3..4: world x -1..1, z -1..1).
  const uint32_t floor = rig.index("floor");
  for (uint16_t x = 3; x <= 4; ++x)
    for (uint16_t z = 3; z <= 4; ++z) ASSERT_FALSE(rig.game.write_voxel(floor, VoxelCell{x, 0, z}, 0).has_value());
  rig.ticks(60);
  EXPECT_LT(props.pose(0).position.y, -1.0f) << "woken by the recook, it fell through the hole";
  EXPECT_NEAR(props.pose(1).position.y, 0.5f, 0.05f) << "the far one never noticed";
}

}  // namespace
}  // namespace tickwire::world

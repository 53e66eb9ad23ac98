// The load ladders' default thresholds: the room ladder reads its tick cost first (the leading sign)
// and its clock's lag as the backstop; the shard ladder its thread's busy share first and its loop's
// lag as the backstop, its top rung engaging at half the kill threshold's lag.
#include "tickwire/protocol/load_policy.h"

namespace tickwire {

std::vector<RoomRungThresholds> default_room_rungs() {
  return {
      {RoomLoadRung::world_lane_slowed, 50, 35, 2, 0},
      {RoomLoadRung::interest_narrowed, 65, 50, 3, 1},
      {RoomLoadRung::snapshot_budget_cut, 80, 65, 4, 2},
      {RoomLoadRung::admissions_closed, 95, 80, 6, 3},
  };
}

std::vector<ShardRungThresholds> default_shard_rungs() {
  return {
      {ShardLoadRung::placement_closed, 60, 45, 2, 0},
      {ShardLoadRung::rooms_shed, 75, 60, 4, 1},
      {ShardLoadRung::admissions_closed, 85, 70, 8, 2},
      {ShardLoadRung::rooms_migrated, 95, 80, 16, 4},
  };
}

}  // namespace tickwire

// The two send-rate lanes: a pose lane at the tick rate for near and important transforms, and a
// world lane at the snapshot rate for everything else. LaneSchedule says which lane an entity
// rides (by distance and its importance flag) and on which ticks the world lane is open.
#pragma once

#include <cmath>
#include <cstdint>

#include "tickwire/clock/tick.h"
#include "tickwire/core/assert.h"

namespace tickwire {

enum class SendLane : uint8_t {
  pose = 0,   // every tick
  world = 1,  // snapshot ticks only
};

struct LaneSchedule {
  static constexpr uint32_t kMaxTicksPerSnapshot = 240;  // the contract's tick-rate cap at 1 Hz snapshots

  float pose_radius_m = 30.0f;     // within this ground distance a transform rides the pose lane
  uint32_t ticks_per_snapshot = 1;  // NetcodeContract::ticks_per_snapshot (tick rate / snapshot rate)

  SendLane lane_for(float distance_m, bool important) const {
    return important || distance_m <= pose_radius_m ? SendLane::pose : SendLane::world;
  }
  // Snapshot ticks are the multiples of ticks_per_snapshot (tick 0 included).
  bool is_snapshot_tick(Tick tick) const {
    TW_ASSERT(ticks_per_snapshot >= 1 && ticks_per_snapshot <= kMaxTicksPerSnapshot, "ticks_per_snapshot out of range");
    const auto n = static_cast<int64_t>(ticks_per_snapshot);
    return ((tick.value() % n) + n) % n == 0;
  }
};

}  // namespace tickwire

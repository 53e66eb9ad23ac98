// A world for the client snapshot builder's tests: entities with interest attributes and a
// replicated state each, a world frame rebuilt every tick, and one builder. Each state's payload
// channel 0 carries the tick the state was taken at, so a client frame tells how stale it is.
#pragma once

#include <gtest/gtest.h>

#include <spdlog/sinks/null_sink.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <memory>
#include <vector>

#include "tickwire/replication/builder/client_snapshot_builder.h"

namespace tickwire::test {

// Record ids are not interest indices (the room maps one to the other).
inline uint32_t record_id_of(uint32_t entity) { return entity * 3 + 7; }

struct SnapshotRig {
  SnapshotRig(uint32_t max_entities, const ClientSnapshotBuilderConfig& config, float map_m = 400.0f)
      : world(world_config(max_entities, map_m)), builder(world, kinds, config), stamp(max_entities, -1) {}

  static InterestWorldConfig world_config(uint32_t max_entities, float map_m) {
    InterestWorldConfig c;
    c.grid = InterestGridConfig{0.0f, 0.0f, map_m, map_m, 25.0f, max_entities};
    c.max_always_relevant = 64;
    c.max_scene_frames = 64;
    return c;
  }
  ClientReplicationConfig client_config() const {
    ClientReplicationConfig c;
    c.max_entities = world.max_entities();
    c.logger = logger;
    return c;
  }

  void put(uint32_t e, float x, float z, uint8_t flags = 0, uint16_t owner = kNoOwnerClient, float importance = 1.0f) {
    ASSERT_TRUE(world.insert(e, InterestEntity{x, z, owner, flags, importance}));
  }
  // The entity's state as of `tick`: its position (1/512 m quanta) and the tick in channel 0.
  ReplicaState state_of(uint32_t e, int64_t tick) const {
    ReplicaState s;
    s.id = record_id_of(e);
    s.kind = 2;
    s.position = {static_cast<int32_t>(world.x_m(e) * 512.0f), 0, static_cast<int32_t>(world.z_m(e) * 512.0f)};
    s.payload_count = 1;
    s.payloads[0].channel_count = 1;
    s.payloads[0].channels[0] = static_cast<float>(tick);
    return s;
  }
  // Marks entity `e` as changed at `tick` (its state is re-taken when the frame is built).
  void touch(uint32_t e, int64_t tick) { stamp[e] = tick; }

  // The world frame of `tick` (every live entity, ascending id), handed to the builder.
  void begin(int64_t tick) {
    frame.tick = static_cast<uint32_t>(tick);
    frame.states.clear();
    entities.clear();
    for (uint32_t e = 0; e < world.max_entities(); ++e) {
      if (!world.contains(e)) continue;
      frame.states.push_back(state_of(e, stamp[e]));
      entities.push_back(e);
    }  // ids grow with e, so the frame ascends by id
    builder.begin_tick(WorldTickFrame{Tick::from_value(tick), &frame, entities, &world});
  }

  // The tick a client frame's state of `e` was taken at, or -1 when the frame does not hold e.
  static int64_t held_tick(const FrameView& f, uint32_t e) {
    for (std::size_t i = 0; i < f.size(); ++i) {
      if (f[i].id == record_id_of(e)) return static_cast<int64_t>(f[i].payloads[0].channels[0]);
    }
    return -1;
  }

  // The budget log's lines are counted, not printed.
  std::shared_ptr<spdlog::logger> logger =
      std::make_shared<spdlog::logger>("snapshot_rig", std::make_shared<spdlog::sinks::null_sink_st>());
  InterestWorld world;
  ReplicaKinds kinds = ReplicaKinds::defaults();
  ClientSnapshotBuilder builder;
  std::vector<int64_t> stamp;  // per entity: the tick its state was last changed
  ReplicaFrame frame;
  std::vector<uint32_t> entities;
};

}  // namespace tickwire::test

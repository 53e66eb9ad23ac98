// A crowd for the whole-game sims: props within 40 m of a point, each somewhere new every tick (a
// hash of entity, tick and axis: no delta predicts it), so a room carries more than its budget or
// one message does. The swarm's crowd, and a test's that needs a snapshot past one message.
#pragma once

#include <cstdint>

#include "tickwire/clock/tick.h"
#include "tickwire/replication/tick_records.h"
#include "tickwire/world/vec3.h"
#include "tickwire/world/reference_vocabulary.h"

namespace tickwire::test {

inline constexpr uint32_t kCrowdFirstId = 3'000'000;  // the crowd's entity ids, past the game's

// Adds `count` crowd records for `tick` about `centre` to `out`.
inline void add_crowd_records(Tick tick, const world::Vec3& centre, uint32_t count, TickRecords& out) {
  for (uint32_t i = 0; i < count; ++i) {
    const auto jump_m = [&](uint64_t axis) {
      uint64_t h = (i + 1) * 0x9e3779b97f4a7c15ULL ^ static_cast<uint64_t>(tick.value() + 1) * 0xc2b2ae3d27d4eb4fULL ^ axis;
      h ^= h >> 31;
      h *= 0xbf58476d1ce4e5b9ULL;
      h ^= h >> 29;
      return static_cast<float>(h % 8000) / 100.0f - 40.0f;
    };
    protocol::EntityRecord entity;
    entity.kind = world::kKindProp;
    entity.position = {centre.x + jump_m(1), centre.y + 1.0f, centre.z + jump_m(3)};
    out.add(protocol::Record{kCrowdFirstId + i, entity});
  }
}

}  // namespace tickwire::test

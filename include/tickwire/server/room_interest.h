// RoomInterest: which of the tick's records each client of the room sees (seed 003, interest).
// Entity records (pawns, spawns) are filed by position in an InterestWorld and a client sees those
// within its radius of its pawn; map objects are seen by everyone (the rest table and the delta
// make the ones at rest free). The client's frame is cut from the tick's frame, so leaving the
// radius is an explicit removal in the delta and coming back an addition.
#pragma once

#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

#include "tickwire/replication/interest_set.h"
#include "tickwire/replication/interest_world.h"
#include "tickwire/replication/replica_kinds.h"
#include "tickwire/replication/replica_state.h"

namespace tickwire {

struct RoomInterestConfig {
  float radius_m = 100.0f;
  uint32_t max_entities = 4096;  // entity records filed at once; more are seen by nobody (counted)
  InterestGridConfig grid{-1024.0f, -1024.0f, 2048.0f, 2048.0f, 25.0f, 4096};
};

class RoomInterest {
 public:
  explicit RoomInterest(const RoomInterestConfig& config);

  // Files the tick's entity-form states by position (metres, from their kind's quantum); entities
  // absent since the last update leave the world. `states` ascend by id.
  void update(std::span<const ReplicaState> states, const ReplicaKinds& kinds);
  // Writes to `out` (cleared first) every object-form state and the entity-form states within the
  // radius of (x_m, z_m), in `states`' order. `states` must be the ones given to the last update.
  void select(float x_m, float z_m, std::span<const ReplicaState> states, std::vector<ReplicaState>& out);

  uint64_t overflowed() const { return overflowed_; }  // entity records past max_entities, summed over ticks
  const RoomInterestConfig& config() const { return config_; }

 private:
  RoomInterestConfig config_;
  InterestWorld world_;
  InterestComposer composer_;
  InterestSet set_;
  std::unordered_map<uint32_t, uint32_t> index_of_;  // record id -> interest index
  std::vector<uint32_t> free_;                       // interest indices not in use
  std::vector<uint64_t> seen_in_;                    // per interest index: the last update that had it
  std::vector<uint64_t> selected_in_;                // per interest index: the last select that chose it
  std::vector<uint32_t> index_of_state_;             // per state of the last update (kNoEntity: object or overflow)
  uint64_t updates_ = 0;
  uint64_t selects_ = 0;
  uint64_t overflowed_ = 0;
};

}  // namespace tickwire

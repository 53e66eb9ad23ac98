// RoomInterest: the room's InterestWorld (seed 003, interest). Entity records (pawns, spawns) are
// filed by position each tick, the clients' pawns marked as theirs, so the ClientSnapshotBuilder can
// cut each client's frame by radius and budget; map objects are shared by every client (the rest
// table and the delta make the ones at rest free). Leaving the radius is an explicit removal in the
// delta and coming back an addition.
#pragma once

#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

#include "tickwire/replication/interest/interest_world.h"
#include "tickwire/replication/frames/replica_kinds.h"
#include "tickwire/replication/frames/replica_state.h"

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
  // absent since the last update leave the world. Writes the frame the clients' snapshots are cut
  // from (`states`, which ascend by id, minus entities past max_entities, which nobody sees and are
  // counted) and each of its states' interest index (kNoEntity: a map object, shared by everyone).
  void update(std::span<const ReplicaState> states, const ReplicaKinds& kinds, ReplicaFrame& frame,
              std::vector<uint32_t>& entities);
  // The interest index the last update filed `record_id` at; kNoEntity when it did not.
  uint32_t index_of(uint32_t record_id) const;
  // `index` (filed by the last update) is `client`'s pawn: owned by it and on the pose lane everywhere.
  void mark_pawn(uint32_t index, uint16_t client);

  const InterestWorld& world() const { return world_; }
  uint64_t overflowed() const { return overflowed_; }  // entity records past max_entities, summed over ticks
  const RoomInterestConfig& config() const { return config_; }

 private:
  RoomInterestConfig config_;
  InterestWorld world_;
  std::unordered_map<uint32_t, uint32_t> index_of_;  // record id -> interest index
  std::vector<uint32_t> free_;                       // interest indices not in use
  std::vector<uint64_t> seen_in_;                    // per interest index: the last update that had it
  uint64_t updates_ = 0;
  uint64_t overflowed_ = 0;
};

}  // namespace tickwire

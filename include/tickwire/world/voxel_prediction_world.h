// VoxelPredictionWorld: the voxel volumes in a client's prediction world. The same placements rule
// the server applies and the same claims (both read off the newest snapshot: presence there is an
// object's lifecycle, so a volume or a block it does not hold is out), the client's live cells
// (VoxelLive) and the same streaming colliders around its own pawn, synced before every predicted
// step and every replay, so a predicted walk stands on the very boxes the server's walk stands on,
// and never on a floor still in the queue.
#pragma once

#include <cstdint>
#include <vector>

#include "tickwire/protocol/snapshot.h"
#include "tickwire/world/voxel_claims.h"
#include "tickwire/world/voxel_colliders.h"
#include "tickwire/world/voxel_live.h"

namespace tickwire::world {

class VoxelPredictionWorld {
 public:
  // `live` is the caller's and must outlive it.
  explicit VoxelPredictionWorld(const VoxelLive& live, const VoxelStreamSettings& settings = {});

  // Before a predicted step: the volumes and blocks `snapshot` holds (null: all, as the map authors
  // them), and the chunks around the pawn's feet streamed, those within the urgent radius cooked at once.
  void sync(const protocol::Snapshot* snapshot, const Vec3& pawn_feet);
  void append_boxes_near(const Aabb& region, std::vector<Aabb>& out) const {
    colliders_.append_boxes_near(region, out);
  }
  // Moves when a written chunk arrived: a prediction the server confirmed is replayed against it.
  uint64_t revision() const { return live_.cells().revision(); }
  const VoxelColliders& colliders() const { return colliders_; }
  const VoxelClaims& claims() const { return claims_; }
  // The map places no voxel volume: nothing to sync.
  bool empty() const { return volumes_.empty() && indexed_map_ == &live_.map(); }

 private:
  void index_volumes();

  const VoxelLive& live_;
  VoxelColliders colliders_;
  const Map* indexed_map_ = nullptr;
  std::vector<uint32_t> volumes_;         // the map's voxel volume object indices
  std::vector<int32_t> volume_slot_;      // by object index: its place in volumes_, or -1
  std::vector<VoxelBlockCell> blocks_;    // the map's blocks (objects carried by a volume)
  VoxelClaims claims_;
  std::vector<const protocol::ObjectRecord*> records_;  // scratch: each volume's record in the snapshot
  std::vector<uint8_t> present_;                        // scratch: by object index, held by the snapshot
  const protocol::Snapshot* synced_snapshot_ = nullptr;
  uint32_t synced_tick_ = 0;
  bool synced_ = false;
};

}  // namespace tickwire::world

// VoxelColliders: the voxel volumes' bodies one end steps its pawns against, streamed by distance.
// Both ends run it the same way over the same inputs (the placements rule, the cells, the players):
// chunks within the stream radius of a player are cooked a few per sync, nearest first; chunks within
// the urgent radius are cooked on the spot, so no pawn ever steps over a floor still in the queue;
// chunks past the stream radius (and a margin) go. A chunk whose cells changed is cooked again.
#pragma once

#include <cstdint>
#include <map>
#include <utility>
#include <span>
#include <vector>

#include "tickwire/world/vec3.h"
#include "tickwire/world/voxel_cells.h"
#include "tickwire/world/voxel_claims.h"
#include "tickwire/world/voxel_grid.h"

namespace tickwire::world {

// How far past its box one step can carry a pawn (a fall at the mover's terminal speed moves under a
// metre a tick): a step collides with the voxel boxes within this of the pawn's box, on both ends.
inline constexpr float kVoxelStepReachM = 2.0f;
Aabb voxel_step_region(const Aabb& pawn_box);
// The farthest a step's region reaches from a standing pawn's feet (its box's corner, 0.4 m aside and
// 1.8 m up, plus the reach on every axis: 5.1 m), rounded up.
inline constexpr float kVoxelStepCornerM = 5.2f;

struct VoxelStreamSettings {
  float stream_radius_m = 48.0f;  // chunks this near a player are wanted
  float urgent_radius_m = 8.0f;   // chunks this near a player are cooked on the spot (>= kVoxelUrgentMinM)
  float evict_margin_m = 16.0f;   // cooked chunks go once this much past the stream radius of all
  uint32_t cooks_per_sync = 8;    // chunks cooked from the queue per sync (beside the urgent ones)
};

inline constexpr float kVoxelBucketM = 64.0f;
// How far a player may move before its chunks are scanned again: the urgent radius less this still
// covers every step's reach (voxel_step_region), so nothing it could touch is left uncooked.
inline constexpr float kVoxelRescanM = 1.0f;
inline constexpr float kVoxelUrgentMinM = kVoxelRescanM + kVoxelStepCornerM;

// A placed volume that counts (the placements rule, voxel_placements.h): its object index, its grid
// and where its cell (0, 0, 0) has its min corner.
struct VoxelPlacement {
  uint32_t volume = 0;
  const VoxelGrid* grid = nullptr;
  Vec3 origin;
  friend bool operator==(const VoxelPlacement&, const VoxelPlacement&) = default;
};

struct VoxelColliderCounts {
  uint64_t cooked_urgent = 0;  // cooked on the spot (a player within the urgent radius)
  uint64_t cooked_queued = 0;  // cooked from the queue
  uint64_t recooked = 0;       // of those, chunks whose cells changed after they were cooked
  uint64_t evicted = 0;        // dropped past the stream radius
  uint64_t queued = 0;         // chunks wanted but not yet cooked after the last sync
};

class VoxelColliders {
 public:
  explicit VoxelColliders(const VoxelStreamSettings& settings = {});

  // The volumes that count now; the chunks of a volume no longer among them (or moved) go.
  void set_placements(std::vector<VoxelPlacement> placements);
  // Streams the chunks around `players` over `cells`, less the cells `claims` holds (null: none;
  // see the file's comment). A chunk whose writes or claims changed since it was cooked is cooked again.
  void sync(std::span<const Vec3> players, const VoxelCells& cells, const VoxelClaims* claims = nullptr);
  // The boxes of every cooked chunk whose bounds overlap `region`, appended.
  void append_boxes_near(const Aabb& region, std::vector<Aabb>& out) const;
  // Each cooked chunk: its key, a stamp that changes when it is cooked again from other cells or
  // claims, its bounds and its boxes (what a prop solver mirrors as fixed bodies).
  template <class Visit>
  void for_each_cooked(Visit visit) const {
    for (const auto& [key, cooked] : cooked_)
      visit(key, (uint64_t{cooked.writes_revision} << 32) | cooked.claims_stamp, cooked.bounds,
            std::span<const Aabb>(cooked.boxes));
  }
  // Whether every chunk overlapping `region` of every placement is cooked (the chunks a step there
  // could touch).
  bool covers(const Aabb& region) const;
  // Moves whenever the cooked set changes (a chunk cooked, recooked or dropped).
  uint64_t revision() const { return revision_; }
  std::size_t cooked_chunks() const { return cooked_.size(); }
  const VoxelColliderCounts& counts() const { return counts_; }
  const VoxelStreamSettings& settings() const { return settings_; }
  void clear();

 private:
  struct Cooked {
    Aabb bounds;
    uint32_t writes_revision = 0;  // the chunk's revision it was cooked from (0: no writes)
    uint32_t claims_stamp = 0;     // and its claims' stamp
    std::vector<Aabb> boxes;
  };
  struct Wanted {
    float distance_m = 0;
    std::size_t placement = 0;
    uint32_t chunk = 0;
  };
  void cook(std::size_t placement, uint32_t chunk, const VoxelCells& cells, const VoxelClaims* claims);
  void index_placements();
  // Each placement whose bounds may overlap `box`, once (through the buckets).
  template <class Visit>
  void for_each_placement_near(const Aabb& box, Visit visit);
  bool fresh(const VoxelChunkKey& key, const VoxelCells& cells, const VoxelClaims* claims) const;

  VoxelStreamSettings settings_;
  std::vector<VoxelPlacement> placements_;
  // The placements by ground bucket (kVoxelBucketM squares): a sync visits the volumes near its
  // players, not every volume of a map that places thousands.
  std::map<std::pair<int32_t, int32_t>, std::vector<uint32_t>> buckets_;
  std::vector<Aabb> placement_bounds_;
  std::vector<uint64_t> visited_;  // by placement: the stamp of the last query that visited it
  uint64_t stamp_ = 0;
  uint64_t placements_revision_ = 0;
  std::map<VoxelChunkKey, Cooked> cooked_;
  // The last full scan: where the players stood and the cells', claims' and placements' revisions
  // it saw. A sync whose players all stand within kVoxelRescanM of where they stood then, over the
  // same cells, claims and placements, has nothing new to want: it only works through the queue.
  void scan(std::span<const Vec3> players, const VoxelCells& cells, const VoxelClaims* claims);
  bool settled(std::span<const Vec3> players, const VoxelCells& cells, const VoxelClaims* claims) const;
  std::vector<Vec3> scanned_at_;
  uint64_t scanned_cells_ = 0;
  uint64_t scanned_claims_ = 0;
  uint64_t scanned_placements_ = 0;
  bool scanned_ = false;
  std::vector<Wanted> wanted_;      // the last scan's wants, nearest first: the queue from next_wanted_
  std::size_t next_wanted_ = 0;
  std::vector<uint8_t> solid_;      // scratch
  std::vector<VoxelChunkKey> gone_; // scratch
  VoxelColliderCounts counts_;
  uint64_t revision_ = 0;
};


// The distance from `p` to the nearest point of `box` (0 inside).
float distance_to_box(const Vec3& p, const Aabb& box);

}  // namespace tickwire::world

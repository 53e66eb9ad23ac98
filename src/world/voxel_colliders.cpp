// Streaming the voxel chunks by distance: what is wanted around the players, what is cooked at once,
// what waits its turn nearest first, and what goes.
#include "tickwire/world/voxel_colliders.h"

#include <algorithm>
#include <cmath>

#include "tickwire/core/assert.h"
#include "tickwire/world/voxel_cooker.h"

namespace tickwire::world {
namespace {

// The chunk range of `grid` (placed at `origin`) a box overlaps, clamped; false when it misses.
bool chunk_range(const VoxelGrid& grid, const Vec3& origin, const Aabb& box, VoxelCell& lo, VoxelCell& hi) {
  const float span = grid.cell_m() * grid.chunk_edge();
  const float mins[3] = {box.min.x - origin.x, box.min.y - origin.y, box.min.z - origin.z};
  const float maxs[3] = {box.max.x - origin.x, box.max.y - origin.y, box.max.z - origin.z};
  for (int axis = 0; axis < 3; ++axis) {
    const float count = grid.chunks()[axis];
    const float a = std::floor(mins[axis] / span);
    const float b = std::floor(maxs[axis] / span);
    if (!(b >= 0) || !(a < count)) return false;  // past the grid, or not a number
    lo[axis] = static_cast<uint16_t>(std::max(a, 0.0f));
    hi[axis] = static_cast<uint16_t>(std::min(b, count - 1));
  }
  return true;
}

template <class Visit>
void for_each_chunk(const VoxelGrid& grid, const Vec3& origin, const Aabb& box, Visit visit) {
  VoxelCell lo{}, hi{};
  if (!chunk_range(grid, origin, box, lo, hi)) return;
  const VoxelCell& n = grid.chunks();
  for (uint32_t y = lo[1]; y <= hi[1]; ++y)
    for (uint32_t z = lo[2]; z <= hi[2]; ++z)
      for (uint32_t x = lo[0]; x <= hi[0]; ++x) visit((y * n[2] + z) * n[0] + x);
}

Aabb around(const Vec3& p, float r) { return Aabb{p - Vec3{r, r, r}, p + Vec3{r, r, r}}; }

}  // namespace

float distance_to_box(const Vec3& p, const Aabb& box) {
  const float dx = std::max({box.min.x - p.x, 0.0f, p.x - box.max.x});
  const float dy = std::max({box.min.y - p.y, 0.0f, p.y - box.max.y});
  const float dz = std::max({box.min.z - p.z, 0.0f, p.z - box.max.z});
  return std::sqrt(dx * dx + dy * dy + dz * dz);
}

Aabb voxel_step_region(const Aabb& pawn_box) {
  const Vec3 reach{kVoxelStepReachM, kVoxelStepReachM, kVoxelStepReachM};
  return Aabb{pawn_box.min - reach, pawn_box.max + reach};
}

VoxelColliders::VoxelColliders(const VoxelStreamSettings& settings) : settings_(settings) {
  TW_ASSERT(settings.urgent_radius_m >= kVoxelUrgentMinM && settings.stream_radius_m >= settings.urgent_radius_m,
            "the urgent radius covers a step's reach after a rescan's worth of motion, and the stream radius it");
}

void VoxelColliders::set_placements(std::vector<VoxelPlacement> placements) {
  if (placements == placements_) return;
  placements_ = std::move(placements);
  cooked_.clear();  // placements rarely change: everything is cooked again around the players
  index_placements();
  ++placements_revision_;
  ++revision_;
}

void VoxelColliders::clear() {
  placements_.clear();
  cooked_.clear();
  index_placements();
  ++placements_revision_;
  ++revision_;
}

namespace {
// A ground bucket's index along one axis; a coordinate past +-2^30 buckets (or not a number: a pawn
// flung out of the world) lands in the outermost one, where no placement is.
int32_t bucket_of(float metres) {
  constexpr float kLimit = 1073741824.0f;
  const float bucket = std::floor(metres / kVoxelBucketM);
  return static_cast<int32_t>(bucket > -kLimit ? (bucket < kLimit ? bucket : kLimit) : -kLimit);
}
}  // namespace

void VoxelColliders::index_placements() {
  buckets_.clear();
  placement_bounds_.clear();
  visited_.assign(placements_.size(), 0);
  for (uint32_t i = 0; i < placements_.size(); ++i) {
    const VoxelPlacement& p = placements_[i];
    const float c = p.grid->cell_m();
    const Aabb bounds{p.origin, p.origin + Vec3{p.grid->size()[0] * c, p.grid->size()[1] * c, p.grid->size()[2] * c}};
    placement_bounds_.push_back(bounds);
    for (int32_t x = bucket_of(bounds.min.x); x <= bucket_of(bounds.max.x); ++x)
      for (int32_t z = bucket_of(bounds.min.z); z <= bucket_of(bounds.max.z); ++z) buckets_[{x, z}].push_back(i);
  }
}

template <class Visit>
void VoxelColliders::for_each_placement_near(const Aabb& box, Visit visit) {
  ++stamp_;
  for (int32_t x = bucket_of(box.min.x); x <= bucket_of(box.max.x); ++x) {
    for (int32_t z = bucket_of(box.min.z); z <= bucket_of(box.max.z); ++z) {
      const auto bucket = buckets_.find({x, z});
      if (bucket == buckets_.end()) continue;
      for (uint32_t i : bucket->second) {
        if (visited_[i] == stamp_ || !placement_bounds_[i].overlaps(box)) continue;
        visited_[i] = stamp_;
        visit(i);
      }
    }
  }
}

bool VoxelColliders::fresh(const VoxelChunkKey& key, const VoxelCells& cells, const VoxelClaims* claims) const {
  const auto it = cooked_.find(key);
  if (it == cooked_.end()) return false;
  const VoxelChunkWrites* writes = cells.chunk(key);
  return it->second.writes_revision == (writes != nullptr ? writes->revision : 0) &&
         it->second.claims_stamp == (claims != nullptr ? claims->stamp(key) : 0);
}

void VoxelColliders::cook(std::size_t placement, uint32_t chunk, const VoxelCells& cells, const VoxelClaims* claims) {
  const VoxelPlacement& p = placements_[placement];
  const VoxelChunkKey key{p.volume, chunk};
  const VoxelChunkWrites* writes = cells.chunk(key);
  voxel_chunk_solids(*p.grid, chunk, writes, claims != nullptr ? claims->of(key) : std::span<const uint16_t>{}, solid_);
  const auto held = cooked_.find(key);
  if (held != cooked_.end()) ++counts_.recooked;
  Cooked& cooked = held != cooked_.end() ? held->second : cooked_[key];
  cooked.bounds = voxel_chunk_bounds(*p.grid, p.origin, chunk);
  cooked.writes_revision = writes != nullptr ? writes->revision : 0;
  cooked.claims_stamp = claims != nullptr ? claims->stamp(key) : 0;
  cooked.boxes.clear();
  cook_voxel_chunk(*p.grid, p.origin, chunk, solid_, cooked.boxes);
  ++revision_;
}

bool VoxelColliders::settled(std::span<const Vec3> players, const VoxelCells& cells, const VoxelClaims* claims) const {
  if (!scanned_ || players.size() != scanned_at_.size() || cells.revision() != scanned_cells_ ||
      (claims != nullptr ? claims->revision() : 0) != scanned_claims_ || placements_revision_ != scanned_placements_)
    return false;
  for (std::size_t i = 0; i < players.size(); ++i)
    if ((players[i] - scanned_at_[i]).length() > kVoxelRescanM) return false;
  return true;
}

void VoxelColliders::sync(std::span<const Vec3> players, const VoxelCells& cells, const VoxelClaims* claims) {
  if (placements_.empty()) return;  // nothing to stream (a map without voxel volumes)
  if (!settled(players, cells, claims)) scan(players, cells, claims);
  // The queue, nearest first, a few a sync (a chunk cooked meanwhile is skipped).
  uint32_t budget = settings_.cooks_per_sync;
  while (budget > 0 && next_wanted_ < wanted_.size()) {
    const Wanted& w = wanted_[next_wanted_++];
    if (fresh(VoxelChunkKey{placements_[w.placement].volume, w.chunk}, cells, claims)) continue;
    cook(w.placement, w.chunk, cells, claims);
    ++counts_.cooked_queued;
    --budget;
  }
  counts_.queued = wanted_.size() - next_wanted_;
}

// A full look around the players: what they want (nearest first), the urgent part cooked now, the
// rest queued, and what no player is near any more dropped.
void VoxelColliders::scan(std::span<const Vec3> players, const VoxelCells& cells, const VoxelClaims* claims) {
  scanned_at_.assign(players.begin(), players.end());
  scanned_cells_ = cells.revision();
  scanned_claims_ = claims != nullptr ? claims->revision() : 0;
  scanned_placements_ = placements_revision_;
  scanned_ = true;
  wanted_.clear();
  for (const Vec3& player : players) {
    const Aabb reach = around(player, settings_.stream_radius_m);
    for_each_placement_near(reach, [&](uint32_t i) {
      const VoxelPlacement& p = placements_[i];
      for_each_chunk(*p.grid, p.origin, reach, [&](uint32_t chunk) {
        const float d = distance_to_box(player, voxel_chunk_bounds(*p.grid, p.origin, chunk));
        if (d <= settings_.stream_radius_m && !fresh(VoxelChunkKey{p.volume, chunk}, cells, claims))
          wanted_.push_back(Wanted{d, i, chunk});
      });
    });
  }
  // Nearest first (ties in placement and chunk order, so both ends cook in one order); a chunk two
  // players want is taken once, at its nearest.
  std::sort(wanted_.begin(), wanted_.end(), [](const Wanted& a, const Wanted& b) {
    if (a.distance_m != b.distance_m) return a.distance_m < b.distance_m;
    return a.placement != b.placement ? a.placement < b.placement : a.chunk < b.chunk;
  });
  next_wanted_ = 0;
  while (next_wanted_ < wanted_.size() && wanted_[next_wanted_].distance_m <= settings_.urgent_radius_m) {
    const Wanted& w = wanted_[next_wanted_++];
    if (fresh(VoxelChunkKey{placements_[w.placement].volume, w.chunk}, cells, claims)) continue;
    cook(w.placement, w.chunk, cells, claims);
    ++counts_.cooked_urgent;
  }
  gone_.clear();
  const float keep_m = settings_.stream_radius_m + settings_.evict_margin_m;
  for (const auto& [key, cooked] : cooked_) {
    bool near = false;
    for (const Vec3& player : players) near = near || distance_to_box(player, cooked.bounds) <= keep_m;
    if (!near) gone_.push_back(key);
  }
  for (const VoxelChunkKey& key : gone_) cooked_.erase(key);
  counts_.evicted += gone_.size();
  if (!gone_.empty()) ++revision_;
}

void VoxelColliders::append_boxes_near(const Aabb& region, std::vector<Aabb>& out) const {
  for (const auto& [key, cooked] : cooked_) {
    if (!cooked.bounds.overlaps(region)) continue;
    for (const Aabb& box : cooked.boxes)
      if (box.overlaps(region)) out.push_back(box);
  }
}

bool VoxelColliders::covers(const Aabb& region) const {
  for (uint32_t i = 0; i < placements_.size(); ++i) {
    const VoxelPlacement& p = placements_[i];
    if (!placement_bounds_[i].overlaps(region)) continue;
    bool all = true;
    for_each_chunk(*p.grid, p.origin, region, [&](uint32_t chunk) { all = all && cooked_.count({p.volume, chunk}) != 0; });
    if (!all) return false;
  }
  return true;
}

}  // namespace tickwire::world

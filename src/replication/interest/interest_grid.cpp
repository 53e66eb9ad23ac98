// The cell grid's bookkeeping: per-cell doubly linked entity lists threaded through one node array,
// so insert, move (across cells or within one) and remove are O(1) and never allocate.
#include "tickwire/replication/interest/interest_grid.h"

#include <algorithm>
#include <cmath>

namespace tickwire {

namespace {

uint32_t cells_along(float size_m, float cell_m) {
  TW_ASSERT(std::isfinite(size_m) && size_m > 0.0f, "interest grid size must be finite and > 0");
  const double cells = std::ceil(static_cast<double>(size_m) / static_cast<double>(cell_m));
  TW_ASSERT(cells >= 1.0 && cells <= static_cast<double>(InterestGrid::kMaxCells), "interest grid too fine");
  return static_cast<uint32_t>(cells);
}

}  // namespace

InterestGrid::InterestGrid(const InterestGridConfig& config)
    : min_x_m_(config.min_x_m),
      min_z_m_(config.min_z_m),
      inv_cell_m_(1.0f / config.cell_size_m),
      cells_x_(cells_along(config.size_x_m, config.cell_size_m)),
      cells_z_(cells_along(config.size_z_m, config.cell_size_m)) {
  TW_ASSERT(std::isfinite(config.cell_size_m) && config.cell_size_m > 0.0f, "interest cell size must be > 0");
  TW_ASSERT(std::isfinite(config.min_x_m) && std::isfinite(config.min_z_m), "interest grid corner must be finite");
  TW_ASSERT(uint64_t{cells_x_} * cells_z_ <= kMaxCells, "interest grid has more cells than kMaxCells");
  TW_ASSERT(config.max_entities >= 1 && config.max_entities <= kMaxEntities, "interest grid capacity out of range");
  heads_.assign(size_t{cells_x_} * cells_z_, kNone);
  nodes_.resize(config.max_entities);
  starts_.assign(heads_.size() + 1, 0);
  packed_.resize(config.max_entities);
}

void InterestGrid::link(uint32_t entity, uint32_t cell) {
  Node& n = nodes_[entity];
  n.cell = cell;
  n.prev = kNone;
  n.next = heads_[cell];
  if (n.next != kNone) nodes_[n.next].prev = entity;
  heads_[cell] = entity;
}

void InterestGrid::unlink(uint32_t entity) {
  Node& n = nodes_[entity];
  if (n.prev != kNone) {
    nodes_[n.prev].next = n.next;
  } else {
    heads_[n.cell] = n.next;
  }
  if (n.next != kNone) nodes_[n.next].prev = n.prev;
  n.next = n.prev = n.cell = kNone;
}

void InterestGrid::insert(uint32_t entity, float x_m, float z_m) {
  TW_ASSERT(!contains(entity), "entity inserted into the interest grid twice");
  TW_ASSERT(std::isfinite(x_m) && std::isfinite(z_m), "interest grid position must be finite");
  nodes_[entity].x_m = x_m;
  nodes_[entity].z_m = z_m;
  link(entity, cell_of(x_m, z_m));
  ++size_;
  compacted_ = false;
}

void InterestGrid::move(uint32_t entity, float x_m, float z_m) {
  TW_ASSERT(contains(entity), "moving an entity the interest grid does not hold");
  TW_ASSERT(std::isfinite(x_m) && std::isfinite(z_m), "interest grid position must be finite");
  Node& n = nodes_[entity];
  n.x_m = x_m;
  n.z_m = z_m;
  compacted_ = false;
  const uint32_t cell = cell_of(x_m, z_m);
  if (cell == n.cell) return;
  unlink(entity);
  link(entity, cell);
}

void InterestGrid::remove(uint32_t entity) {
  TW_ASSERT(contains(entity), "removing an entity the interest grid does not hold");
  unlink(entity);
  --size_;
  compacted_ = false;
}

// A counting sort by cell: count, turn counts into starts, then file each entity (ascending index,
// so a cell's run is in index order) at its cell's next free place.
void InterestGrid::compact() {
  std::fill(starts_.begin(), starts_.end(), 0u);
  for (const Node& n : nodes_) {
    if (n.cell != kNone) ++starts_[n.cell + 1];
  }
  for (std::size_t c = 1; c < starts_.size(); ++c) starts_[c] += starts_[c - 1];
  for (uint32_t e = 0; e < nodes_.size(); ++e) {
    const Node& n = nodes_[e];
    if (n.cell == kNone) continue;
    // starts_[cell] is advanced as the cell fills, then restored below from its neighbour.
    packed_[starts_[n.cell]++] = Packed{n.x_m, n.z_m, e};
  }
  for (std::size_t c = starts_.size() - 1; c > 0; --c) starts_[c] = starts_[c - 1];
  starts_[0] = 0;
  compacted_ = true;
}

uint32_t InterestGrid::query(float x_m, float z_m, float radius_m, std::span<uint32_t> out) const {
  uint32_t found = 0;
  for_each_within(x_m, z_m, radius_m, [&](uint32_t entity) {
    if (found < out.size()) out[found] = entity;
    ++found;
  });
  return found;
}

}  // namespace tickwire

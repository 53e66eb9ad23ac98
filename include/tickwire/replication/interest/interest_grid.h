// InterestGrid: a uniform cell grid over entity positions, so "who is within R of this client" costs
// the few cells the circle touches instead of a scan of the whole world. Entities are dense indices
// [0, max_entities); everything is sized at construction and nothing allocates afterwards.
//
// The grid is two-dimensional, over the ground plane (x, z; y is up and ignored): interest is a
// vertical cylinder. Game maps are wide and shallow (a 1 km map is rarely 100 m tall), so a third
// axis would add a near-empty cell layer per query without changing who is relevant; a game that
// needs vertical culling can filter the composed set by height.
#pragma once

#include <cmath>
#include <cstdint>
#include <span>
#include <vector>

#include "tickwire/core/assert.h"

namespace tickwire {

struct InterestGridConfig {
  float min_x_m = 0.0f;  // the covered area's lower corner on the ground plane
  float min_z_m = 0.0f;
  float size_x_m = 1000.0f;
  float size_z_m = 1000.0f;
  float cell_size_m = 25.0f;
  uint32_t max_entities = 4096;
};

class InterestGrid {
 public:
  static constexpr uint32_t kMaxCells = uint32_t{1} << 20;     // e.g. 1024 x 1024
  static constexpr uint32_t kMaxEntities = uint32_t{1} << 20;  // dense indices per grid
  static constexpr uint32_t kNone = UINT32_MAX;
  static constexpr float kReachSlack = 1.0001f;  // query cell range: radius x this + kReachSlackM
  static constexpr float kReachSlackM = 0.01f;

  explicit InterestGrid(const InterestGridConfig& config);

  // Positions outside the covered area are kept exactly but filed in the nearest border cell, so
  // queries stay exact everywhere (they just cost more far outside the area).
  void insert(uint32_t entity, float x_m, float z_m);
  void move(uint32_t entity, float x_m, float z_m);
  void remove(uint32_t entity);

  // Lays every cell's entities out in one array, cell after cell (ascending index within a cell),
  // so a query scans each row of cells it touches as one contiguous run instead of chasing lists.
  // Call once a tick after the moves: any insert, move or remove undoes it until the next call
  // (queries stay exact either way).
  void compact();
  bool compacted() const { return compacted_; }

  bool contains(uint32_t entity) const { return node(entity).cell != kNone; }
  float x_m(uint32_t entity) const { return node(entity).x_m; }
  float z_m(uint32_t entity) const { return node(entity).z_m; }
  uint32_t size() const { return size_; }
  uint32_t max_entities() const { return static_cast<uint32_t>(nodes_.size()); }
  uint32_t cells_x() const { return cells_x_; }
  uint32_t cells_z() const { return cells_z_; }

  // Calls fn(entity) for every entity whose ground-plane distance to (x, z) is <= radius_m, in no
  // particular order.
  template <class Fn>
  void for_each_within(float x_m, float z_m, float radius_m, Fn&& fn) const;

  // The same as a list: writes up to out.size() matches and returns how many there were in all
  // (a return above out.size() means `out` was too small and the rest were left out).
  uint32_t query(float x_m, float z_m, float radius_m, std::span<uint32_t> out) const;

 private:
  struct Node {
    float x_m = 0.0f;
    float z_m = 0.0f;
    uint32_t next = kNone;  // the cell's entity list, doubly linked through the nodes
    uint32_t prev = kNone;
    uint32_t cell = kNone;  // kNone: not in the grid
  };
  const Node& node(uint32_t entity) const {
    TW_ASSERT(entity < nodes_.size(), "interest grid entity index out of range");
    return nodes_[entity];
  }
  // The cell column (row) holding coordinate v, clamped to the border cells.
  static uint32_t axis_cell(float v, float min, float inv_cell, uint32_t cells) {
    const float f = (v - min) * inv_cell;
    if (!(f > 0.0f)) return 0;
    if (f >= static_cast<float>(cells)) return cells - 1;
    return static_cast<uint32_t>(f);
  }
  uint32_t cell_of(float x_m, float z_m) const {
    return axis_cell(z_m, min_z_m_, inv_cell_m_, cells_z_) * cells_x_ + axis_cell(x_m, min_x_m_, inv_cell_m_, cells_x_);
  }
  void link(uint32_t entity, uint32_t cell);
  void unlink(uint32_t entity);

  float min_x_m_;
  float min_z_m_;
  float inv_cell_m_;
  template <class Fn>
  void scan_lists(uint32_t x0, uint32_t x1, uint32_t z0, uint32_t z1, float x_m, float z_m, float radius_sq,
                  Fn& fn) const;
  template <class Fn>
  void scan_rows(uint32_t x0, uint32_t x1, uint32_t z0, uint32_t z1, float x_m, float z_m, float radius_sq,
                 Fn& fn) const;

  uint32_t cells_x_;
  uint32_t cells_z_;
  uint32_t size_ = 0;
  std::vector<uint32_t> heads_;  // first entity per cell, kNone when empty
  std::vector<Node> nodes_;
  // The compacted layout (valid while compacted_): cell c's entities are [starts_[c], starts_[c+1]).
  bool compacted_ = false;
  std::vector<uint32_t> starts_;  // cells + 1
  struct Packed {
    float x_m;
    float z_m;
    uint32_t entity;
  };
  std::vector<Packed> packed_;  // max_entities
};

template <class Fn>
void InterestGrid::for_each_within(float x_m, float z_m, float radius_m, Fn&& fn) const {
  TW_ASSERT(std::isfinite(x_m) && std::isfinite(z_m), "interest query at a non-finite point");
  TW_ASSERT(radius_m >= 0.0f && std::isfinite(radius_m), "interest radius must be finite and >= 0");
  // The cell range reaches a hair past the radius: the distance test below rounds, and an entity it
  // accepts must never sit in a cell the range left out. Extra cells cost a little, never a match.
  const float reach_m = radius_m * kReachSlack + kReachSlackM;
  const uint32_t x0 = axis_cell(x_m - reach_m, min_x_m_, inv_cell_m_, cells_x_);
  const uint32_t x1 = axis_cell(x_m + reach_m, min_x_m_, inv_cell_m_, cells_x_);
  const uint32_t z0 = axis_cell(z_m - reach_m, min_z_m_, inv_cell_m_, cells_z_);
  const uint32_t z1 = axis_cell(z_m + reach_m, min_z_m_, inv_cell_m_, cells_z_);
  const float radius_sq = radius_m * radius_m;
  if (compacted_) {
    scan_rows(x0, x1, z0, z1, x_m, z_m, radius_sq, fn);
  } else {
    scan_lists(x0, x1, z0, z1, x_m, z_m, radius_sq, fn);
  }
}

template <class Fn>
void InterestGrid::scan_lists(uint32_t x0, uint32_t x1, uint32_t z0, uint32_t z1, float x_m, float z_m,
                              float radius_sq, Fn& fn) const {
  for (uint32_t cz = z0; cz <= z1; ++cz) {
    for (uint32_t cx = x0; cx <= x1; ++cx) {
      for (uint32_t e = heads_[cz * cells_x_ + cx]; e != kNone;) {
        const Node& n = nodes_[e];
        const float dx = n.x_m - x_m;
        const float dz = n.z_m - z_m;
        if (dx * dx + dz * dz <= radius_sq) fn(e);
        e = n.next;
      }
    }
  }
}

// A row's cells x0..x1 are neighbours in the compacted array: one run per row.
template <class Fn>
void InterestGrid::scan_rows(uint32_t x0, uint32_t x1, uint32_t z0, uint32_t z1, float x_m, float z_m,
                             float radius_sq, Fn& fn) const {
  for (uint32_t cz = z0; cz <= z1; ++cz) {
    const uint32_t end = starts_[cz * cells_x_ + x1 + 1];
    for (uint32_t i = starts_[cz * cells_x_ + x0]; i < end; ++i) {
      const Packed& p = packed_[i];
      const float dx = p.x_m - x_m;
      const float dz = p.z_m - z_m;
      if (dx * dx + dz * dz <= radius_sq) fn(p.entity);
    }
  }
}

}  // namespace tickwire

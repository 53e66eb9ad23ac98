// Voxel claims (seed 000, "Voxel cells": claims ride presence). An object carried by a voxel volume
// (its key under the volume's: a door set into a wall of blocks) stands for the cell its position
// falls in: while it is present its own body and visual are that cell's, so the volume's cook leaves
// the cell out. No claim is ever sent: the server claims the cells of the blocks it has spawned, a
// client those of the blocks its newest snapshot holds, so a claim can never arrive before or outlive
// the object holding it.
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <vector>

#include "tickwire/world/map.h"
#include "tickwire/world/voxel_cells.h"

namespace tickwire::world {

// A block: an object carried by a voxel volume, the cell it stands for.
struct VoxelBlockCell {
  uint32_t object_index = 0;
  VoxelChunkKey chunk;
  uint16_t offset = 0;
};

// Every block of a map (objects carried by a voxel volume whose position falls inside its grid), in
// object index order.
std::vector<VoxelBlockCell> voxel_block_cells(const Map& map);

class VoxelClaims {
 public:
  // The cells of the blocks `present(object_index)` says are in; each chunk whose claims changed
  // gets a new stamp.
  template <class Present>
  void update(std::span<const VoxelBlockCell> blocks, Present present) {
    next_.clear();
    for (const VoxelBlockCell& block : blocks)
      if (present(block.object_index)) next_[block.chunk].push_back(block.offset);
    commit();
  }
  // A chunk's claimed offsets, sorted (empty: none).
  std::span<const uint16_t> of(const VoxelChunkKey& chunk) const;
  // Moves whenever the chunk's claims change (0: never claimed).
  uint32_t stamp(const VoxelChunkKey& chunk) const;
  std::size_t claimed_cells() const;
  // Moves whenever any chunk's claims change.
  uint64_t revision() const { return revision_; }

 private:
  void commit();
  std::map<VoxelChunkKey, std::vector<uint16_t>> claimed_;
  std::map<VoxelChunkKey, std::vector<uint16_t>> next_;  // scratch
  std::map<VoxelChunkKey, uint32_t> stamps_;
  uint64_t revision_ = 0;
};

}  // namespace tickwire::world

// The written chunks: the server's writes (one cell at a time, each change moving the chunk's
// revision) and a client's copies (whole chunks, the newest revision kept).
#include "tickwire/world/voxel_cells.h"

#include <algorithm>

namespace tickwire::world {
namespace {

auto find_offset(std::vector<VoxelWrite>& writes, uint16_t offset) {
  return std::lower_bound(writes.begin(), writes.end(), offset,
                          [](const VoxelWrite& w, uint16_t at) { return w.offset < at; });
}

}  // namespace

std::optional<uint8_t> VoxelChunkWrites::block_at(uint16_t offset) const {
  const auto it = std::lower_bound(writes.begin(), writes.end(), offset,
                                   [](const VoxelWrite& w, uint16_t at) { return w.offset < at; });
  if (it == writes.end() || it->offset != offset) return std::nullopt;
  return it->block;
}

bool VoxelCells::write(const VoxelChunkKey& key, uint16_t offset, uint8_t block, uint8_t authored) {
  auto chunk = chunks_.find(key);
  if (chunk == chunks_.end()) {
    if (block == authored || chunks_.size() >= kMaxVoxelWrittenChunks) return false;
    chunk = chunks_.emplace(key, VoxelChunkWrites{}).first;
  }
  std::vector<VoxelWrite>& writes = chunk->second.writes;
  const auto at = find_offset(writes, offset);
  const bool held = at != writes.end() && at->offset == offset;
  const uint8_t now = held ? at->block : authored;
  if (now == block) return false;
  if (block == authored) {
    writes.erase(at);
  } else if (held) {
    at->block = block;
  } else {
    writes.insert(at, VoxelWrite{offset, block});
  }
  ++chunk->second.revision;
  ++revision_;
  return true;
}

bool VoxelCells::apply(const VoxelChunkKey& key, uint32_t revision, std::span<const VoxelWrite> writes) {
  auto chunk = chunks_.find(key);
  if (chunk == chunks_.end()) {
    if (chunks_.size() >= kMaxVoxelWrittenChunks) return false;
    chunk = chunks_.emplace(key, VoxelChunkWrites{}).first;
  } else if (revision <= chunk->second.revision) {
    return false;
  }
  chunk->second.revision = revision;
  chunk->second.writes.assign(writes.begin(), writes.end());
  ++revision_;
  return true;
}

uint8_t VoxelCells::block(uint32_t volume, const VoxelGrid& grid, const VoxelCell& cell) const {
  if (!grid.contains(cell)) return kVoxelAir;
  if (const VoxelChunkWrites* writes = chunk({volume, grid.chunk_of(cell)}))
    if (const auto written = writes->block_at(grid.offset_in_chunk(cell))) return *written;
  return grid.authored(cell);
}

const VoxelChunkWrites* VoxelCells::chunk(const VoxelChunkKey& key) const {
  const auto it = chunks_.find(key);
  return it == chunks_.end() ? nullptr : &it->second;
}

void VoxelCells::clear() {
  if (chunks_.empty()) return;
  chunks_.clear();
  ++revision_;
}

}  // namespace tickwire::world

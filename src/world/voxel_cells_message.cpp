// The voxelCells message through its field table, and the checks a client makes before it lays a
// chunk over its own cells.
#include "tickwire/world/voxel_cells_message.h"

#include "tickwire/core/assert.h"
#include "tickwire/wire/codec.h"

namespace tickwire::world {

VoxelCellsMessage voxel_cells_message(const VoxelGrid& grid, const VoxelChunkKey& key, const VoxelChunkWrites& writes) {
  VoxelCellsMessage m;
  m.volume = key.volume;
  m.size = grid.size();
  m.chunk_edge = grid.chunk_edge();
  m.blocks_layer = grid.blocks_layer();
  m.chunk = key.chunk;
  m.revision = writes.revision;
  m.writes = writes.writes;
  return m;
}

std::vector<uint8_t> encode_voxel_cells(const VoxelCellsMessage& message) { return wire::encode_bytes(message); }

Status decode_voxel_cells(std::span<const uint8_t> payload, VoxelCellsMessage& out) {
  return wire::decode(payload, out);
}

std::optional<VoxelCellsRefusal> check_voxel_cells(const VoxelCellsMessage& message, const VoxelGrid& grid) {
  if (message.size != grid.size() || message.chunk_edge != grid.chunk_edge() ||
      message.blocks_layer != grid.blocks_layer())
    return VoxelCellsRefusal::grid_mismatch;
  if (message.chunk >= grid.chunk_count()) return VoxelCellsRefusal::bad_chunk;
  const std::size_t blocks = grid.def().blocks.size();
  for (std::size_t i = 0; i < message.writes.size(); ++i) {
    const VoxelWrite& w = message.writes[i];
    if (i > 0 && w.offset <= message.writes[i - 1].offset) return VoxelCellsRefusal::bad_write;
    if (w.offset >= grid.cells_per_chunk() || w.block > blocks || !grid.contains(grid.cell_at(message.chunk, w.offset)))
      return VoxelCellsRefusal::bad_write;
  }
  return std::nullopt;
}

}  // namespace tickwire::world

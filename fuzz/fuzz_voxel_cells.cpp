// Fuzzes a client's voxelCells reader (VoxelLive::apply: a payload from the network, decoded,
// checked against the client's own grid, laid over its cells). Any bytes are taken or refused by a
// named reason; a chunk taken holds exactly the message's writes, reads back through
// VoxelLive::block, encodes to a message that decodes to itself, and cooks into boxes that cover
// each of its solid cells once.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "voxel_maps.h"
#include "tickwire/world/voxel_cells_message.h"
#include "tickwire/world/voxel_cooker.h"
#include "tickwire/world/voxel_live.h"


extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tickwire::world;
  const Map& map = tickwire::test::voxel_fuzz_map();
  VoxelLive live(map);
  const std::span<const uint8_t> payload(data, size);
  const auto refusal = live.apply(payload);
  if (refusal) {
    if (*refusal >= VoxelCellsRefusal::count_ || live.refusals()[*refusal] != 1 || !live.cells().chunks().empty())
      __builtin_trap();
    return 0;
  }
  VoxelCellsMessage message;
  if (!decode_voxel_cells(payload, message) || live.cells().chunks().size() != 1) __builtin_trap();
  const VoxelChunkWrites* chunk = live.cells().chunk({message.volume, message.chunk});
  if (chunk == nullptr || chunk->writes != message.writes || chunk->revision != message.revision) __builtin_trap();
  const VoxelGrid& grid = map.voxel_grids()[0];
  for (const VoxelWrite& w : message.writes)
    if (live.block(message.volume, grid.cell_at(message.chunk, w.offset)) != w.block) __builtin_trap();
  VoxelCellsMessage again;
  if (!decode_voxel_cells(encode_voxel_cells(message), again) || again.writes != message.writes ||
      again.revision != message.revision || again.chunk != message.chunk)
    __builtin_trap();
  // A resend changes nothing and is refused as stale.
  if (live.apply(payload) != VoxelCellsRefusal::stale) __builtin_trap();
  std::vector<uint8_t> solid;
  std::vector<Aabb> boxes;
  voxel_chunk_solids(grid, message.chunk, chunk, {}, solid);
  cook_voxel_chunk(grid, {}, message.chunk, solid, boxes);
  for (uint32_t offset = 0; offset < solid.size(); ++offset) {
    const VoxelCell cell = grid.cell_at(message.chunk, static_cast<uint16_t>(offset));
    const Aabb c = voxel_cell_box(grid, {}, cell);
    const Vec3 centre = (c.min + c.max) * 0.5f;
    int covering = 0;
    for (const Aabb& b : boxes)
      covering += centre.x > b.min.x && centre.x < b.max.x && centre.y > b.min.y && centre.y < b.max.y &&
                  centre.z > b.min.z && centre.z < b.max.z;
    if (covering != (solid[offset] ? 1 : 0)) __builtin_trap();
  }
  return 0;
}

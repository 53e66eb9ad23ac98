// Laying the server's written chunks over a client's own cells, after checking each against the
// client's copy of the volume.
#include "tickwire/world/voxel_live.h"

#include "tickwire/world/voxel_placements.h"

namespace tickwire::world {

VoxelLive::VoxelLive(const Map& map) : map_(&map) {}

bool VoxelLive::take(const GameMessage& message) {
  if (message.type != kMessageVoxelCells) return false;
  if (message.from != 0) {  // only the server writes cells; a relayed copy is someone's forgery
    refusals_.add(VoxelCellsRefusal::not_from_server);
    return true;
  }
  (void)apply(message.payload);
  return true;
}

std::optional<VoxelCellsRefusal> VoxelLive::apply(std::span<const uint8_t> payload) {
  const auto refuse = [this](VoxelCellsRefusal reason) {
    refusals_.add(reason);
    return reason;
  };
  VoxelCellsMessage message;
  if (!decode_voxel_cells(payload, message)) return refuse(VoxelCellsRefusal::undecodable);
  const auto objects = map_->objects();
  const VoxelGrid* grid = message.volume < objects.size() ? voxel_volume_grid(*map_, objects[message.volume]) : nullptr;
  if (grid == nullptr) return refuse(VoxelCellsRefusal::unknown_volume);
  if (const auto refusal = check_voxel_cells(message, *grid)) return refuse(*refusal);
  const VoxelChunkKey key{message.volume, message.chunk};
  const VoxelChunkWrites* held = cells_.chunk(key);
  if (held != nullptr && message.revision <= held->revision) return refuse(VoxelCellsRefusal::stale);
  if (!cells_.apply(key, message.revision, message.writes)) return refuse(VoxelCellsRefusal::full);
  ++chunks_taken_;
  return std::nullopt;
}

uint8_t VoxelLive::block(uint32_t volume, const VoxelCell& cell) const {
  const auto objects = map_->objects();
  const VoxelGrid* grid = volume < objects.size() ? voxel_volume_grid(*map_, objects[volume]) : nullptr;
  return grid != nullptr ? cells_.block(volume, *grid, cell) : kVoxelAir;
}

void VoxelLive::switch_map(const Map& next) {
  map_ = &next;
  cells_.clear();
}

}  // namespace tickwire::world

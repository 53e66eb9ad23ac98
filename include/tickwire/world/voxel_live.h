// VoxelLive: a client's voxel cells as the server wrote them (seed 000's NetClient.VoxelLive), built
// from the voxelCells messages it hears: each chunk checked against its own copy of the volume's
// grid, then laid over its authored cells, the newest revision kept. What it refuses it counts by
// reason. The renderer and the prediction read the volumes through it. Written cells are map-scoped:
// a new map starts with none.
#pragma once

#include <cstdint>

#include "tickwire/client/game_message.h"
#include "tickwire/core/reason_counters.h"
#include "tickwire/world/map.h"
#include "tickwire/world/voxel_cells.h"
#include "tickwire/world/voxel_cells_message.h"

namespace tickwire::world {

class VoxelLive {
 public:
  // `map` is the caller's and must outlive it (or the next switch_map).
  explicit VoxelLive(const Map& map);

  // A game message: a voxelCells one from the server is checked and laid over (true: it was a
  // voxelCells message, taken or refused); any other type is not its business (false).
  bool take(const GameMessage& message);
  // A voxelCells payload from the server, checked and laid over; the refusal when it was not taken.
  std::optional<VoxelCellsRefusal> apply(std::span<const uint8_t> payload);

  // The block a volume's cell holds now: the server's write where one arrived, else the map's.
  uint8_t block(uint32_t volume, const VoxelCell& cell) const;
  const VoxelCells& cells() const { return cells_; }
  const ReasonCounters<VoxelCellsRefusal>& refusals() const { return refusals_; }
  uint64_t chunks_taken() const { return chunks_taken_; }
  const Map& map() const { return *map_; }
  // The live map switch: the old map's written cells go with it.
  void switch_map(const Map& next);

 private:
  const Map* map_;
  VoxelCells cells_;
  ReasonCounters<VoxelCellsRefusal> refusals_;
  uint64_t chunks_taken_ = 0;
};

}  // namespace tickwire::world

// The server's voxel volumes: writes, what each client hears of them, and the chunks around the pawns.
#include "tickwire/world/server_voxels.h"

#include "tickwire/world/logic_components.h"
#include "tickwire/world/voxel_cells_message.h"

namespace tickwire::world {

ServerVoxels::ServerVoxels(const VoxelStreamSettings& settings) : colliders_(settings) {}

void ServerVoxels::install(const Map& map) {
  map_ = &map;
  volumes_ = voxel_volume_indices(map);
  blocks_ = voxel_block_cells(map);
  write_through_.clear();
  for (const VoxelBlockCell& b : blocks_) {
    const MapObject& object = map.objects()[b.object_index];
    const ObjectComponent* block = object.component("voxel_block");
    const VoxelGrid* g = grid(b.chunk.volume);
    if (block == nullptr || object.component("mover") == nullptr || g == nullptr) continue;
    const auto open_block = static_cast<std::size_t>(setting_number(*block, "open_block"));
    if (open_block > g->def().blocks.size()) continue;  // no block of the palette: nothing to write
    write_through_.push_back({b.object_index, b.chunk.volume, g->cell_at(b.chunk.chunk, b.offset), static_cast<uint8_t>(open_block)});
  }
  objects_changed_ = true;
}

void ServerVoxels::forget_cells() {
  cells_.clear();
  dirty_.clear();
  colliders_.clear();
}

std::span<const Aabb> ServerVoxels::boxes_for_step(std::span<const Aabb> base, const Aabb& pawn_box,
                                                   std::vector<Aabb>& scratch) const {
  if (colliders_.cooked_chunks() == 0) return base;
  scratch.assign(base.begin(), base.end());
  colliders_.append_boxes_near(voxel_step_region(pawn_box), scratch);
  return scratch;
}

const VoxelGrid* ServerVoxels::grid(uint32_t volume) const {
  if (map_ == nullptr || volume >= map_->objects().size()) return nullptr;
  return voxel_volume_grid(*map_, map_->objects()[volume]);
}

uint8_t ServerVoxels::block(uint32_t volume, const VoxelCell& cell) const {
  const VoxelGrid* g = grid(volume);
  return g != nullptr ? cells_.block(volume, *g, cell) : kVoxelAir;
}

std::optional<VoxelWriteRefusal> ServerVoxels::write(uint32_t volume, const VoxelCell& cell, uint8_t block_id) {
  const auto refuse = [this](VoxelWriteRefusal reason) {
    write_refusals_.add(reason);
    return reason;
  };
  const VoxelGrid* g = grid(volume);
  if (g == nullptr) return refuse(VoxelWriteRefusal::not_a_volume);
  if (!g->contains(cell)) return refuse(VoxelWriteRefusal::outside_grid);
  if (block_id > g->def().blocks.size()) return refuse(VoxelWriteRefusal::unknown_block);
  if (block(volume, cell) == block_id) return refuse(VoxelWriteRefusal::unchanged);
  const VoxelChunkKey key{volume, g->chunk_of(cell)};
  if (!cells_.write(key, g->offset_in_chunk(cell), block_id, g->authored(cell))) return refuse(VoxelWriteRefusal::full);
  dirty_.insert(key);
  ++writes_;
  if (recording_) recorded_.push_back(CellWrite{volume, cell, block_id});
  return std::nullopt;
}

void ServerVoxels::take_writes(std::vector<CellWrite>& out) {
  out.insert(out.end(), recorded_.begin(), recorded_.end());
  recorded_.clear();
}

std::vector<uint8_t> ServerVoxels::chunk_payload(const VoxelChunkKey& key, const VoxelChunkWrites& writes) const {
  return encode_voxel_cells(voxel_cells_message(*grid(key.volume), key, writes));
}

bool ServerVoxels::restore_chunk(std::span<const uint8_t> payload) {
  VoxelCellsMessage message;
  if (!decode_voxel_cells(payload, message)) return false;
  const VoxelGrid* g = grid(message.volume);
  if (g == nullptr || check_voxel_cells(message, *g)) return false;
  const VoxelChunkKey key{message.volume, message.chunk};
  if (!cells_.apply(key, message.revision, message.writes)) return false;
  dirty_.insert(key);
  return true;
}

void ServerVoxels::take_messages(std::vector<GameMessageOut>& out) {
  const auto message = [this](OwnerId to, const VoxelChunkKey& key, const VoxelChunkWrites& writes) {
    ++chunks_sent_;
    return GameMessageOut{to, kMessageVoxelCells, chunk_payload(key, writes)};
  };
  // A joiner hears every written chunk but this take's, which the broadcast below carries to it too.
  for (OwnerId joiner : joiners_)
    for (const auto& [key, writes] : cells_.chunks())
      if (dirty_.count(key) == 0) out.push_back(message(joiner, key, writes));
  joiners_.clear();
  for (const VoxelChunkKey& key : dirty_)
    if (const VoxelChunkWrites* writes = cells_.chunk(key)) out.push_back(message(kAuthorityOwner, key, *writes));
  dirty_.clear();
}

void ServerVoxels::visit_reasons(const Simulation::ReasonVisitor& visit) const {
  const auto visit_count = [&](std::string_view counted, uint64_t count) {
    if (count != 0) visit(counted, count);
  };
  visit_count("voxel.write", writes_);
  std::string name;
  visit_nonzero(write_refusals_, [&](VoxelWriteRefusal reason, uint64_t count) {
    name.assign("voxel.write.refused.").append(reason_name(reason));
    visit(name, count);
  });
  visit_count("voxel.chunk.sent", chunks_sent_);  // voxelCells messages queued for clients
  visit_count("voxel.cook.urgent", colliders_.counts().cooked_urgent);
  visit_count("voxel.cook.queued", colliders_.counts().cooked_queued);
}

}  // namespace tickwire::world

// The reference game's durable side (seed 003, "Durability and rejoin"): what it journals (each
// accepted edit gesture, each voxel write that landed, in the order made), what a checkpoint holds
// (the edit set, every written voxel chunk, the world time), and how both come back: the state
// laid over a freshly built game, then the facts made again through the same paths that made them.
#include <algorithm>

#include "tickwire/core/byte_record.h"
#include "tickwire/wire/codec.h"
#include "tickwire/world/reference_game.h"
#include "tickwire/world/voxel_cells_message.h"

namespace tickwire::world {
namespace {

constexpr uint8_t kStateVersion = 1;
constexpr std::size_t kMaxPendingFacts = 65536;  // between two takes; past it counted (durable.fact.dropped)
constexpr std::size_t kVoxelWriteFactBytes = 4 + 3 * 2 + 1;
// A saved chunk's voxelCells payload: its header and at most a whole chunk of 3-byte writes.
constexpr std::size_t kMaxVoxelChunkPayloadBytes = 64 + 3 * VoxelCellsMessage::kMaxChunkWrites;

}  // namespace

void ReferenceGame::keep_facts(bool on) {
  keeping_facts_ = on;
  voxels_.record_writes(on);
}

void ReferenceGame::keep_fact(DurableFact fact) {
  if (facts_.size() >= kMaxPendingFacts) {
    ++facts_dropped_;
    return;
  }
  facts_.push_back(std::move(fact));
}

void ReferenceGame::note_voxel_facts() {
  voxel_writes_.clear();
  voxels_.take_writes(voxel_writes_);
  for (const ServerVoxels::CellWrite& w : voxel_writes_) {
    DurableFact fact{kFactVoxelWrite, {}};
    ByteRecordWriter write(fact.payload);
    write.u32(w.volume);
    for (uint16_t axis : w.cell) write.u16(axis);
    write.u8(w.block);
    keep_fact(std::move(fact));
  }
}

void ReferenceGame::take_facts(std::vector<DurableFact>& out) {
  note_voxel_facts();
  out.insert(out.end(), std::make_move_iterator(facts_.begin()), std::make_move_iterator(facts_.end()));
  facts_.clear();
}

void ReferenceGame::save_state(std::vector<uint8_t>& out) const {
  ByteRecordWriter write(out);
  write.u8(kStateVersion);
  write.f64(world_time_s_);
  write.blob(wire::encode_bytes(scene_edits_.state()));
  const auto& chunks = voxels_.cells().chunks();
  write.u32(static_cast<uint32_t>(chunks.size()));
  for (const auto& [key, chunk] : chunks) write.blob(voxels_.chunk_payload(key, chunk));
}

bool ReferenceGame::restore_state(std::span<const uint8_t> state) {
  ByteRecordReader read(state);
  if (read.u8() != kStateVersion) return false;
  const double world_time_s = read.f64();
  protocol::SceneNodeState edits;
  if (!read.ok() || !wire::decode(read.blob(protocol::kMaxSceneNodeStateBytes), edits)) return false;
  const uint32_t chunk_count = read.u32();
  if (!read.ok() || chunk_count > kMaxVoxelWrittenChunks) return false;
  std::vector<std::span<const uint8_t>> chunks;
  for (uint32_t i = 0; i < chunk_count && read.ok(); ++i) chunks.push_back(read.blob(kMaxVoxelChunkPayloadBytes));
  if (!read.done()) return false;
  std::vector<uint32_t> touched;
  for (const protocol::ObjectNodeState& object : edits.objects) {
    if (object.object >= objects_.size()) return false;
    touched.push_back(object.object);
  }
  // Everything read and checked: now laid over the game (a chunk that does not fit this map's grid
  // fails it, the cells before it kept: the caller discards a game whose recovery failed).
  for (std::span<const uint8_t> chunk : chunks)
    if (!voxels_.restore_chunk(chunk)) return false;
  world_time_s_ = world_time_s;
  scene_edits_.adopt(std::move(edits));
  if (!touched.empty()) edits_changed(touched);
  return true;
}

bool ReferenceGame::replay_fact(const DurableFact& fact) {
  if (fact.kind == kFactSceneEdit) {
    protocol::SceneEdit gesture;
    if (!wire::decode(fact.payload, gesture)) return false;
    const uint32_t before = scene_edits_.revision();
    const std::size_t refusals = edit_refusals_.size();
    edit(kAuthorityOwner, gesture, Tick{});
    edit_refusals_.resize(refusals);  // nobody to tell: the gesture was judged when it was made
    return scene_edits_.revision() != before;
  }
  if (fact.kind == kFactVoxelWrite) {
    if (fact.payload.size() != kVoxelWriteFactBytes) return false;
    ByteRecordReader read(fact.payload);
    const uint32_t volume = read.u32();
    VoxelCell cell{};
    for (uint16_t& axis : cell) axis = read.u16();
    const uint8_t block_id = read.u8();
    const std::optional<VoxelWriteRefusal> refused = voxels_.write(volume, cell, block_id);
    return !refused || *refused == VoxelWriteRefusal::unchanged;
  }
  return false;
}

}  // namespace tickwire::world

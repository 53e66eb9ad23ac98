// The reference game's durable side (seed 003, "Durability and rejoin"): what it journals (each
// accepted edit gesture, each voxel write that landed, in the order made), what a checkpoint holds
// (the edit set, every written voxel chunk, the world time, every pawn's mover state, the objects'
// state and the logic mid-flight: reference_game_logic_state.cpp), and how both
// come back: the state laid over a freshly built game, then the facts made again through the same
// paths that made them. A pawn changing hands (a player resuming it) keeps its body.
#include <algorithm>
#include <cmath>

#include "tickwire/core/byte_record.h"
#include "tickwire/wire/codec.h"
#include "tickwire/world/reference_game.h"
#include "tickwire/world/voxel_cells_message.h"

namespace tickwire::world {
namespace {

constexpr uint8_t kStateVersion = 3;  // 2: pawns; 3: objects and logic
constexpr std::size_t kMaxPendingFacts = 65536;  // between two takes; past it counted (durable.fact.dropped)
constexpr std::size_t kVoxelWriteFactBytes = 4 + 3 * 2 + 1;
// A saved chunk's voxelCells payload: its header and at most a whole chunk of 3-byte writes.
constexpr std::size_t kMaxVoxelChunkPayloadBytes = 64 + 3 * VoxelCellsMessage::kMaxChunkWrites;
constexpr uint32_t kMaxSavedPawns = 65536;  // the room's entity capacity

void write_vec3(ByteRecordWriter& write, const Vec3& v) {
  write.f32(v.x);
  write.f32(v.y);
  write.f32(v.z);
}

Vec3 read_vec3(ByteRecordReader& read) {
  Vec3 v;
  v.x = read.f32();
  v.y = read.f32();
  v.z = read.f32();
  return v;
}

constexpr uint8_t kPawnGrounded = 1u << 0, kPawnCrouched = 1u << 1, kPawnNoclip = 1u << 2, kPawnFrozen = 1u << 3;

void write_pawn(ByteRecordWriter& write, const PawnState& pawn) {
  write_vec3(write, pawn.feet);
  write_vec3(write, pawn.velocity_mps);
  write.f32(pawn.yaw_deg);
  write.f32(pawn.pitch_deg);
  write.f32(pawn.stance_height_m);
  write.f32(pawn.eye_height_m);
  write.u8(static_cast<uint8_t>((pawn.grounded ? kPawnGrounded : 0) | (pawn.crouched ? kPawnCrouched : 0) |
                                (pawn.noclip ? kPawnNoclip : 0) | (pawn.frozen ? kPawnFrozen : 0)));
  write.u8(pawn.placement_epoch.value);
}

PawnState read_pawn(ByteRecordReader& read) {
  PawnState pawn;
  pawn.feet = read_vec3(read);
  pawn.velocity_mps = read_vec3(read);
  pawn.yaw_deg = read.f32();
  pawn.pitch_deg = read.f32();
  pawn.stance_height_m = read.f32();
  pawn.eye_height_m = read.f32();
  const uint8_t flags = read.u8();
  pawn.grounded = (flags & kPawnGrounded) != 0;
  pawn.crouched = (flags & kPawnCrouched) != 0;
  pawn.noclip = (flags & kPawnNoclip) != 0;
  pawn.frozen = (flags & kPawnFrozen) != 0;
  pawn.placement_epoch.value = read.u8();
  return pawn;
}

// A saved pawn whose numbers are not finite cannot be stepped: the record is refused whole.
bool finite_pawn(const PawnState& p) {
  for (float v : {p.feet.x, p.feet.y, p.feet.z, p.velocity_mps.x, p.velocity_mps.y, p.velocity_mps.z, p.yaw_deg, p.pitch_deg,
                  p.stance_height_m, p.eye_height_m})
    if (!std::isfinite(v)) return false;
  return true;
}

}  // namespace

void ReferenceGame::rebind_pawn(EntityRef pawn, OwnerId owner, Tick) {
  if (!pawns_.contains(pawn.raw())) return;
  owners_[pawn.raw()] = owner;
  // The claims of the client that left are no claims of the new one's; its Use starts released.
  ledgers_.erase(pawn.raw());
  claim_outcomes_.erase(pawn.raw());
  use_held_.erase(pawn.raw());
  if (owner != kAuthorityOwner) voxels_.joined(owner);  // the new client hears every written chunk
}

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
  write.u32(static_cast<uint32_t>(pawns_.size()));
  for (const auto& [ref, pawn] : pawns_) {
    write.u64(ref);
    write_pawn(write, pawn);
  }
  save_objects(write);
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
  const uint32_t pawn_count = read.u32();
  if (!read.ok() || pawn_count > kMaxSavedPawns) return false;
  std::vector<std::pair<uint64_t, PawnState>> pawns;
  for (uint32_t i = 0; i < pawn_count && read.ok(); ++i) {
    const uint64_t ref = read.u64();
    pawns.emplace_back(ref, read_pawn(read));
    if (!finite_pawn(pawns.back().second)) return false;
  }
  SavedObjects objects;
  if (!read_objects(read, objects) || !read.done()) return false;
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
  // The room put its pawns back (spawned at spawn points) before this: each takes its saved state.
  for (const auto& [ref, pawn] : pawns)
    if (auto it = pawns_.find(ref); it != pawns_.end()) it->second = pawn;
  scene_edits_.adopt(std::move(edits));
  if (!touched.empty()) edits_changed(touched);
  return restore_objects(objects);  // over the edited settings: the doors, lights and logic mid-flight
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

// The reference game's save state (seed 002): its checkpoint (reference_game_durable.cpp), which
// already holds the edits, voxels, pawns, objects and logic mid-flight, followed by what only a
// running room needs: the props' solver bodies, each pawn's Use button, the spawn rotation and the
// last tick's length. One path for both, so a checkpoint and a save state never disagree on a field.
#include <cmath>

#include "tickwire/core/byte_record.h"
#include "tickwire/world/reference_game.h"

namespace tickwire::world {
namespace {

constexpr uint8_t kWholeStateVersion = 1;
constexpr std::size_t kMaxCheckpointBytes = std::size_t{64} << 20;
constexpr uint32_t kMaxUseButtons = 65536;  // one per pawn: the room's entity capacity

}  // namespace

void ReferenceGame::save_whole_state(std::vector<uint8_t>& out) const {
  std::vector<uint8_t> checkpoint;
  save_state(checkpoint);
  ByteRecordWriter write(out);
  write.u8(kWholeStateVersion);
  write.blob(checkpoint);
  props_.save(write);
  write.u32(next_spawn_);
  write.f64(world_dt_s_);
  write.u32(static_cast<uint32_t>(use_held_.size()));
  for (const auto& [ref, held] : use_held_) {
    write.u64(ref);
    write.flag(held);
  }
}

bool ReferenceGame::load_whole_state(std::span<const uint8_t> state) {
  ByteRecordReader read(state);
  if (read.u8() != kWholeStateVersion) return false;
  const std::span<const uint8_t> checkpoint = read.blob(kMaxCheckpointBytes);
  if (!read.ok()) return false;
  // The props are checked now and laid over after the checkpoint (which rebuilds the solids).
  ByteRecordReader props_at = read;
  if (!props_.check(read)) return false;
  const uint32_t next_spawn = read.u32();
  const double world_dt_s = read.f64();
  const uint32_t buttons = read.u32();
  if (!read.ok() || buttons > kMaxUseButtons) return false;
  std::map<uint64_t, bool> use_held;
  for (uint32_t i = 0; i < buttons && read.ok(); ++i) {
    const uint64_t ref = read.u64();
    use_held[ref] = read.flag();
  }
  if (!read.done() || !std::isfinite(world_dt_s)) return false;
  for (const auto& [ref, held] : use_held)
    if (!pawns_.contains(ref)) return false;
  if (!restore_state(checkpoint) || !props_.load(props_at)) return false;
  next_spawn_ = next_spawn;
  world_dt_s_ = world_dt_s;
  use_held_ = std::move(use_held);
  props_.reseat();  // as the saved room's was when it saved
  refresh_prop_boxes();
  return true;
}

}  // namespace tickwire::world

// The room's save state (seed 002): what the room itself holds (its tick, world settings, sessions
// with their input windows, held pawns) around the game's whole state. Read in two passes: every
// field checked into locals first, then laid over the fresh room, so a malformed save is refused
// by name with the room untouched.
#include <algorithm>
#include <cmath>

#include "tickwire/core/byte_record.h"
#include "tickwire/server/room.h"

namespace tickwire {
namespace {

// One pawn as the save names it: a session's (owner 1..255) or a held one's (owner 0).
struct SavedPawn {
  OwnerId owner = kAuthorityOwner;
  EntityRef pawn;
  std::string player;
  bool world_authority = false;
  Tick admitted_at;
  uint64_t ticks_simulated = 0;
  Tick held_until;
  SessionInputs inputs;
};

bool tick_in_range(int64_t value) { return value >= 0 && value <= kMaxSaveStateTick; }

// The sessions' pawns, then the held ones: each a pawn the room could hold, named once; the
// sessions' owners ascending (the order save writes); every input window read.
std::optional<SaveStateRefusal> read_pawns(ByteRecordReader& read, uint32_t capacity, const InputQueueConfig& queue,
                                           std::vector<SavedPawn>& pawns) {
  const uint32_t session_count = read.u32();
  if (!read.ok()) return SaveStateRefusal::truncated;
  if (session_count > kRoomMaxSessions) return SaveStateRefusal::count_over_cap;
  const auto admissible = [&](const SavedPawn& p) {
    const EntityNetHandle handle = p.pawn.handle();
    if (handle.owner() != kAuthorityOwner || handle.is_none() || handle.index() >= capacity) return false;
    return std::none_of(pawns.begin(), pawns.end(), [&](const SavedPawn& q) { return q.pawn.handle() == handle; });
  };
  for (uint32_t i = 0; i < session_count; ++i) {
    SavedPawn p{read.u16(), EntityRef::from_raw(read.u64()), read.name(kMaxPlayerNameBytes), read.flag(),
                Tick::from_value(read.i64()), read.u64(), Tick{}, SessionInputs(queue)};
    if (!read.ok()) return SaveStateRefusal::truncated;
    if (p.owner == kAuthorityOwner || p.owner > kRoomMaxSessions || (!pawns.empty() && pawns.back().owner >= p.owner) || !admissible(p) ||
        !tick_in_range(p.admitted_at.value()))
      return SaveStateRefusal::value_out_of_range;
    if (!p.inputs.load_window(read)) return read.ok() ? SaveStateRefusal::input_window : SaveStateRefusal::truncated;
    pawns.push_back(std::move(p));
  }
  const uint32_t held_count = read.u32();
  if (!read.ok()) return SaveStateRefusal::truncated;
  if (held_count > capacity - session_count) return SaveStateRefusal::count_over_cap;
  for (uint32_t i = 0; i < held_count; ++i) {
    SavedPawn p;
    p.pawn = EntityRef::from_raw(read.u64());
    p.player = read.name(kMaxPlayerNameBytes);
    p.held_until = Tick::from_value(read.i64());
    p.inputs = SessionInputs(queue);
    if (!read.ok()) return SaveStateRefusal::truncated;
    if (!admissible(p) || !tick_in_range(p.held_until.value())) return SaveStateRefusal::value_out_of_range;
    if (!p.inputs.load_window(read)) return read.ok() ? SaveStateRefusal::input_window : SaveStateRefusal::truncated;
    pawns.push_back(std::move(p));
  }
  return std::nullopt;
}

}  // namespace

std::optional<SaveStateRefusal> Room::save_whole(std::vector<uint8_t>& out) {
  if (!simulation_.saves_whole_state()) return SaveStateRefusal::game_unsaved;
  simulation_.settle_for_save();
  ByteRecordWriter write(out);
  write.u32(kRoomSaveStateMagic);
  write.u8(kRoomSaveStateVersion);
  write.i64(last_tick().value());
  write.f32(world_.forgiveness);
  write.f32(world_.time_scale);
  write.u32(session_count_);
  for (const auto& slot : sessions_) {
    if (!slot) continue;
    write.u16(slot->owner);
    write.u64(slot->pawn.raw());
    write.name(slot->player);
    write.flag(slot->grants.world_authority);
    write.i64(slot->admitted_at.value());
    write.u64(slot->ticks_simulated);
    slot->inputs.save_window(write);
  }
  write.u32(static_cast<uint32_t>(held_.size()));
  for (const HeldPawn& held : held_) {
    write.u64(held.pawn.raw());
    write.name(held.player);
    write.i64(held.held_until.value());
    held.inputs.save_window(write);
  }
  std::vector<uint8_t> game;
  simulation_.save_whole_state(game);
  write.blob(game);
  return std::nullopt;
}

std::optional<SaveStateRefusal> Room::load_whole(std::span<const uint8_t> state) {
  if (session_count_ != 0 || !held_.empty() || clock_.executed_ticks() != 0 || clock_.declared_ticks() != 0)
    return SaveStateRefusal::not_fresh;
  if (!simulation_.saves_whole_state()) return SaveStateRefusal::game_unsaved;
  ByteRecordReader read(state);
  const uint32_t magic = read.u32();
  if (!read.ok()) return SaveStateRefusal::truncated;
  if (magic != kRoomSaveStateMagic) return SaveStateRefusal::bad_magic;
  const uint8_t version = read.u8();
  if (!read.ok()) return SaveStateRefusal::truncated;
  if (version != kRoomSaveStateVersion) return SaveStateRefusal::wrong_version;
  const int64_t tick = read.i64();
  protocol::WorldSettings world;
  world.forgiveness = read.f32();
  world.time_scale = read.f32();
  if (!read.ok()) return SaveStateRefusal::truncated;
  if (!tick_in_range(tick) || !clock_.reaches(Tick::from_value(tick)) || !protocol::valid_world_settings(world)) return SaveStateRefusal::value_out_of_range;
  std::vector<SavedPawn> pawns;
  if (const auto refused = read_pawns(read, entities_.capacity(), input_queue_config(), pawns)) return refused;
  const uint32_t game_bytes = read.u32();
  if (!read.ok()) return SaveStateRefusal::truncated;
  if (game_bytes > kMaxGameSaveStateBytes) return SaveStateRefusal::count_over_cap;
  const std::span<const uint8_t> game = read.raw(game_bytes);
  if (!read.ok()) return SaveStateRefusal::truncated;
  if (!read.done()) return SaveStateRefusal::trailing_bytes;
  EntitySlots slots = entities_;  // each pawn's slot claimed on a copy first (its generation too)
  for (const SavedPawn& p : pawns)
    if (!slots.claim(p.pawn)) return SaveStateRefusal::value_out_of_range;

  // Everything read: laid over the fresh room.
  clock_.resume_after(Tick::from_value(tick));
  set_world_settings(world);
  entities_ = std::move(slots);
  for (SavedPawn& p : pawns) {
    if (p.owner == kAuthorityOwner) {
      held_.push_back(HeldPawn{p.pawn, std::move(p.player), p.held_until, std::move(p.inputs)});
      simulation_.spawn_pawn(p.pawn, kAuthorityOwner, last_tick());
      continue;
    }
    AdmissionGrants grants;
    grants.world_authority = p.world_authority;
    RoomSession& session = open_session(p.owner, p.pawn, grants, p.player);
    session.inputs = std::move(p.inputs);
    session.admitted_at = p.admitted_at;
    session.ticks_simulated = p.ticks_simulated;
    simulation_.spawn_pawn(p.pawn, p.owner, last_tick());
  }
  if (!simulation_.load_whole_state(game)) return SaveStateRefusal::game_refused;
  return std::nullopt;
}

}  // namespace tickwire

// The room's pawns beyond their sessions (seed 003, "Durability and rejoin"): a departed session's
// pawn held for its player, a player coming back into it, a hold running out, and the room as a
// DurableState: its pawns journaled as they join and go, checkpointed with their players, and put
// back held after a crash, so a resume token outlives the process that issued it.
#include <algorithm>

#include "tickwire/core/assert.h"
#include "tickwire/core/byte_record.h"
#include "tickwire/server/room.h"

namespace tickwire {
namespace {

constexpr uint8_t kPawnsVersion = 1;

}  // namespace

void Room::depart(OwnerId owner) {
  RoomSession* session = find(owner);
  if (session == nullptr) return;
  if (pawn_hold_ticks_ == 0) {
    leave(owner);
    return;
  }
  held_.push_back(HeldPawn{session->pawn, session->player, last_tick() + static_cast<int64_t>(pawn_hold_ticks_),
                           std::move(session->inputs)});
  const EntityRef pawn = session->pawn;
  if (recorder_ != nullptr) recorder_->departed(owner);
  close_session(*session);
  simulation_.rebind_pawn(pawn, kAuthorityOwner, last_tick());
}

std::optional<protocol::ResumeRefusal> Room::resume(OwnerId owner, EntityRef pawn, std::string_view player,
                                                    const AdmissionGrants& grants) {
  TW_ASSERT(owner != kAuthorityOwner && owner <= kRoomMaxSessions, "a session's owner is a client owner id");
  const auto held = std::find_if(held_.begin(), held_.end(), [&](const HeldPawn& h) { return h.pawn == pawn; });
  if (held == held_.end()) return protocol::ResumeRefusal::pawn_gone;
  if (held->player != player) return protocol::ResumeRefusal::foreign;
  if (sessions_[owner]) return protocol::ResumeRefusal::pawn_gone;  // the owner is taken: nothing to come back into
  (void)open_session(owner, pawn, grants, player);  // fresh inputs: the new client numbers them from the start
  held_.erase(held);
  if (recorder_ != nullptr) recorder_->resumed(owner, pawn, player, grants);
  simulation_.rebind_pawn(pawn, owner, last_tick());
  return std::nullopt;
}

std::optional<OwnerId> Room::owner_of(EntityRef pawn) const {
  for (const auto& slot : sessions_)
    if (slot && slot->pawn == pawn) return slot->owner;
  return std::nullopt;
}

// Held pawns step on their starved inputs; a hold past its tick ends, the pawn despawned. (No
// allocation on the tick: the ended ones are found and erased in place, rarely.)
void Room::step_held(Tick tick, double dt_s) {
  bool any_ended = false;
  for (HeldPawn& held : held_) {
    held.inputs.prepare(tick);
    simulation_.step_pawn(held.pawn, held.inputs.current(), tick, dt_s);
    any_ended = any_ended || held.held_until < tick;
  }
  if (!any_ended) return;
  for (std::size_t i = held_.size(); i-- > 0;) {
    if (held_[i].held_until >= tick) continue;
    const EntityRef pawn = held_[i].pawn;
    held_.erase(held_.begin() + static_cast<std::ptrdiff_t>(i));
    ++holds_expired_;
    pawn_gone(pawn);
  }
}

void Room::pawn_gone(EntityRef pawn) {
  note_fact(kFactPawnGone, pawn, {});
  simulation_.despawn_pawn(pawn);
  (void)entities_.despawn(pawn);
}

void Room::note_fact(uint32_t kind, EntityRef pawn, std::string_view player) {
  if (!keeping_facts_) return;
  DurableFact fact{kind, {}};
  ByteRecordWriter write(fact.payload);
  write.u64(pawn.raw());
  if (kind == kFactPawnJoined) write.name(player);
  facts_.push_back(std::move(fact));
}

void Room::keep_facts(bool on) {
  keeping_facts_ = on;
  simulation_.keep_facts(on);
}

void Room::take_facts(std::vector<DurableFact>& out) {
  out.insert(out.end(), std::make_move_iterator(facts_.begin()), std::make_move_iterator(facts_.end()));
  facts_.clear();
  simulation_.take_facts(out);
}

void Room::save_state(std::vector<uint8_t>& out) const {
  ByteRecordWriter write(out);
  write.u8(kPawnsVersion);
  write.u32(session_count_ + static_cast<uint32_t>(held_.size()));
  for (const auto& slot : sessions_) {
    if (!slot) continue;
    write.u64(slot->pawn.raw());
    write.name(slot->player);
  }
  for (const HeldPawn& held : held_) {
    write.u64(held.pawn.raw());
    write.name(held.player);
  }
  simulation_.save_state(out);
}

bool Room::put_back(EntityRef pawn, std::string player) {
  if (pawn.handle().owner() != kAuthorityOwner || !entities_.claim(pawn)) return false;
  simulation_.spawn_pawn(pawn, kAuthorityOwner, last_tick());
  held_.push_back(HeldPawn{pawn, std::move(player), last_tick() + static_cast<int64_t>(pawn_hold_ticks_),
                           SessionInputs(input_queue_config())});
  return true;
}

bool Room::restore_state(std::span<const uint8_t> state) {
  TW_ASSERT(session_count_ == 0 && held_.empty(), "a room is restored before anyone joins");
  ByteRecordReader read(state);
  if (read.u8() != kPawnsVersion) return false;
  const uint32_t count = read.u32();
  if (!read.ok() || count > entities_.capacity()) return false;
  std::vector<std::pair<EntityRef, std::string>> pawns;
  for (uint32_t i = 0; i < count && read.ok(); ++i) {
    const EntityRef pawn = EntityRef::from_raw(read.u64());
    pawns.emplace_back(pawn, read.name(kMaxPlayerNameBytes));
  }
  if (!read.ok()) return false;
  for (auto& [pawn, player] : pawns)
    if (!put_back(pawn, std::move(player))) return false;
  return simulation_.restore_state(read.raw(read.left()));
}

bool Room::replay_fact(const DurableFact& fact) {
  if (fact.kind < kFirstEngineFactKind) return simulation_.replay_fact(fact);
  ByteRecordReader read(fact.payload);
  const EntityRef pawn = EntityRef::from_raw(read.u64());
  if (fact.kind == kFactPawnJoined) {
    std::string player = read.name(kMaxPlayerNameBytes);
    return read.done() && put_back(pawn, std::move(player));
  }
  if (fact.kind != kFactPawnGone || !read.done()) return false;
  const auto held = std::find_if(held_.begin(), held_.end(), [&](const HeldPawn& h) { return h.pawn == pawn; });
  if (held == held_.end()) return false;
  held_.erase(held);
  pawn_gone(pawn);  // (no fact noted: a recovery replays with facts off)
  return true;
}

}  // namespace tickwire

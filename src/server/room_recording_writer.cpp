// The writer: the save state up front, then each change the room reports appended in the order it
// came. A tick's inputs open it and its witness closes it; a change that would pass the cap is taken
// back whole (a tick back to where it opened), and the writer stops there for good.
#include "tickwire/server/room_recording_writer.h"

#include "tickwire/core/assert.h"
#include "tickwire/server/room.h"

namespace tickwire {

RoomRecordingWriter::RoomRecordingWriter(Room& room, std::size_t max_bytes) : room_(room), max_bytes_(max_bytes) {
  std::vector<uint8_t> state;
  refused_ = room.save_whole(state);
  if (refused_) return;
  tick_ = room.last_tick();
  append_room_recording_header(bytes_, room.contract(), room.entities().capacity(), room.pawn_hold_ticks(), tick_, state);
  header_bytes_ = bytes_.size();
  full_ = bytes_.size() > max_bytes_;
  room.set_recorder(this);
}

RoomRecordingWriter::~RoomRecordingWriter() {
  if (!refused_) room_.set_recorder(nullptr);
}

void RoomRecordingWriter::take_complete(std::vector<uint8_t>& out) {
  const std::size_t n = complete_bytes();
  out.insert(out.end(), bytes_.begin(), bytes_.begin() + static_cast<std::ptrdiff_t>(n));
  bytes_.erase(bytes_.begin(), bytes_.begin() + static_cast<std::ptrdiff_t>(n));
  taken_ += n;
  tick_start_ -= in_tick_ ? n : 0;
}

void RoomRecordingWriter::append() {
  if (full_) return;
  const std::size_t before = bytes_.size();
  append_room_event(bytes_, event_, tick_);
  if (taken_ + bytes_.size() <= max_bytes_) {
    ++events_;
    return;
  }
  full_ = true;
  bytes_.resize(in_tick_ ? tick_start_ : before);
  in_tick_ = false;
}

void RoomRecordingWriter::inputs_prepared(const Room& room, Tick tick) {
  if (full_) return;
  TW_ASSERT(!in_tick_ && tick > tick_, "ticks are recorded once each, in order");
  event_.kind = RoomEventKind::tick;
  event_.tick = tick;
  event_.inputs.clear();
  room.for_each_session([&](const RoomSession& session) {
    const TickInput& applied = session.inputs.current();
    RecordedInput& in = event_.inputs.emplace_back();
    in.owner = session.owner;
    in.source = applied.source;
    in.guessed = applied.guessed;
    in.sequence = applied.sequence;
    in.cmd = applied.cmd;
    in.claim = applied.fresh() ? applied.claim : std::nullopt;
  });
  tick_start_ = bytes_.size();
  in_tick_ = true;
  append();
  tick_ = tick;
}

void RoomRecordingWriter::tick_simulated(const Room& room, Tick tick) {
  if (full_) return;
  event_.kind = RoomEventKind::witness;
  event_.tick = tick;
  event_.witness = room_witness(room, tick, witness_);
  append();
  if (full_) return;
  in_tick_ = false;
  ++ticks_;
}

RoomEvent& RoomRecordingWriter::change(RoomEventKind kind, OwnerId owner) {
  event_.kind = kind;
  event_.tick = room_.last_tick();
  event_.owner = owner;
  return event_;
}

void RoomRecordingWriter::session_change(RoomEventKind kind, OwnerId owner, EntityRef pawn, const AdmissionGrants& grants,
                                         std::string_view player) {
  RoomEvent& e = change(kind, owner);
  e.pawn = pawn;
  e.world_authority = grants.world_authority;
  e.player.assign(player);
  append();
}

void RoomRecordingWriter::admitted(OwnerId owner, EntityRef pawn, const AdmissionGrants& grants, std::string_view player) {
  session_change(RoomEventKind::admit, owner, pawn, grants, player);
}

void RoomRecordingWriter::resumed(OwnerId owner, EntityRef pawn, std::string_view player, const AdmissionGrants& grants) {
  session_change(RoomEventKind::resume, owner, pawn, grants, player);
}

void RoomRecordingWriter::left(OwnerId owner) {
  change(RoomEventKind::leave, owner);
  append();
}

void RoomRecordingWriter::departed(OwnerId owner) {
  change(RoomEventKind::depart, owner);
  append();
}

void RoomRecordingWriter::world_settings_set(const protocol::WorldSettings& settings) {
  change(RoomEventKind::world_settings, kAuthorityOwner).world = settings;
  append();
}

void RoomRecordingWriter::interacted(OwnerId owner, const protocol::InteractRequest& request) {
  change(RoomEventKind::interact, owner).interact = request;
  append();
}

void RoomRecordingWriter::construct_called(OwnerId owner, const protocol::ConstructCall& call) {
  change(RoomEventKind::construct_call, owner).call = call;
  append();
}

void RoomRecordingWriter::fired(OwnerId owner, const FireShot& shot, Tick tick) {
  RoomEvent& e = change(RoomEventKind::fire, owner);
  e.tick = tick;
  e.shot = shot;
  append();
}

void RoomRecordingWriter::edited(OwnerId owner, const protocol::SceneEdit& gesture) {
  change(RoomEventKind::edit, owner).edit = gesture;
  append();
}

}  // namespace tickwire

// RoomRecordingWriter: makes a room recording (room_recording.h) of a running room. It starts from
// the room's whole save state and rides the room's RoomRecorder seam from then on, so a recording is
// complete whichever way inputs and messages reached the room. Its bytes up to complete_bytes() are
// a whole recording at every moment; past its cap it stops at the last whole tick and says so.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "tickwire/server/room_recorder.h"
#include "tickwire/server/room_recording.h"
#include "tickwire/server/room_save_state.h"
#include "tickwire/server/room_witness.h"

namespace tickwire {

class RoomRecordingWriter final : public RoomRecorder {
 public:
  // Saves `room` whole (Room::save_whole, which settles the game first) and attaches itself as the
  // room's recorder; a room that does not save is refused (refused(), nothing attached). The room
  // must outlive the writer, which detaches itself when destroyed.
  explicit RoomRecordingWriter(Room& room, std::size_t max_bytes = kMaxRoomRecordingBytes);
  ~RoomRecordingWriter() override;
  RoomRecordingWriter(const RoomRecordingWriter&) = delete;
  RoomRecordingWriter& operator=(const RoomRecordingWriter&) = delete;

  std::optional<SaveStateRefusal> refused() const { return refused_; }
  // The bytes held: the header and every event since (those take_complete moved out excepted).
  const std::vector<uint8_t>& bytes() const { return bytes_; }
  // How many of bytes() end a whole recording (all but a tick still running).
  std::size_t complete_bytes() const { return in_tick_ ? tick_start_ : bytes_.size(); }
  // Moves the first complete_bytes() into `out` (appended), for a file that grows as the room runs.
  void take_complete(std::vector<uint8_t>& out);
  std::size_t total_bytes() const { return taken_ + bytes_.size(); }
  uint64_t ticks() const { return ticks_; }
  uint64_t events() const { return events_; }
  uint64_t header_bytes() const { return header_bytes_; }
  // Past the cap: the recording ends at its last whole tick (or change), nothing taken after.
  bool full() const { return full_; }

  void inputs_prepared(const Room& room, Tick tick) override;
  void tick_simulated(const Room& room, Tick tick) override;
  void admitted(OwnerId owner, EntityRef pawn, const AdmissionGrants& grants, std::string_view player) override;
  void left(OwnerId owner) override;
  void departed(OwnerId owner) override;
  void resumed(OwnerId owner, EntityRef pawn, std::string_view player, const AdmissionGrants& grants) override;
  void world_settings_set(const protocol::WorldSettings& settings) override;
  void interacted(OwnerId owner, const protocol::InteractRequest& request) override;
  void construct_called(OwnerId owner, const protocol::ConstructCall& call) override;
  void fired(OwnerId owner, const FireShot& shot, Tick tick) override;
  void edited(OwnerId owner, const protocol::SceneEdit& gesture) override;

 private:
  // The scratch event, reset to `kind` at the room's last tick, from `owner`.
  RoomEvent& change(RoomEventKind kind, OwnerId owner);
  void session_change(RoomEventKind kind, OwnerId owner, EntityRef pawn, const AdmissionGrants& grants,
                      std::string_view player);
  void append();

  Room& room_;
  std::size_t max_bytes_;
  std::optional<SaveStateRefusal> refused_;
  std::vector<uint8_t> bytes_;
  std::size_t taken_ = 0;
  std::size_t tick_start_ = 0;
  uint64_t header_bytes_ = 0;
  Tick tick_;  // the last tick recorded (the save's before any)
  bool in_tick_ = false;
  bool full_ = false;
  uint64_t ticks_ = 0;
  uint64_t events_ = 0;
  RoomEvent event_;
  WitnessScratch witness_;
};

}  // namespace tickwire

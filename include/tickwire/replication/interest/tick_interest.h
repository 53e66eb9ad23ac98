// TickInterest: the tick's entity records filed in an InterestWorld (seed 003, interest). Each tick
// the entity records are filed by position, given the attributes the game noted (owner-private,
// always-relevant, important, parent, scene frame) and the clients' pawns marked as theirs, so the
// ClientSnapshotBuilder and the full-snapshot cut can decide each client's set from one world. Map
// objects are shared by every client (the rest table and the delta make the ones at rest free).
// Leaving a client's set is an explicit removal in the delta and coming back an addition.
#pragma once

#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

#include "tickwire/core/reasons.h"
#include "tickwire/core/reason_counters.h"
#include "tickwire/replication/frames/replica_kinds.h"
#include "tickwire/replication/frames/replica_state.h"
#include "tickwire/replication/interest/interest_world.h"
#include "tickwire/replication/tick_records.h"

namespace tickwire {

struct TickInterestConfig {
  uint32_t max_entities = 4096;  // entity records filed at once; more are seen by nobody (counted)
  InterestGridConfig grid{-1024.0f, -1024.0f, 2048.0f, 2048.0f, 25.0f, 4096};
  uint32_t max_always_relevant = 256;
  uint32_t max_scene_frames = 256;
};

// A client's pawn this tick: its record id and the client (owner) it belongs to.
struct PawnMark {
  uint32_t record_id = 0;
  uint16_t client = 0;
};

// Why a game's interest note was not honoured (the record is still filed, without that attribute).
TW_REASONS(InterestNoteRefusal,
  unknown_record,        // the note names a record the tick did not file
  unknown_parent,        // the parent record was not filed this tick: the link is dropped
  always_relevant_full,  // the always-relevant list is at its cap
  scene_frame_range     // a scene frame id past max_scene_frames
)

class TickInterest {
 public:
  static constexpr float kPawnImportance = 2.0f;  // a player is worth more than a prop at the same distance

  explicit TickInterest(const TickInterestConfig& config);

  // Files the tick's entity-form states by position (metres, from their kind's quantum); entities
  // absent since the last update leave the world. Applies `notes` and marks `pawns` (owned by their
  // client and important: on the pose lane everywhere). Writes the frame the clients' snapshots are
  // cut from (`states`, which ascend by id, minus entities past max_entities, which nobody sees and
  // are counted) and each of its states' interest index (kNoEntity: a map object, shared by everyone).
  void update(std::span<const ReplicaState> states, const ReplicaKinds& kinds, std::span<const InterestNote> notes,
              std::span<const PawnMark> pawns, ReplicaFrame& frame, std::vector<uint32_t>& entities);
  // The interest index the last update filed `record_id` at; kNoEntity when it did not.
  uint32_t index_of(uint32_t record_id) const;

  const InterestWorld& world() const { return world_; }
  uint64_t overflowed() const { return overflowed_; }  // entity records past max_entities, summed over ticks
  const ReasonCounters<InterestNoteRefusal>& note_refusals() const { return note_refusals_; }
  const TickInterestConfig& config() const { return config_; }

 private:
  void clear_attributes();
  void apply(uint32_t index, const RecordInterest& interest);

  TickInterestConfig config_;
  InterestWorld world_;
  std::unordered_map<uint32_t, uint32_t> index_of_;  // record id -> interest index
  std::vector<uint32_t> free_;                       // interest indices not in use
  std::vector<uint64_t> seen_in_;                    // per interest index: the last update that had it
  std::vector<uint32_t> attributed_;                 // indices given attributes by the last update
  uint64_t updates_ = 0;
  uint64_t overflowed_ = 0;
  ReasonCounters<InterestNoteRefusal> note_refusals_;
};

}  // namespace tickwire

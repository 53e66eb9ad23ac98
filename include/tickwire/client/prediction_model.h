// PredictionModel: the seam through which the client predicts its own pawn. The engine holds the
// pawn as a PredictedState (exactly what the owner detail and a forgiveness claim carry); the game
// says how one input advances it, with the very step its server runs, so a replay from the acked
// state lands where the server did.
#pragma once

#include <cstdint>

#include "tickwire/protocol/input_frame.h"
#include "tickwire/protocol/snapshot.h"
#include "tickwire/protocol/vec3.h"

namespace tickwire {

struct PredictedState {
  protocol::Vec3 position;      // feet, metres, y up
  protocol::Vec3 velocity_mps;
  protocol::PawnValues values;  // the game's pawn values (GameVocabulary::pawn_values), in order
  uint8_t flags = 0;            // entity flag bits (GameVocabulary::entity_flags)
  uint8_t placement_epoch = 0;  // the server's placement bumps it; the client never does

  // The value at `index`, 0 when the state carries fewer.
  float value(std::size_t index) const { return index < values.size() ? values[index].value : 0.0f; }
  friend bool operator==(const PredictedState&, const PredictedState&) = default;
};

// The owner detail's pawn as a predicted state, and back.
PredictedState predicted_from_detail(const protocol::PawnDetail& detail);
protocol::PawnDetail detail_from_predicted(const PredictedState& state, uint64_t pawn_ref);
// What a client may say about its pawn: only the claimable flag bits (`claimable_flags`, from the
// game's vocabulary) are kept.
protocol::Claim claim_from_predicted(const PredictedState& state, uint8_t claimable_flags);
// The command as the server reads it: through its wire form (quantized axes and angles, 8 button
// bits). Predicting with anything else would mispredict by the rounding on every tick.
protocol::InputCmd as_sent(const protocol::InputCmd& cmd);

// What a predicted step may read of the replicated world: the newest snapshot the predictor
// reconciled with (its records: a door's open fraction and rate) and how many ticks after that
// snapshot's tick the server will simulate this input (1: the input after the acked one). The Quake 3
// mover trajectory: the k-th un-acked input steps against the doors as they will stand at tick + k.
struct PredictionContext {
  const protocol::Snapshot* snapshot = nullptr;  // null before the first reconcile
  uint32_t ticks_ahead = 1;
  // The snapshot reconciled before `snapshot` (null: none kept): what a model may read a motion off
  // that the wire states no rate for (a physics prop's, from its two newest poses).
  const protocol::Snapshot* previous = nullptr;
};

class PredictionModel {
 public:
  virtual ~PredictionModel() = default;
  // One tick of `cmd` from `state`: the server's own step for this pawn, bit for bit. It obeys
  // the server-owned flags and never changes them or the placement epoch (the predictor restores
  // both from the state it stepped from, whatever a model returns).
  virtual PredictedState step(const PredictedState& state, const protocol::InputCmd& cmd, double dt_s) const = 0;
  // The same step against the replicated world (what the predictor calls): a model whose world
  // moves (doors, lifts) places it at `context`; the default ignores it. A model may be shared by
  // many clients: everything per client is in the context.
  virtual PredictedState step_in(const PredictedState& state, const protocol::InputCmd& cmd, double dt_s,
                                 const PredictionContext& context) const {
    (void)context;
    return step(state, cmd, dt_s);
  }
  // What of a snapshot's world a step reads that the wire states no trajectory for (a physics
  // prop's pose, mirrored from the server, and the motion read off the snapshot before it), as one
  // number: two worlds of one revision give every step the same solids. A prediction the server
  // confirmed still stands only while the revision holds; when it moved, the un-acked inputs are
  // replayed against the new world. The default: no such world.
  virtual uint64_t world_revision(const protocol::Snapshot& snapshot, const protocol::Snapshot* previous) const {
    (void)snapshot, (void)previous;
    return 0;
  }
};

}  // namespace tickwire

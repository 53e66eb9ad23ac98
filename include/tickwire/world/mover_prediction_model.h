// MoverPredictionModel: the reference game's side of the client's prediction seam. It steps the
// engine's PredictedState through the same CharacterMover, static boxes and moving doors and lifts
// (ObjectSolids, placed on the Quake 3 trajectory from the snapshot) the server steps the pawn with,
// so a replay from the acked state reproduces the server's pawn bit for bit.
#pragma once

#include <cstdint>
#include <span>

#include "tickwire/client/prediction_model.h"
#include "tickwire/protocol/snapshot.h"
#include "tickwire/world/character_mover.h"
#include "tickwire/world/object_solids.h"
#include "tickwire/world/pawn_state.h"
#include "tickwire/world/vec3.h"
#include "tickwire/world/voxel_prediction_world.h"

namespace tickwire::world {

// The pawn as the engine predicts and replicates it (look angles are not part of it: every step
// takes them from its command).
PredictedState predicted_from_pawn(const PawnState& pawn);
// The pawn a predicted state stands for, look angles zero until the next step sets them.
PawnState pawn_from_predicted(const PredictedState& state);
// The pawn's entity flag bits (the reference vocabulary's: grounded, crouched, noclip, frozen).
uint8_t pawn_entity_flags(const PawnState& pawn);
// The owner detail for a pawn (what a Simulation's pawn_detail returns).
protocol::PawnDetail pawn_detail_of(const PawnState& pawn, uint64_t pawn_ref);

class MoverPredictionModel final : public PredictionModel {
 public:
  // `mover`, the boxes and `solids` must outlive the model (the client's copy of the map's static
  // boxes; with `solids`, its doors and lifts too, placed from each step's snapshot).
  // With `voxels` (one client's: a model holding one is that client's alone), the voxel volumes'
  // chunks around the pawn too, synced before every step.
  MoverPredictionModel(const CharacterMover& mover, std::span<const Aabb> static_boxes,
                       const ObjectSolids* solids = nullptr, VoxelPredictionWorld* voxels = nullptr);

  PredictedState step(const PredictedState& state, const protocol::InputCmd& cmd, double dt_s) const override;
  // Against the doors and lifts as they will stand `context.ticks_ahead` ticks after the context's
  // snapshot (their replicated fraction plus that many ticks of their rate), as the server steps.
  PredictedState step_in(const PredictedState& state, const protocol::InputCmd& cmd, double dt_s,
                         const PredictionContext& context) const override;

  // The props' poses the snapshot and the one before it carry (their records' transforms), hashed,
  // and the voxel cells' revision: what a confirmed prediction must be replayed against when it moved.
  uint64_t world_revision(const protocol::Snapshot& snapshot, const protocol::Snapshot* previous) const override;

  void set_static_boxes(std::span<const Aabb> static_boxes) { boxes_ = static_boxes; }

 private:
  const CharacterMover& mover_;
  std::span<const Aabb> boxes_;
  const ObjectSolids* solids_;
  VoxelPredictionWorld* voxels_;
};

}  // namespace tickwire::world

// The conversions between the mover's PawnState and the engine's PredictedState, and the step
// that goes through them. The float dt is taken from the double exactly as the server takes it.
#include "tickwire/world/mover_prediction_model.h"

#include "tickwire/protocol/pawn_flags.h"

namespace tickwire::world {

PredictedState predicted_from_pawn(const PawnState& pawn) {
  PredictedState s;
  s.position = pawn.feet.to_wire();
  s.velocity_mps = pawn.velocity_mps.to_wire();
  s.stance_height_m = pawn.stance_height_m;
  s.eye_height_m = pawn.eye_height_m;
  s.flags = static_cast<uint8_t>((pawn.grounded ? protocol::kPawnGrounded : 0) |
                                 (pawn.crouched ? protocol::kPawnCrouched : 0) |
                                 (pawn.noclip ? protocol::kPawnNoclip : 0) | (pawn.frozen ? protocol::kPawnFrozen : 0));
  s.placement_epoch = pawn.placement_epoch.value;
  return s;
}

PawnState pawn_from_predicted(const PredictedState& state) {
  PawnState p;
  p.feet = Vec3::from_wire(state.position);
  p.velocity_mps = Vec3::from_wire(state.velocity_mps);
  p.stance_height_m = state.stance_height_m;
  p.eye_height_m = state.eye_height_m;
  p.grounded = state.has(protocol::kPawnGrounded);
  p.crouched = state.has(protocol::kPawnCrouched);
  p.noclip = state.has(protocol::kPawnNoclip);
  p.frozen = state.has(protocol::kPawnFrozen);
  p.placement_epoch.value = state.placement_epoch;
  return p;
}

protocol::PawnDetail pawn_detail_of(const PawnState& pawn, uint64_t pawn_ref) {
  return detail_from_predicted(predicted_from_pawn(pawn), pawn_ref);
}

MoverPredictionModel::MoverPredictionModel(const CharacterMover& mover, std::span<const Aabb> static_boxes)
    : mover_(mover), boxes_(static_boxes) {}

PredictedState MoverPredictionModel::step(const PredictedState& state, const protocol::InputCmd& cmd,
                                          double dt_s) const {
  return predicted_from_pawn(mover_.step(pawn_from_predicted(state), cmd, static_cast<float>(dt_s), boxes_));
}

}  // namespace tickwire::world

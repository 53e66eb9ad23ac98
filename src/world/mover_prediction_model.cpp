// The conversions between the mover's PawnState and the engine's PredictedState, and the step
// that goes through them. The float dt is taken from the double exactly as the server takes it.
#include "tickwire/world/mover_prediction_model.h"

#include <vector>

#include "tickwire/world/reference_vocabulary.h"

namespace tickwire::world {

PredictedState predicted_from_pawn(const PawnState& pawn) {
  PredictedState s;
  s.position = pawn.feet.to_wire();
  s.velocity_mps = pawn.velocity_mps.to_wire();
  s.values = protocol::PawnValues{{pawn.stance_height_m}, {pawn.eye_height_m}};
  s.flags = pawn_entity_flags(pawn);
  s.placement_epoch = pawn.placement_epoch.value;
  return s;
}

PawnState pawn_from_predicted(const PredictedState& state) {
  PawnState p;
  p.feet = Vec3::from_wire(state.position);
  p.velocity_mps = Vec3::from_wire(state.velocity_mps);
  p.stance_height_m = state.value(kValueStanceHeight);
  p.eye_height_m = state.value(kValueEyeHeight);
  p.grounded = (state.flags & kFlagGrounded) != 0;
  p.crouched = (state.flags & kFlagCrouched) != 0;
  p.noclip = (state.flags & kFlagNoclip) != 0;
  p.frozen = (state.flags & kFlagFrozen) != 0;
  p.placement_epoch.value = state.placement_epoch;
  return p;
}

uint8_t pawn_entity_flags(const PawnState& pawn) {
  return static_cast<uint8_t>((pawn.grounded ? kFlagGrounded : 0) | (pawn.crouched ? kFlagCrouched : 0) |
                              (pawn.noclip ? kFlagNoclip : 0) | (pawn.frozen ? kFlagFrozen : 0));
}

protocol::PawnDetail pawn_detail_of(const PawnState& pawn, uint64_t pawn_ref) {
  return detail_from_predicted(predicted_from_pawn(pawn), pawn_ref);
}

MoverPredictionModel::MoverPredictionModel(const CharacterMover& mover, std::span<const Aabb> static_boxes,
                                           const ObjectSolids* solids, VoxelPredictionWorld* voxels)
    : mover_(mover), boxes_(static_boxes), solids_(solids), voxels_(voxels) {}

PredictedState MoverPredictionModel::step(const PredictedState& state, const protocol::InputCmd& cmd,
                                          double dt_s) const {
  return step_in(state, cmd, dt_s, PredictionContext{});
}

uint64_t MoverPredictionModel::world_revision(const protocol::Snapshot& snapshot, const protocol::Snapshot* previous) const {
  const uint64_t cells = voxels_ != nullptr ? voxels_->revision() * 0xc2b2ae3d27d4eb4full : 0;
  if (solids_ == nullptr) return cells;
  const uint64_t now = solids_->prop_revision(snapshot);
  const uint64_t before = previous != nullptr ? solids_->prop_revision(*previous) : 0;
  return now ^ (before * 0x9e3779b97f4a7c15ull) ^ cells;
}

PredictedState MoverPredictionModel::step_in(const PredictedState& state, const protocol::InputCmd& cmd, double dt_s,
                                             const PredictionContext& context) const {
  const bool voxels = voxels_ != nullptr && !voxels_->empty();
  if (!voxels && (solids_ == nullptr || (solids_->tracks().empty() && solids_->props().empty()))) {
    return predicted_from_pawn(mover_.step(pawn_from_predicted(state), cmd, static_cast<float>(dt_s), boxes_));
  }
  // Scratch (a model is shared by many clients): the drivers' states and the props' tracks are read
  // off a snapshot once, for every step of a replay against it, and again only when another
  // snapshot is named (none: every door and prop where the map puts it).
  thread_local struct {
    const ObjectSolids* solids = nullptr;
    const Aabb* statics = nullptr;
    std::size_t static_count = 0;
    const protocol::Snapshot* snapshot = nullptr;
    const protocol::Snapshot* previous = nullptr;
    uint32_t tick = 0, previous_tick = 0;
    bool fresh = false;
    std::vector<MoverState> drivers;
    std::vector<PropTrack> props;
    std::vector<Aabb> solid;  // the statics, then the voxel boxes around the pawn
    std::vector<TurnedBox> prop_boxes;  // every prop where its trajectory puts it
    std::vector<MovingBox> moving;
  } scratch;
  const uint32_t tick = context.snapshot != nullptr ? context.snapshot->tick : 0;
  const uint32_t previous_tick = context.previous != nullptr ? context.previous->tick : 0;
  static const ObjectSolids kNoSolids;
  const ObjectSolids& solids = solids_ != nullptr ? *solids_ : kNoSolids;
  if (!scratch.fresh || scratch.solids != &solids || scratch.statics != boxes_.data() || scratch.static_count != boxes_.size() ||
      scratch.snapshot != context.snapshot || scratch.tick != tick || scratch.previous != context.previous ||
      scratch.previous_tick != previous_tick) {
    static const protocol::Snapshot kNoSnapshot;
    solids.driver_states(context.snapshot != nullptr ? *context.snapshot : kNoSnapshot, scratch.drivers);
    solids.prop_tracks(context.snapshot, context.previous, scratch.props);
    scratch.solid.assign(boxes_.begin(), boxes_.end());
    scratch.solids = &solids;
    scratch.statics = boxes_.data();
    scratch.static_count = boxes_.size();
    scratch.snapshot = context.snapshot;
    scratch.previous = context.previous;
    scratch.tick = tick;
    scratch.previous_tick = previous_tick;
    scratch.fresh = true;
  }
  const PawnState pawn = pawn_from_predicted(state);
  const Aabb pawn_box = pawn_bounds(pawn, mover_.settings().radius_m);
  scratch.solid.resize(boxes_.size());
  scratch.prop_boxes.clear();
  solids.prop_boxes_ahead(scratch.props, context.ticks_ahead, scratch.prop_boxes, &pawn_box);
  solids.moving_boxes(scratch.drivers, context.ticks_ahead, scratch.moving);
  if (voxels) {  // the chunks around the pawn, streamed before the step as the server streams its own
    voxels_->sync(context.snapshot, pawn.feet);
    voxels_->append_boxes_near(voxel_step_region(pawn_box), scratch.solid);
  }
  return predicted_from_pawn(mover_.step(pawn, cmd, static_cast<float>(dt_s), scratch.solid, scratch.moving, scratch.prop_boxes));
}

}  // namespace tickwire::world

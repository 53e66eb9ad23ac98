// Which mover the predicted pawn stands on (its feet on the top where the step left the box, across
// it, grounded), and the slide between that pose (as far through the tick as the pawn is drawn) and
// the drawn one.
#include "tickwire/world/rider_shift.h"

#include <algorithm>
#include <vector>

#include "tickwire/world/character_mover.h"
#include "tickwire/world/mover_prediction_model.h"
#include "tickwire/world/reference_vocabulary.h"

namespace tickwire::world {

Vec3 rider_shift(const ObjectSolids& solids, const PredictedState& predicted, float radius_m,
                 const PredictionContext& context, double alpha, const DrawnFraction& drawn) {
  if (context.snapshot == nullptr || (predicted.flags & kFlagGrounded) == 0 || solids.tracks().empty()) return {};
  const Aabb pawn_box = pawn_bounds(pawn_from_predicted(predicted), radius_m);
  std::vector<MoverState> drivers;
  solids.driver_states(*context.snapshot, drivers);
  for (const KinematicTrack& track : solids.tracks()) {
    if (!track.body.blocks()) continue;
    const MoverState& state = drivers[track.driver_slot];
    if (!stands_on(pawn_box, moving_box(track, state, context.ticks_ahead).at(1.0f))) continue;
    const double k = static_cast<double>(std::max<uint32_t>(context.ticks_ahead, 1));
    const double stood = std::clamp(state.fraction + state.rate * (k - 1.0 + std::clamp(alpha, 0.0, 1.0)), 0.0, 1.0);
    const double seen = drawn(track.driver_index).value_or(track.authored.fraction);
    return mover_offset(track.slide, seen) - mover_offset(track.slide, stood);
  }
  return {};
}

}  // namespace tickwire::world

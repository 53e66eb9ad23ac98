// Which mover the predicted pawn stands on (its feet on the top where the step left the box, across
// it, grounded), and the slide between that pose (as far through the tick as the pawn is drawn) and
// the drawn one.
#include "tickwire/world/rider_shift.h"

#include <algorithm>

#include "tickwire/world/box_sweep.h"
#include "tickwire/world/reference_vocabulary.h"

namespace tickwire::world {
namespace {

constexpr float kStandProbeM = 0.02f;  // feet within this of a top stand on it (the mover's ground probe)

bool stands_on(const Vec3& feet, float radius_m, const Aabb& top) {
  const float gap_m = feet.y - top.max.y;
  return gap_m >= -kContactSkinM && gap_m <= kStandProbeM && feet.x + radius_m > top.min.x &&
         feet.x - radius_m < top.max.x && feet.z + radius_m > top.min.z && feet.z - radius_m < top.max.z;
}

}  // namespace

Vec3 rider_shift(const ObjectSolids& solids, const PredictedState& predicted, float radius_m,
                 const PredictionContext& context, double alpha, const DrawnFraction& drawn) {
  if (context.snapshot == nullptr || (predicted.flags & kFlagGrounded) == 0) return {};
  const Vec3 feet = Vec3::from_wire(predicted.position);
  for (const KinematicTrack& track : solids.tracks()) {
    if (!track.body.blocks()) continue;
    const MoverState state = driver_state(*context.snapshot, track);
    const MovingBox box = moving_box(track, state, context.ticks_ahead);
    if (!stands_on(feet, radius_m, box.at(1.0f))) continue;
    const double k = static_cast<double>(std::max<uint32_t>(context.ticks_ahead, 1));
    const double stood = std::clamp(state.fraction + state.rate * (k - 1.0 + std::clamp(alpha, 0.0, 1.0)), 0.0, 1.0);
    const double seen = drawn(track.driver_index).value_or(track.authored.fraction);
    return mover_offset(track.slide, seen) - mover_offset(track.slide, stood);
  }
  return {};
}

}  // namespace tickwire::world

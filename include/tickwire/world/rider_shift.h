// The drawn rider shift (seed 000; Quake 3's CG_AdjustPositionForMover). The local pawn is predicted
// ahead of the render time by the latency and the interpolation delay, so on a moving lift it stands
// off the platform everyone sees by that much travel. Drawn only (nothing simulated moves): a pawn
// predicted standing on a door or lift is moved by the difference between the platform as drawn and
// the platform where it stood at its predicted tick; it lets go the moment the pawn leaves it.
#pragma once

#include <functional>
#include <optional>

#include "tickwire/client/prediction_model.h"
#include "tickwire/world/object_solids.h"

namespace tickwire::world {

// A mover's open fraction as drawn at the render time (nullopt: at its authored state).
using DrawnFraction = std::function<std::optional<double>(uint32_t object_index)>;

// The shift for a pawn (of footprint `radius_m`) whose newest predicted state is `predicted` (the
// step `context` names), drawn `alpha` of the way from the step before: zero on no mover.
Vec3 rider_shift(const ObjectSolids& solids, const PredictedState& predicted, float radius_m,
                 const PredictionContext& context, double alpha, const DrawnFraction& drawn);

}  // namespace tickwire::world

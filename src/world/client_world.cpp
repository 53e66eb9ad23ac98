// A client's own props following its predicted pawn, one step per predicted tick.
#include "tickwire/world/client_world.h"

#include <algorithm>

namespace tickwire::world {

void ClientWorld::follow(const Predictor& predictor, double tick_s) {
  const uint64_t ticks = predictor.stats().predicted;
  const uint64_t due = std::min(ticks - std::min(followed_ticks_, ticks), kMaxPropStepsPerFollow);
  followed_ticks_ = ticks;
  if (props_.props().empty() || !predictor.started()) return;
  const PawnState pawn = pawn_from_predicted(predictor.predicted());
  const Aabb box = pawn_bounds(pawn, mover_.settings().radius_m);
  for (uint64_t i = 0; i < due; ++i) props_.step(box, pawn.velocity_mps, statics_, static_cast<float>(tick_s));
}

}  // namespace tickwire::world

// The ranges a room's world settings must keep (a hostile or broken peer's values are refused, not
// run: a NaN time scale would step every pawn by NaN seconds).
#include "tickwire/protocol/world_settings.h"

#include <cmath>

namespace tickwire::protocol {

bool valid_world_settings(const WorldSettings& settings) {
  return std::isfinite(settings.forgiveness) && settings.forgiveness >= 0.0f && settings.forgiveness <= 1.0f &&
         std::isfinite(settings.time_scale) && settings.time_scale >= 0.0f && settings.time_scale <= kMaxWorldTimeScale;
}

}  // namespace tickwire::protocol

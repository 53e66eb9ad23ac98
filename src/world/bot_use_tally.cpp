// Counting the server's answers to a bot's uses.
#include "tickwire/world/bot_use_tally.h"

#include "tickwire/world/reference_game.h"

namespace tickwire::world {

void BotUseTally::count(const protocol::EntityEvent& event) {
  switch (event.event_kind) {
    case kEventUseTaken: ++taken; break;
    case kEventUseUnhandled: ++unhandled; break;
    case kEventUseRefused:
      if (event.payload.bits < ReasonCounters<UseRefusal>::size()) refused.add(static_cast<UseRefusal>(event.payload.bits));
      break;
    default: break;
  }
}

void BotUseTally::merge(const BotUseTally& other) {
  taken += other.taken;
  unhandled += other.unhandled;
  refused.merge(other.refused);
}

}  // namespace tickwire::world

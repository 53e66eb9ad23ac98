// How a bot's uses were answered: the server answers every judged use (a named interaction or a
// Use press) with an entity event, and a bot counts them, taken or refused by reason, for its
// summary line.
#pragma once

#include <cstdint>

#include "tickwire/core/reason_counters.h"
#include "tickwire/protocol/entity_event.h"
#include "tickwire/world/use_reach.h"

namespace tickwire::world {

struct BotUseTally {
  uint64_t taken = 0;      // kEventUseTaken
  uint64_t unhandled = 0;  // kEventUseUnhandled: taken, but its logic did nothing
  ReasonCounters<UseRefusal> refused;

  // Counts one of the server's answers (other events are not answers to a use).
  void count(const protocol::EntityEvent& event);
  // Adds another bot's counts (a summary over bots).
  void merge(const BotUseTally& other);
};

}  // namespace tickwire::world

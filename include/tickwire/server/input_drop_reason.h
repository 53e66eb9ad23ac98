// Why the server's input queue refused an input: redundant packets repeat inputs on purpose, and a
// fast or hostile client overfills the queue, so every refusal is expected traffic that is counted
// by reason (never an error) for stats and for the tests that prove a fast client gains nothing.
#pragma once

#include <cstdint>
#include <string_view>

#include "tickwire/core/reasons.h"
#include "tickwire/core/reason_counters.h"

namespace tickwire {

TW_REASONS(InputDropReason,
  duplicate,     // this sequence was already queued or already applied
  stale,         // older than an input already taken, never received before: its tick has passed
  overflow,      // the queue already holds InputQueueTicks inputs waiting
  sequence_end,  // past the u32 sequence space (sequences never wrap within a session)
  stamp_ahead,   // server-time mode: stamped further past the server's time than the contract's lead
  late           // its tick already ran on the server's guess (a starved tick): buttons it pressed that
                 // the guess did not are pressed on the next fresh tick, the rest is gone with its tick
)

using InputDropCounters = ReasonCounters<InputDropReason>;

}  // namespace tickwire

// What a peer's rollback session counts, for the operator and the tests: how much it simulated and
// resimulated, how deep each rollback went, how often it waited at the window or ran to catch the
// clock, and what it refused.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "tickwire/core/status.h"
#include "tickwire/core/reason_counters.h"
#include "tickwire/lockstep/lockstep_settings.h"

namespace tickwire::lockstep {

struct RollbackStats {
  uint32_t next_frame = 0;            // the frame the session simulates next
  uint32_t confirmed_frame = 0;       // the newest frame simulated from every seat's canonical input
  uint64_t frames_simulated = 0;      // first runs of a frame
  uint64_t frames_resimulated = 0;    // runs of a frame again after a rollback
  uint64_t rollbacks = 0;
  // rollbacks by depth (frames resimulated), 1..window; [0] is unused
  std::array<uint64_t, kMaxRollbackWindowFrames + 1> depth_histogram{};
  uint64_t inputs_predicted = 0;      // a seat's input guessed (its last known repeated)
  uint64_t predictions_wrong = 0;     // guesses a canonical input later contradicted
  uint64_t stalled_updates = 0;       // updates held at the rollback window
  uint64_t catch_up_frames = 0;       // frames run beyond one per update to catch the clock
  uint64_t checksums_sent = 0;        // confirmed frames' checksums handed to the authority
  uint64_t checksums_overrun = 0;     // checksums dropped unsent (the authority stopped acking)
  uint32_t desync_frame = kNoFrame;   // the first diverging frame, as the authority reported it
  ReasonCounters<Error> refused;      // messages from the authority refused, by decode error
  uint64_t refused_terms = 0;         // a welcome whose settings are outside the caps
  uint64_t relays_before_welcome = 0; // relays that overtook the welcome (ignored: the next ones carry it all)
};

using DepthHistogram = std::array<uint64_t, kMaxRollbackWindowFrames + 1>;

// One line of a peer's figures over `seconds` ("frame 3587 confirmed 3580  simulated ...  up 4135
// B/s  refused 0"), as `tickwire lockstep` and the tests print them.
std::string peer_figures(const RollbackStats& stats, double seconds, uint64_t bytes_sent);
// "depth:count" for every depth that occurred ("3:332 4:3599 ...").
std::string depth_figures(const DepthHistogram& histogram);

}  // namespace tickwire::lockstep

// The interpolation half of the client's quality figures: held frames, render-clock snaps and the
// deepest snapshot burst, and the perf-overlay line that shows them with the delay in force and
// the earned margin: `interp 3 t (+0.0) held 0 snaps 0 burst 1`.
#pragma once

#include <cstdint>
#include <string>

namespace tickwire {

struct InterpCounters {
  uint64_t frames = 0;
  uint64_t held_frames = 0;    // the render time was past the newest snapshot (alpha clamped at 1)
  uint64_t snaps = 0;          // the render clock jumped (a stall left it behind the ring); one per stall
  uint64_t halted_frames = 0;  // the render clock waited at the extrapolation cap
  uint32_t max_burst = 0;      // most snapshots stored between two frames
  uint64_t snapshots = 0;      // snapshots stored
  uint64_t report_lines = 0;   // log lines written (only when something held or snapped)
};

// `delay_ticks`: the delay in force; `margin_ticks`: the earned margin (fractional).
std::string format_interp_overlay(int64_t delay_ticks, double margin_ticks, const InterpCounters& counters);

}  // namespace tickwire

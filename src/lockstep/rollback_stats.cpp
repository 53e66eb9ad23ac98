// The figures' text, stated once for the CLI and the tests.
#include "tickwire/lockstep/rollback_stats.h"

#include <fmt/format.h>

namespace tickwire::lockstep {

std::string peer_figures(const RollbackStats& s, double seconds, uint64_t bytes_sent) {
  return fmt::format(
      "frame {} confirmed {}  simulated {}  resimulated {} ({:.1f}/s)  rollbacks {}  wrong guesses {}  waits at the window {}  "
      "catch-up frames {}  up {:.0f} B/s  refused {}",
      s.next_frame, s.confirmed_frame, s.frames_simulated, s.frames_resimulated, static_cast<double>(s.frames_resimulated) / seconds,
      s.rollbacks, s.predictions_wrong, s.stalled_updates, s.catch_up_frames, static_cast<double>(bytes_sent) / seconds,
      s.refused.total() + s.refused_terms);
}

std::string depth_figures(const DepthHistogram& histogram) {
  std::string out;
  for (std::size_t depth = 1; depth < histogram.size(); ++depth) {
    if (histogram[depth] != 0) out += fmt::format("{}{}:{}", out.empty() ? "" : " ", depth, histogram[depth]);
  }
  return out;
}

}  // namespace tickwire::lockstep

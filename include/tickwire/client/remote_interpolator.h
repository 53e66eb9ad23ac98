// RemoteInterpolator: how the client draws everyone it does not predict. Snapshots land on the
// server-tick timeline (SnapshotTimeline); a RenderClock runs behind the newest tick by the delay
// (ceil(interp) + 1 margin tick + a JitterMargin earned by held and snapped frames); each entity is
// blended at the render time of its profile. Pure logic: snapshots and frame times are passed in.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "tickwire/client/entity_sample.h"
#include "tickwire/client/interp_counters.h"
#include "tickwire/client/interp_settings.h"
#include "tickwire/client/render_clock.h"
#include "tickwire/client/snapshot_timeline.h"
#include "tickwire/clock/jitter_margin.h"
#include "tickwire/clock/tick.h"
#include "tickwire/clock/time.h"

namespace spdlog {
class logger;
}

namespace tickwire {

enum class SampleState : uint8_t {
  absent,        // not in the snapshot at its render time: not spawned yet, or gone
  interpolated,  // blended between two held samples (across lost ticks too)
  held,          // at one sample: leaving, older than the ring, or nothing to extrapolate from
  extrapolated,  // past its newest sample, short of the extrapolation cap
  halted,        // past its newest sample by the cap or more: stopped at the cap
};

struct InterpSample {
  SampleState state = SampleState::absent;
  EntitySample sample;       // meaningful unless absent
  double render_tick = 0.0;  // the time the profile sampled at
};

// What one frame did.
struct InterpFrame {
  bool clock_running = false;  // a snapshot has arrived this session
  bool placed = false;         // the clock was (re)placed this frame, not stepped
  RenderClockStep step;        // the clock's step (when it was stepped)
  double render_tick = 0.0;
  int64_t delay_ticks = 0;     // the standard profile's delay in force
  uint32_t arrivals = 0;       // snapshots stored since the previous frame
};

class RemoteInterpolator {
 public:
  // `start`: when the session began (the margin's decay is measured from it). `logger` null: the
  // default spdlog logger.
  RemoteInterpolator(const InterpSettings& settings, MonoTime start, std::shared_ptr<spdlog::logger> logger = nullptr);

  // A snapshot arrived (any time between frames); false when the ring refused it (reason counted).
  bool on_snapshot(Tick tick, std::span<const EntitySample> samples);
  // One render frame at `now`: the clock advances by (now - previous frame) x timescale.
  InterpFrame frame(MonoTime now, double timescale = 1.0);

  // The entity drawn at its profile's render time.
  InterpSample sample(EntityNetHandle entity, InterpProfile profile = InterpProfile::standard) const;
  // The snapshot the standard render time falls in (its entities are the ones drawn), or null.
  const std::vector<EntitySample>* snapshot_at_render_time() const;

  // Live tuning; false (nothing changed) for invalid settings. The ring's size and entity cap
  // apply at the next reset(); a change to the margin law restarts the earned margin.
  bool set_settings(const InterpSettings& settings, MonoTime now);
  // Leaving a session: the ring, the clock, the margin and the counters start over.
  void reset(MonoTime now);

  // The delay in force for a profile, in whole ticks (margin included, under the ceiling).
  int64_t delay_ticks(InterpProfile profile = InterpProfile::standard) const;
  double margin_ticks() const { return margin_.value(); }
  double render_tick() const { return clock_.render_tick(); }
  double render_seconds() const { return clock_.render_tick() * settings_.seconds_per_tick(); }
  std::string overlay_line() const;

  const InterpSettings& settings() const { return settings_; }
  const InterpCounters& counters() const { return counters_; }
  const SnapshotTimeline& timeline() const { return timeline_; }
  const RenderClock& clock() const { return clock_; }

 private:
  double profile_render_tick(InterpProfile profile) const;
  double placement_tick() const;
  void step_clock(MonoTime now, Duration dt, double timescale, InterpFrame& out);
  void maybe_report(MonoTime now);
  InterpSample past_newest(const SampleBracket& bracket, double render_tick) const;

  InterpSettings settings_;
  std::shared_ptr<spdlog::logger> logger_;
  SnapshotTimeline timeline_;
  RenderClock clock_;
  JitterMargin margin_;
  InterpCounters counters_;
  bool has_frame_ = false;
  MonoTime last_frame_;
  uint32_t arrivals_ = 0;               // snapshots stored since the last frame
  MonoTime last_report_;
  uint64_t held_at_report_ = 0;
  uint64_t snaps_at_report_ = 0;
};

}  // namespace tickwire

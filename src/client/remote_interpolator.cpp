// The remote-entity interpolation loop: store, step the render clock, blend per profile, report.
//
// Why the defaults ride out a host whose sleeps overshoot to 83 ms (a burst of 5 snapshots every
// 83 ms at 60 Hz, nothing lost) with zero held frames and zero snaps:
//  * The timeline is the server's tick grid, so a burst only changes when ticks become visible,
//    never where they sit. The newest visible tick climbs a staircase of 5-tick steps instead of
//    the 1-tick steps of an even stream.
//  * A frame holds only when the render time passes the newest visible tick, i.e. at the bottom
//    of that staircase. Steering the clock toward the staircase's AVERAGE minus the 3-tick delay
//    would leave it 3 - 2.5 - 0.5 = 0 ticks clear of the bottom (the last half tick is the sub-tick
//    phase of the host's wake): a knife edge that holds every few seconds, earns margin, decays,
//    and holds again.
//  * So the render clock steers the newest tick's LOW-WATER mark (render_clock.h): the least
//    headroom it has had lately, kept at delay - 1/2. On an even stream that is the same place as
//    "the delay behind the average"; on the clumping host the bottom of the staircase stays 2.5
//    ticks clear, and the burst costs latency (about 5.5 more ticks), never a held frame.
//  * The clock starts (and lands after a snap) at the delay ceiling, three quarters of the ring
//    back, because nothing is known yet about how the host clumps; it then comes forward at +5%.
//    Started at the delay behind a first lone snapshot it would run out before the first burst.
//  * The ring (16 ticks) is far wider than a burst, so a burst never pushes the clock out of it:
//    snaps are left for real stalls, and the earned margin for what the staircase did not predict.
#include "tickwire/client/remote_interpolator.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>

#include "tickwire/core/assert.h"

namespace tickwire {

namespace {

bool same_margin_law(const JitterMarginConfig& a, const JitterMarginConfig& b) {
  return a.growth == b.growth && a.max == b.max && a.decay == b.decay && a.enabled == b.enabled;
}

double tick_of(Tick tick) { return static_cast<double>(tick.value()); }

constexpr double kAtCapEpsilonTicks = 1e-9;  // a lane the clock halted at the cap counts as halted

}  // namespace

RemoteInterpolator::RemoteInterpolator(const InterpSettings& settings, MonoTime start,
                                       std::shared_ptr<spdlog::logger> logger)
    : settings_(settings),
      logger_(logger ? std::move(logger) : spdlog::default_logger()),
      timeline_(settings.timeline_config()),
      clock_(settings.clock),
      margin_(settings.margin_config(), start),
      last_report_(start) {
  TW_ASSERT(interp_settings_valid(settings), "interpolation settings out of range");
}

bool RemoteInterpolator::on_snapshot(Tick tick, std::span<const EntitySample> samples) {
  if (!timeline_.insert(tick, samples)) return false;
  ++counters_.snapshots;
  ++arrivals_;
  return true;
}

int64_t RemoteInterpolator::delay_ticks(InterpProfile profile) const {
  const double interp = settings_.interp_ticks();
  const int64_t standard = std::min(delay_ceiling_ticks(timeline_.config().buffer_ticks, settings_),
                                    profile_base_delay_ticks(InterpProfile::standard, interp) + margin_.whole_units());
  // Profiles keep their distance from the standard timeline: the margin is earned once, by the clock.
  const int64_t offset =
      profile_base_delay_ticks(profile, interp) - profile_base_delay_ticks(InterpProfile::standard, interp);
  return std::max<int64_t>(0, standard + offset);
}

double RemoteInterpolator::profile_render_tick(InterpProfile profile) const {
  return clock_.render_tick() + static_cast<double>(delay_ticks(InterpProfile::standard) - delay_ticks(profile));
}

// Where the clock starts, and lands on a snap: as far back as the delay may ever reach. Nothing is
// known yet about how this host clumps; the low-water correction brings the clock forward at +5%.
double RemoteInterpolator::placement_tick() const {
  return tick_of(timeline_.newest()) - static_cast<double>(delay_ceiling_ticks(timeline_.config().buffer_ticks, settings_));
}

InterpFrame RemoteInterpolator::frame(MonoTime now, double timescale) {
  TW_ASSERT(std::isfinite(timescale) && timescale >= 0.0, "the time scale is finite and not negative");
  const Duration dt = has_frame_ && now > last_frame_ ? now - last_frame_ : Duration{};
  has_frame_ = true;
  last_frame_ = std::max(last_frame_, now);
  margin_.update(now);
  ++counters_.frames;
  counters_.max_burst = std::max(counters_.max_burst, arrivals_);
  InterpFrame out;
  out.arrivals = arrivals_;
  if (!timeline_.empty()) step_clock(now, dt, timescale, out);
  out.render_tick = clock_.render_tick();
  out.delay_ticks = delay_ticks();
  arrivals_ = 0;
  maybe_report(now);
  return out;
}

void RemoteInterpolator::step_clock(MonoTime now, Duration dt, double timescale, InterpFrame& out) {
  out.clock_running = true;
  const int64_t delay = delay_ticks();
  if (!clock_.placed()) {
    clock_.place(placement_tick(), tick_of(timeline_.newest()));
    out.placed = true;
    return;
  }
  const double newest = tick_of(timeline_.newest());
  RenderClockBounds bounds;
  bounds.newest_tick = newest;
  bounds.delay_ticks = static_cast<double>(delay);
  bounds.halt_tick = newest + settings_.extrapolation_cap_ticks();
  bounds.back_edge_tick = tick_of(timeline_.window_start());
  bounds.snap_tick = placement_tick();
  // The ring past the delay ceiling: the backlog of one stall lands within it.
  bounds.snap_merge_ticks = static_cast<double>(timeline_.config().buffer_ticks) -
                            static_cast<double>(delay_ceiling_ticks(timeline_.config().buffer_ticks, settings_));
  out.step = clock_.advance(dt.seconds_f() * timescale * settings_.tick_rate_hz, bounds);
  if (out.step.snapped && !out.step.snap_continued) {
    ++counters_.snaps;
    margin_.on_bad_event(now);
  }
  if (out.step.halted) ++counters_.halted_frames;
  if (out.step.held) {
    ++counters_.held_frames;
    margin_.on_bad_event(now);
  }
}

// A line every report interval, and only when something held or snapped since the last one.
void RemoteInterpolator::maybe_report(MonoTime now) {
  const Duration elapsed = now - last_report_;
  if (elapsed < settings_.report_interval) return;
  const uint64_t held = counters_.held_frames - held_at_report_;
  const uint64_t snaps = counters_.snaps - snaps_at_report_;
  last_report_ = now;
  held_at_report_ = counters_.held_frames;
  snaps_at_report_ = counters_.snaps;
  if (held == 0 && snaps == 0) return;
  ++counters_.report_lines;
  logger_->info("remote interpolation: {} held frames, {} snaps in the last {:.1f} s; {}", held, snaps,
                elapsed.seconds_f(), overlay_line());
}

InterpSample RemoteInterpolator::sample(EntityNetHandle entity, InterpProfile profile) const {
  InterpSample out;
  if (!clock_.placed()) return out;
  out.render_tick = profile_render_tick(profile);
  const SampleBracket b = timeline_.bracket(entity, out.render_tick);
  if (!b.from) {
    if (!b.to) return out;  // absent
    out.state = SampleState::held;  // the render time is older than the ring: its oldest sample
    out.sample = *b.to->sample;
    return out;
  }
  if (b.to) {
    const double span = static_cast<double>(b.to->tick - b.from->tick);  // > 1 across lost ticks
    const double alpha = std::clamp((out.render_tick - tick_of(b.from->tick)) / span, 0.0, 1.0);
    out.state = SampleState::interpolated;
    out.sample = blend_samples(*b.from->sample, *b.to->sample, alpha);
    return out;
  }
  if (b.leaving) {
    out.state = SampleState::held;
    out.sample = *b.from->sample;
    return out;
  }
  return past_newest(b, out.render_tick);
}

// The render time is at or past the entity's newest sample: extrapolate up to the cap, then halt.
InterpSample RemoteInterpolator::past_newest(const SampleBracket& b, double render_tick) const {
  InterpSample out;
  out.render_tick = render_tick;
  out.sample = *b.from->sample;
  const double beyond = render_tick - tick_of(b.from->tick);
  if (beyond <= 0.0) {
    out.state = SampleState::interpolated;  // exactly on the newest sample
    return out;
  }
  if (!b.previous) {
    out.state = SampleState::held;
    return out;
  }
  const double cap = settings_.extrapolation_cap_ticks();
  const double span = static_cast<double>(b.from->tick - b.previous->tick);
  out.state = beyond >= cap - kAtCapEpsilonTicks ? SampleState::halted : SampleState::extrapolated;
  out.sample = extrapolate_sample(*b.previous->sample, *b.from->sample, 1.0 + std::min(beyond, cap) / span);
  return out;
}

const std::vector<EntitySample>* RemoteInterpolator::snapshot_at_render_time() const {
  if (!clock_.placed() || timeline_.empty()) return nullptr;
  Tick t = std::min(Tick::from_value(static_cast<int64_t>(std::floor(clock_.render_tick()))), timeline_.newest());
  for (; t >= timeline_.window_start(); t -= 1) {
    if (const std::vector<EntitySample>* samples = timeline_.at(t)) return samples;
  }
  return nullptr;
}

bool RemoteInterpolator::set_settings(const InterpSettings& settings, MonoTime now) {
  if (!interp_settings_valid(settings)) return false;
  if (!same_margin_law(settings.margin_config(), settings_.margin_config())) {
    margin_ = JitterMargin(settings.margin_config(), now);
  }
  clock_.set_config(settings.clock);
  settings_ = settings;
  return true;
}

void RemoteInterpolator::reset(MonoTime now) {
  if (timeline_.config().buffer_ticks != settings_.buffer_ticks ||
      timeline_.config().max_entities_per_snapshot != settings_.max_entities_per_snapshot) {
    timeline_ = SnapshotTimeline(settings_.timeline_config());
  } else {
    timeline_.clear();
  }
  clock_.reset();
  margin_ = JitterMargin(settings_.margin_config(), now);
  counters_ = InterpCounters{};
  has_frame_ = false;
  last_frame_ = now;
  arrivals_ = 0;
  last_report_ = now;
  held_at_report_ = 0;
  snaps_at_report_ = 0;
}

std::string RemoteInterpolator::overlay_line() const {
  return format_interp_overlay(delay_ticks(), margin_.value(), counters_);
}

}  // namespace tickwire

// A deterministic stand-in for the snapshot stream a client receives: a server ticking at 60 Hz
// whose host may wake late (bursts), stall, or lose packets, seen through latency and seeded
// jitter, and a client rendering frames that checks every drawn pose against the exact motion.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <vector>

#include "tickwire/client/remote_interpolator.h"
#include "tickwire/core/rng.h"

namespace tickwire::test {

inline constexpr double kSimTickRateHz = 60.0;
inline const EntityNetHandle kWalker = EntityNetHandle::make(0, 7);   // moves, turns, toggles
inline const EntityNetHandle kSpinner = EntityNetHandle::make(0, 3);  // turns through the wrap fast

// The server's ideal time for a tick: tick x SecondsPerTick after the session's start.
inline MonoTime tick_time(int64_t tick) { return MonoTime::from_ns(tick * 1'000'000'000 / 60); }

// The exact state of an entity at any (fractional) tick: linear motion, so a lerp across any gap
// and an extrapolation within the cap both land exactly on it.
inline EntitySample truth_at(EntityNetHandle entity, double tick) {
  EntitySample s;
  s.entity = entity;
  const bool walker = entity == kWalker;
  s.position_m = {static_cast<float>(0.25 * tick), 1.0f, static_cast<float>((walker ? -0.1 : 0.05) * tick)};
  s.yaw_deg = wrap_angle_deg((walker ? 7.0 : -23.0) * tick + 170.0);
  s.pitch_deg = walker ? 10.0f : -5.0f;
  s.channel_count = walker ? 2 : 0;
  if (walker) {
    s.channels[0] = static_cast<float>(0.01 * tick);
    s.channels[1] = 0.5f;
  }
  s.bits = static_cast<uint8_t>(static_cast<int64_t>(std::floor(tick)) & 0xFF);
  return s;
}

struct Delivery {
  int64_t tick = 0;
  MonoTime at;
};

struct StreamShape {
  int64_t ticks = 600;                          // ticks the server simulates
  Duration latency = Duration::milliseconds(40);
  Duration jitter = Duration{};                 // arrival jitter, uniform in +-jitter
  Duration host_wake = Duration{};              // nonzero: the host wakes only this often (bursts)
  int64_t stall_at_tick = -1;                   // >= 0: the host stalls before simulating this tick
  Duration stall = Duration{};                  //   for this long, then sends the backlog at once
  std::function<bool(int64_t)> lost;            // ticks whose snapshot never arrives
};

// When each tick is sent: on its ideal time, at the host's next wake, or after a stall.
inline MonoTime send_time(const StreamShape& shape, int64_t tick) {
  MonoTime at = tick_time(tick);
  if (shape.host_wake.ns() > 0) {
    const int64_t wake = shape.host_wake.ns();
    at = MonoTime::from_ns((at.ns() + wake - 1) / wake * wake);
  }
  if (shape.stall_at_tick >= 0 && tick >= shape.stall_at_tick) {
    const MonoTime resume = tick_time(shape.stall_at_tick) + shape.stall;
    at = std::max(at, resume);
  }
  return at;
}

// Every delivered snapshot with its arrival time, in arrival order.
inline std::vector<Delivery> make_stream(const StreamShape& shape, Rng& rng) {
  std::vector<Delivery> out;
  for (int64_t tick = 0; tick < shape.ticks; ++tick) {
    Duration jitter;
    if (shape.jitter.ns() > 0) {
      jitter = Duration::nanoseconds(rng.between(-shape.jitter.ns(), shape.jitter.ns()));
    }
    if (shape.lost && shape.lost(tick)) continue;
    out.push_back({tick, send_time(shape, tick) + shape.latency + jitter});
  }
  std::stable_sort(out.begin(), out.end(), [](const Delivery& a, const Delivery& b) { return a.at < b.at; });
  return out;
}

// What a run saw, frame by frame and in total.
struct SimOutcome {
  uint64_t frames = 0;
  uint64_t interpolated = 0;
  uint64_t across_gaps = 0;      // interpolated frames whose next tick was never delivered
  uint64_t extrapolated = 0;
  uint64_t halted_samples = 0;
  uint64_t mismatches = 0;       // interpolated poses off the exact motion
  uint64_t rate_violations = 0;  // stepped frames (no snap, no halt) that moved outside +-5%
  double min_rate = 2.0, max_rate = 0.0;
  std::vector<double> held_newest_gap;  // per held frame: was the next tick lost? (1) or late (0)
  // After the settle time: how far the render time trails the server's own tick clock (its ideal
  // tick at now - latency), on average and at most, and the least headroom to the newest tick.
  double lag_sum_ticks = 0.0;
  double max_lag_ticks = 0.0;
  double min_headroom_ticks = 1e9;
  uint64_t settled_frames = 0;
  double mean_lag_ticks() const { return settled_frames ? lag_sum_ticks / double(settled_frames) : 0.0; }
};

struct SimRun {
  InterpSettings settings;
  Duration frame = Duration::nanoseconds(1'000'000'000 / 144);  // the client's frame time
  Duration frame_jitter = Duration{};
  Duration length = Duration::seconds(10);
  Duration settle = Duration::seconds(5);  // lag figures start here
};

inline bool close_angle(float a, float b) { return std::fabs(wrap_angle_deg(double{a} - b)) < 1e-2; }

// Position and angles only: what extrapolation continues (eye height and channels hold).
inline bool motion_matches_truth(const EntitySample& got, double render_tick) {
  const EntitySample want = truth_at(got.entity, render_tick);
  const auto near = [](float a, float b) { return std::fabs(a - b) < 1e-3f * std::max(1.0f, std::fabs(b)); };
  return near(got.position_m.x, want.position_m.x) && near(got.position_m.z, want.position_m.z) &&
         close_angle(got.yaw_deg, want.yaw_deg);
}

inline bool matches_truth(const EntitySample& got, double render_tick) {
  const EntitySample want = truth_at(got.entity, render_tick);
  const auto near = [](float a, float b) { return std::fabs(a - b) < 1e-3f * std::max(1.0f, std::fabs(b)); };
  return near(got.position_m.x, want.position_m.x) && near(got.position_m.z, want.position_m.z) &&
         close_angle(got.yaw_deg, want.yaw_deg) && near(got.channels[0], want.channels[0]) &&
         got.channel_count == want.channel_count;
}

// The tick the blend of a render time moves toward (the next held tick), whose bits it shows.
inline int64_t blend_target_tick(const SnapshotTimeline& timeline, double render_tick) {
  const int64_t floor = static_cast<int64_t>(std::floor(render_tick));
  for (int64_t t = floor + 1; t <= timeline.newest().value(); ++t) {
    if (timeline.at(Tick::from_value(t)) != nullptr) return t;
  }
  return floor;
}

inline void check_samples(const RemoteInterpolator& interp, const StreamShape& shape, SimOutcome& out) {
  for (EntityNetHandle entity : {kWalker, kSpinner}) {
    const InterpSample s = interp.sample(entity);
    switch (s.state) {
      case SampleState::interpolated: {
        ++out.interpolated;
        const int64_t next = static_cast<int64_t>(std::floor(s.render_tick)) + 1;
        if (shape.lost && shape.lost(next) && next <= interp.timeline().newest().value()) ++out.across_gaps;
        const int64_t to = blend_target_tick(interp.timeline(), s.render_tick);
        if (!matches_truth(s.sample, s.render_tick) || s.sample.bits != truth_at(entity, double(to)).bits) {
          ++out.mismatches;
        }
        break;
      }
      case SampleState::extrapolated: ++out.extrapolated; break;
      case SampleState::halted: ++out.halted_samples; break;
      case SampleState::held:
      case SampleState::absent: break;
    }
  }
}

inline void check_rate(const InterpFrame& f, double dt_ticks, double max_rate, SimOutcome& out) {
  if (!f.clock_running || f.placed || f.step.snapped || f.step.halted || dt_ticks <= 0.0) return;
  const double realised = f.step.advanced_ticks / dt_ticks;
  out.min_rate = std::min(out.min_rate, realised);
  out.max_rate = std::max(out.max_rate, realised);
  if (realised < 1.0 - max_rate - 1e-9 || realised > 1.0 + max_rate + 1e-9) ++out.rate_violations;
}

// Drives `interp` through `stream` frame by frame, checking every drawn pose and every clock step.
inline SimOutcome run_sim(RemoteInterpolator& interp, const StreamShape& shape, const std::vector<Delivery>& stream,
                          const SimRun& run, Rng& rng,
                          const std::function<void(const InterpFrame&, MonoTime)>& on_frame = {}) {
  SimOutcome out;
  MonoTime now;
  MonoTime previous;
  std::size_t next = 0;
  while (now < MonoTime{} + run.length) {
    for (; next < stream.size() && stream[next].at <= now; ++next) {
      const double tick = static_cast<double>(stream[next].tick);
      const EntitySample samples[] = {truth_at(kWalker, tick), truth_at(kSpinner, tick)};
      interp.on_snapshot(Tick::from_value(stream[next].tick), samples);
    }
    const InterpFrame f = interp.frame(now);
    ++out.frames;
    check_rate(f, (now - previous).seconds_f() * kSimTickRateHz, interp.settings().clock.max_rate, out);
    if (f.step.held) {
      const int64_t missing = interp.timeline().newest().value() + 1;
      out.held_newest_gap.push_back(shape.lost && shape.lost(missing) ? 1.0 : 0.0);
    }
    if (f.clock_running) check_samples(interp, shape, out);
    if (f.clock_running && now >= MonoTime{} + run.settle) {
      const double server_tick = (now - shape.latency).seconds_f() * kSimTickRateHz;
      const double lag = server_tick - f.render_tick;
      out.lag_sum_ticks += lag;
      out.max_lag_ticks = std::max(out.max_lag_ticks, lag);
      out.min_headroom_ticks =
          std::min(out.min_headroom_ticks, double(interp.timeline().newest().value()) - f.render_tick);
      ++out.settled_frames;
    }
    if (on_frame) on_frame(f, now);
    previous = now;
    Duration step = run.frame;
    if (run.frame_jitter.ns() > 0) step += Duration::nanoseconds(rng.between(-run.frame_jitter.ns(), run.frame_jitter.ns()));
    now += step;
  }
  return out;
}

}  // namespace tickwire::test

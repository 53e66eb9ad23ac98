// The room clock's arithmetic: due times by multiplication from the origin, elapsed slots by a
// floor with epsilon, and the catch-up / overload bookkeeping that keeps the accounting identity.
#include "tickwire/clock/room_clock.h"

#include <algorithm>
#include <cmath>

#include "tickwire/core/assert.h"

namespace tickwire {

RoomClock::RoomClock(const RoomClockConfig& config) : config_(config), period_ns_(1e9 / config.tick_rate_hz) {
  TW_ASSERT(std::isfinite(config.tick_rate_hz) && config.tick_rate_hz > 0.0, "tick rate must be positive");
  TW_ASSERT(config.tick_rate_hz <= kRoomClockMaxTickRateHz, "tick rate above the room clock's maximum");
  TW_ASSERT(config.max_catch_up_ticks >= 1, "a room clock must be allowed to run at least one tick per call");
  TW_ASSERT(config.overload_threshold_ticks >= 2, "the overload threshold must leave room for a backlog");
}

MonoTime RoomClock::due_time(Tick tick) const {
  TW_ASSERT(tick.value() >= 0, "ticks before the origin have no due time");
  const double offset_ns = static_cast<double>(tick.value()) * period_ns_;
  return config_.origin + Duration::nanoseconds(std::llround(offset_ns));
}

int64_t RoomClock::ideal_ticks(MonoTime now) const {
  const int64_t elapsed_ns = (now - config_.origin).ns();
  if (elapsed_ns <= 0) return 0;
  const double slots = static_cast<double>(elapsed_ns) / period_ns_;
  return static_cast<int64_t>(std::floor(slots + kRoomClockSlotEpsilon));
}

ClockPlan RoomClock::advance(MonoTime now) {
  ideal_seen_ = std::max(ideal_seen_, ideal_ticks(now));
  const int64_t processed = executed_ + declared_;
  const int64_t backlog = ideal_seen_ - processed;
  ClockPlan plan;
  plan.first_tick = Tick::from_value(processed + 1);
  if (backlog <= 0) return plan;

  if (backlog >= static_cast<int64_t>(config_.overload_threshold_ticks)) {
    // Too far behind to recover: run only the newest slot and declare the rest, out loud.
    plan.declared = backlog - 1;
    plan.first_tick = Tick::from_value(ideal_seen_);
    plan.steps = 1;
    declared_ += plan.declared;
    ++discontinuities_;
    last_discontinuity_ = Discontinuity{Tick::from_value(processed + 1), plan.declared, now};
  } else {
    plan.steps = static_cast<uint32_t>(std::min<int64_t>(backlog, config_.max_catch_up_ticks));
  }
  executed_ += plan.steps;
  last_executed_ = plan.last_tick();
  return plan;
}

ClockAccount RoomClock::account(MonoTime now) const {
  ClockAccount account;
  account.ideal = std::max(ideal_seen_, ideal_ticks(now));
  account.executed = executed_;
  account.declared = declared_;
  account.behind = account.ideal - executed_ - declared_;
  return account;
}

void RoomClock::resume_after(Tick last) {
  TW_ASSERT(executed_ == 0 && declared_ == 0, "a clock resumes only before it has run a tick");
  TW_ASSERT(reaches(last), "a resumed tick's time from tick 0 fits the clock's nanoseconds");
  config_.origin = config_.origin - Duration::nanoseconds(std::llround(static_cast<double>(last.value()) * period_ns_));
  executed_ = last.value();
  ideal_seen_ = std::max(ideal_seen_, executed_);
  last_executed_ = last;
}

}  // namespace tickwire

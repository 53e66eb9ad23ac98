// The door's travel: an input sets where it heads and asks for a wake next tick; each wake moves
// the fraction one step, writes it, fires the end-of-travel output on arrival, and only then states
// the rate for the next tick (so wiring that turns it around is already in channel 1).
#include "tickwire/world/door_behaviour.h"

#include <algorithm>
#include <cmath>

#include "tickwire/core/assert.h"
#include "tickwire/core/byte_record.h"
#include "tickwire/logic/logic_context.h"

namespace tickwire::world {
namespace {
// Relative to a step: the tick length is whole nanoseconds (1/60 s is 16,666,666 ns), so a step
// falls short of the exact fraction by parts in 10^8, which many steps add up; a thousandth of a step
// absorbs that on any slide the map allows without arriving visibly early.
constexpr double kArrivalSlack = 1e-3;
}  // namespace

double door_step_per_tick(double speed_mps, double distance_m, double seconds_per_tick) {
  TW_ASSERT(speed_mps > 0 && distance_m > 0 && seconds_per_tick >= 0, "a door moves forward over some distance");
  return std::clamp(speed_mps * seconds_per_tick / distance_m, 0.0, 1.0);
}

DoorBehaviour::DoorBehaviour(const DoorSettings& settings)
    : settings_(settings), fraction_(std::clamp(settings.start_fraction, 0.0, 1.0)), target_(fraction_) {
  TW_ASSERT(std::isfinite(settings.step_per_tick) && settings.step_per_tick >= 0, "a door's step is a number");
}

LogicInputResult DoorBehaviour::input(std::string_view name, const LogicSignal&, LogicContext& context) {
  if (name == kOpen) {
    head_for(1, context);
  } else if (name == kClose) {
    head_for(0, context);
  } else if (name == kToggle) {
    head_for(target_ >= 1 ? 0 : 1, context);
  } else {
    return LogicInputResult::not_an_input;
  }
  return LogicInputResult::handled;
}

void DoorBehaviour::head_for(double target, LogicContext& context) {
  if (target == target_) return;
  target_ = target;
  keep_moving(context);
  rate_ = next_delta(context);
  context.state_changed();
}

void DoorBehaviour::keep_moving(LogicContext& context) {
  if (!moving() || wake_pending_) return;
  // A full queue refuses the wake (counted by the runtime): the door then stands where it is.
  wake_pending_ = context.wake_after(Duration{}, kMove);
  if (!wake_pending_) target_ = fraction_;
}

double DoorBehaviour::next_delta(const LogicContext& context) const {
  // What remains within a rounding of one step is taken whole: a one-second slide at 60 Hz arrives
  // in sixty ticks, not sixty and a sliver. A paused world (scale 0) moves nothing.
  const double step = settings_.step_per_tick * context.time_scale();
  const double remaining = target_ - fraction_;
  if (std::fabs(remaining) <= step * (1 + kArrivalSlack)) return remaining;
  return remaining > 0 ? step : -step;
}

void DoorBehaviour::woken(uint32_t tag, LogicContext& context) {
  if (tag != kMove) return;
  wake_pending_ = false;
  if (!moving()) return;
  fraction_ += next_delta(context);  // the last step is exactly what remains, so arrival is exact
  context.state_changed();    // the new fraction; the rate still the one this step used
  if (!moving()) context.fire(target_ >= 1 ? kOnOpened : kOnClosed);
  // After the end-of-travel output: its wiring may have sent the door back.
  keep_moving(context);
  rate_ = next_delta(context);
  context.state_changed();
}

void DoorBehaviour::save(ByteRecordWriter& write) const {
  write.f64(fraction_);
  write.f64(target_);
  write.f64(rate_);
  write.flag(wake_pending_);
}

bool DoorBehaviour::restore(ByteRecordReader& read, const LogicLimits&) {
  const double fraction = read.f64(), target = read.f64(), rate = read.f64();
  const bool wake_pending = read.flag();
  const auto unit = [](double v) { return v >= 0 && v <= 1; };  // false for NaN
  if (!read.ok() || !unit(fraction) || !unit(target) || !(std::fabs(rate) <= 1)) return false;
  fraction_ = fraction;
  target_ = target;
  rate_ = rate;
  wake_pending_ = wake_pending;
  return true;
}

void DoorBehaviour::write_state(ObjectComponent& component) const {
  if (component.channel_count > kFractionChannel) component.channels[kFractionChannel] = static_cast<float>(fraction_);
  if (component.channel_count > kRateChannel) component.channels[kRateChannel] = static_cast<float>(rate_);
}

}  // namespace tickwire::world

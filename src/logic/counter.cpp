// The counter's inputs move its value inside [min, max]; its outputs are the change and the two
// edges onto a bound.
#include "tickwire/logic/counter.h"

#include <algorithm>
#include <cmath>

#include "tickwire/core/assert.h"
#include "tickwire/logic/logic_context.h"

namespace tickwire {

LogicCounter::LogicCounter(const LogicCounterSettings& settings) : settings_(settings) {
  TW_ASSERT(std::isfinite(settings.min) && std::isfinite(settings.max) && settings.min <= settings.max,
            "a counter's bounds are finite and ordered");
  TW_ASSERT(std::isfinite(settings.start), "a counter starts at a number");
  value_ = std::clamp(settings.start, settings.min, settings.max);
  at_max_.set(value_ >= settings_.max);
  at_min_.set(value_ <= settings_.min);
}

void LogicCounter::retune(const LogicCounterSettings& settings) {
  if (!std::isfinite(settings.min) || !std::isfinite(settings.max) || settings.min > settings.max) return;
  settings_.min = settings.min;
  settings_.max = settings.max;
}

LogicInputResult LogicCounter::input(std::string_view name, const LogicSignal& signal, LogicContext& context) {
  const bool is_add = name == kAdd;
  if (!is_add && name != kSubtract && name != kSet) return LogicInputResult::not_an_input;
  if (signal.parameter && !std::isfinite(*signal.parameter)) return LogicInputResult::bad_parameter;
  if (name == kSet) {
    if (!signal.parameter) return LogicInputResult::bad_parameter;
    change_to(*signal.parameter, context);
  } else {
    const double amount = signal.parameter.value_or(1.0);
    change_to(is_add ? value_ + amount : value_ - amount, context);
  }
  return LogicInputResult::handled;
}

void LogicCounter::save(ByteRecordWriter& write) const {
  write.f64(value_);
  at_max_.save(write);
  at_min_.save(write);
}

bool LogicCounter::restore(ByteRecordReader& read, const LogicLimits&) {
  const double value = read.f64();
  BooleanLevel at_max, at_min;
  const bool levels = at_max.restore(read) && at_min.restore(read);
  if (!levels || !std::isfinite(value)) return false;
  value_ = value;
  at_max_ = at_max;
  at_min_ = at_min;
  return true;
}

void LogicCounter::change_to(double value, LogicContext& context) {
  const double clamped = std::clamp(value, settings_.min, settings_.max);
  if (clamped == value_) return;
  value_ = clamped;
  context.fire(kOnChanged);
  if (at_max_.set(value_ >= settings_.max) && at_max_.value()) context.fire(kOnHitMax);
  if (at_min_.set(value_ <= settings_.min) && at_min_.value()) context.fire(kOnHitMin);
}

}  // namespace tickwire

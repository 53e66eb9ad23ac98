// The timer's beat: armed as a wake of one interval; on a beat it fires onTimer, then re-arms while
// it refires and is still running (the beat's own wiring may have stopped it).
#include "tickwire/logic/timer.h"

#include <cmath>

#include "tickwire/logic/logic_context.h"

namespace tickwire {

LogicInputResult LogicTimer::input(std::string_view name, const LogicSignal& signal, LogicContext& context) {
  if (name == kStart) {
    start(context);
  } else if (name == kStop) {
    stop(context);
  } else if (name == kToggle) {
    if (running_.value()) {
      stop(context);
    } else {
      start(context);
    }
  } else if (name == kSetInterval) {
    if (!signal.parameter || !std::isfinite(*signal.parameter) || *signal.parameter < 0 ||
        *signal.parameter > context.max_delay().seconds_f()) {
      return LogicInputResult::bad_parameter;
    }
    settings_.interval = Duration::from_seconds(*signal.parameter);
  } else {
    return LogicInputResult::not_an_input;
  }
  return LogicInputResult::handled;
}

void LogicTimer::loaded(LogicContext& context) {
  if (settings_.start_on) start(context);
}

void LogicTimer::woken(uint32_t tag, LogicContext& context) {
  if (tag != kBeat || !running_.value()) return;
  if (!settings_.refire) running_.set(false);
  context.fire(kOnTimer);
  if (settings_.refire && running_.value()) arm(context);
}

void LogicTimer::save(ByteRecordWriter& write) const {
  running_.save(write);
  write.i64(settings_.interval.ns());
  write.flag(settings_.refire);
}

bool LogicTimer::restore(ByteRecordReader& read, const LogicLimits& limits) {
  BooleanLevel running;
  const bool read_running = running.restore(read);
  const Duration interval = Duration::nanoseconds(read.i64());
  const bool refire = read.flag();
  if (!read_running || !read.ok() || interval.ns() < 0 || interval > limits.max_delay) return false;
  running_ = running;
  settings_.interval = interval;
  settings_.refire = refire;
  return true;
}

void LogicTimer::start(LogicContext& context) {
  if (running_.set(true)) arm(context);
}

void LogicTimer::stop(LogicContext& context) {
  if (running_.set(false)) context.cancel_wakes(kBeat);
}

void LogicTimer::arm(LogicContext& context) {
  // A full queue refuses the beat (the runtime counts it): the timer then stands stopped rather than
  // claiming to run with no beat coming.
  if (!context.wake_after(settings_.interval, kBeat)) running_.set(false);
}

}  // namespace tickwire

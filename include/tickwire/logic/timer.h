// The timer: once started, fires onTimer after its interval of game time, and again every interval
// while it refires, until stopped. Its beats ride the runtime's scheduled queue as wakes, so they
// follow the world time scale like any delay, carry the activator of the start that began them, and
// vanish with the node when it is unloaded.
#pragma once

#include <string_view>

#include "tickwire/clock/time.h"
#include "tickwire/logic/behaviour.h"
#include "tickwire/logic/boolean_level.h"

namespace tickwire {

struct LogicTimerSettings {
  Duration interval = Duration::seconds(1);  // game time between start and a beat, and between beats
  bool refire = true;                        // false: one beat, then the timer stops
  bool start_on = false;                     // running from load (no activator)
};

class LogicTimer final : public LogicBehaviour {
 public:
  static constexpr std::string_view kStart = "start";  // a start while running keeps the beat it has
  static constexpr std::string_view kStop = "stop";
  static constexpr std::string_view kToggle = "toggle";
  static constexpr std::string_view kSetInterval = "setInterval";  // seconds; from the next beat armed
  static constexpr std::string_view kOnTimer = "onTimer";

  explicit LogicTimer(const LogicTimerSettings& settings = {}) : settings_(settings) {}
  // Retuned (a scene edit): the interval and refire from the next beat, as setInterval does; whether
  // it starts on was the load's.
  void retune(const LogicTimerSettings& settings) {
    settings_.interval = settings.interval;
    settings_.refire = settings.refire;
  }

  std::string_view kind() const override { return "timer"; }
  LogicInputResult input(std::string_view name, const LogicSignal& signal, LogicContext& context) override;
  void woken(uint32_t tag, LogicContext& context) override;
  void loaded(LogicContext& context) override;
  // Whether it runs, and the interval and refire it runs with (a setInterval changes them live).
  void save(ByteRecordWriter& write) const override;
  bool restore(ByteRecordReader& read, const LogicLimits& limits) override;

  bool running() const { return running_.value(); }
  Duration interval() const { return settings_.interval; }

 private:
  static constexpr uint32_t kBeat = 0;  // the wake tag of the next beat
  void start(LogicContext& context);
  void stop(LogicContext& context);
  void arm(LogicContext& context);

  LogicTimerSettings settings_;
  BooleanLevel running_;
};

}  // namespace tickwire

// The logic tests' rig: a host that records everything the runtime tells it, a probe behaviour that
// records every input it receives (and fires "<input>Done" after it, so chains can be wired through
// it), and a runtime on a fixed tick that the test advances and whose tick the probes stamp.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tickwire/logic/logic_runtime.h"

namespace tickwire::test {

struct RecordingHost : ILogicHost {
  bool tracing() const override { return true; }
  void trace(std::string_view line) override { traces.emplace_back(line); }
  void output_fired(LogicNodeId node, std::string_view output, LogicActivator activator) override {
    fired.push_back({node, std::string(output), activator});
    if (on_output_fired) on_output_fired(node, output);
  }
  void state_changed(LogicNodeId node, std::size_t behaviour_index) override {
    state_changes.emplace_back(node, behaviour_index);
  }
  bool deliver_to_host(const LogicHostCall& call) override {
    host_calls.emplace_back(std::string(call.target) + "." + std::string(call.input));
    return take_host_call ? take_host_call(call) : false;
  }

  struct Fired {
    LogicNodeId node;
    std::string output;
    LogicActivator activator;
  };
  std::vector<std::string> traces;
  std::vector<Fired> fired;
  std::vector<std::pair<LogicNodeId, std::size_t>> state_changes;
  std::vector<std::string> host_calls;
  std::function<bool(const LogicHostCall&)> take_host_call;
  std::function<void(LogicNodeId, std::string_view)> on_output_fired;
};

struct Received {
  std::string node;
  std::string input;  // "woken:<tag>" for a wake
  LogicActivator activator;
  std::optional<double> parameter;
  int64_t tick = 0;
};

struct ProbeLog {
  std::vector<Received> received;
  int64_t tick = 0;  // the tick the rig last advanced to
};

// Takes every input, records it, then fires "<input>Done".
class Probe final : public LogicBehaviour {
 public:
  Probe(std::string name, ProbeLog& log) : name_(std::move(name)), log_(log) {}
  std::string_view kind() const override { return "probe"; }
  LogicInputResult input(std::string_view name, const LogicSignal& signal, LogicContext& context) override {
    log_.received.push_back({name_, std::string(name), signal.activator, signal.parameter, log_.tick});
    context.fire(std::string(name) + "Done");
    return LogicInputResult::handled;
  }
  void woken(uint32_t tag, LogicContext& context) override {
    log_.received.push_back({name_, "woken:" + std::to_string(tag), context.activator(), std::nullopt, log_.tick});
  }

 private:
  std::string name_;
  ProbeLog& log_;
};

inline LogicSettings rig_settings(Duration tick_length = Duration::milliseconds(50), double time_scale = 1.0) {
  LogicSettings settings;
  settings.tick_length = tick_length;
  settings.time_scale = time_scale;
  return settings;
}

class LogicRig {
 public:
  explicit LogicRig(const LogicSettings& settings = rig_settings()) : runtime(settings, host) {}

  // Loads node `id` named `name` with `wires` and the given behaviours.
  LogicLoad node(uint32_t id, std::string name, std::vector<LogicWire> wires, LogicBehaviours behaviours = {}) {
    return runtime.load(LogicNodeSpec{LogicNodeId{id}, std::move(name), std::move(wires)}, std::move(behaviours));
  }
  // Loads node `id` named `name` whose one behaviour is a probe.
  LogicLoad probe(uint32_t id, std::string name, std::vector<LogicWire> wires = {}) {
    LogicBehaviours behaviours;
    behaviours.push_back(std::make_unique<Probe>(name, log));
    return node(id, std::move(name), std::move(wires), std::move(behaviours));
  }

  // Advances `ticks` ticks.
  void step(int64_t ticks = 1) {
    for (int64_t i = 0; i < ticks; ++i) {
      ++log.tick;
      runtime.advance(Tick::from_value(log.tick));
    }
  }
  // Advances until a probe has received something new; the number of ticks it took (or -1 past `limit`).
  int64_t ticks_until_received(int64_t limit = 10000) {
    const std::size_t before = log.received.size();
    for (int64_t ticks = 1; ticks <= limit; ++ticks) {
      step();
      if (log.received.size() > before) return ticks;
    }
    return -1;
  }

  RecordingHost host;
  ProbeLog log;
  LogicRuntime runtime;
};

template <class... Behaviours>
LogicBehaviours behaviours_of(std::unique_ptr<Behaviours>... behaviours) {
  LogicBehaviours list;
  (list.push_back(std::move(behaviours)), ...);
  return list;
}

inline LogicWire wire(std::string output, std::vector<LogicAction> actions) {
  return LogicWire{std::move(output), std::move(actions)};
}

inline LogicNodeId id(uint32_t value) { return LogicNodeId{value}; }

}  // namespace tickwire::test

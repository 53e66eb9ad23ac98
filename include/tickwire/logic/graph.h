// A logic node as authored: its id, the name calls address it by, and its named outputs, each wired
// to an ordered action list of calls and blocking delays. Data only, so a map loader can build it
// and a test can compare it; the behaviours that give the node its inputs are built by the host and
// handed to LogicRuntime::load beside it.
#pragma once

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "tickwire/clock/time.h"
#include "tickwire/logic/node_id.h"

namespace tickwire {

// Delivers `input` (with an optional number: a counter's amount, a timer's interval) to every loaded
// node named `target`.
struct LogicCall {
  std::string target;
  std::string input;
  std::optional<double> parameter;
  bool operator==(const LogicCall&) const = default;
};

// Blocks the rest of the list for this much game time (see LogicClock for how it becomes ticks).
struct LogicDelay {
  Duration game_time;
  bool operator==(const LogicDelay&) const = default;
};

using LogicAction = std::variant<LogicCall, LogicDelay>;

// One output's wiring: when the node fires `output`, its actions run in order.
struct LogicWire {
  std::string output;
  std::vector<LogicAction> actions;
  bool operator==(const LogicWire&) const = default;
};

struct LogicNodeSpec {
  LogicNodeId id;
  std::string name;  // empty: the node fires outputs but no call can address it
  std::vector<LogicWire> wires;
  bool operator==(const LogicNodeSpec&) const = default;
};

inline LogicAction logic_call(std::string target, std::string input, std::optional<double> parameter = std::nullopt) {
  return LogicCall{std::move(target), std::move(input), parameter};
}
inline LogicAction logic_delay(Duration game_time) { return LogicDelay{game_time}; }

}  // namespace tickwire

// The wiring a scene edit writes (seed 000, "Scene edits"): an object's named output and the whole
// ordered list of actions it runs when it fires (calls, each delivering an input with an optional
// number to every object of a key, and blocking delays), as an edit request states it (a new list,
// or a revert to what the map wires) and as the state message keeps it (the list that stands). An
// empty list unwires the output. The shapes mirror the map's outputs (docs/map-format.md, "Logic"),
// so what an editor wires is what a map could have authored, and the same checks judge it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "tickwire/protocol/edit_value.h"
#include "tickwire/wire/describe_walker.h"
#include "tickwire/wire/types.h"

namespace tickwire::protocol {

inline constexpr std::size_t kMaxWiringNameBytes = 64;  // an output, a target key, an input (the map's names)
inline constexpr std::size_t kMaxWiringActions = 32;    // one output's list (the map's kMaxOutputActions)
inline constexpr std::size_t kMaxWiredOutputs = 16;     // rewired outputs standing on one object (kMaxObjectOutputs)
inline constexpr std::size_t kMaxGestureWiringEdits = 16;

// A call: `input` (with an optional number: a counter's amount) to every object whose key is `target`.
struct WiringCall {
  static constexpr std::string_view wire_name = "WiringCall";
  std::string target;
  std::string input;
  std::optional<EditNumber> parameter;
  friend bool operator==(const WiringCall&, const WiringCall&) = default;
  template <class W>
  void fields(W& w) {
    w.str8("target", target, kMaxWiringNameBytes);
    w.str8("input", input, kMaxWiringNameBytes);
    w.optional("parameter", parameter);
  }
};

// A delay: the rest of the list waits this many game seconds.
struct WiringDelay {
  static constexpr std::string_view wire_name = "WiringDelay";
  float seconds = 0;
  friend bool operator==(const WiringDelay&, const WiringDelay&) = default;
  template <class W>
  void fields(W& w) {
    w.f32("seconds", seconds);
  }
};

inline constexpr wire::UnionCase kWiringActionCases[] = {{1, "call"}, {2, "delay"}};
inline constexpr wire::UnionDef kWiringActionDef{"WiringActionForm", kWiringActionCases};

struct WiringAction {
  static constexpr std::string_view wire_name = "WiringAction";
  std::variant<WiringCall, WiringDelay> form;
  friend bool operator==(const WiringAction&, const WiringAction&) = default;
  template <class W>
  void fields(W& w) {
    w.variant("form", form, kWiringActionDef);
  }
};

// A wiring edit: the output `output` of an object runs `actions` from now on (an empty list: it runs
// nothing), or, reverted, what the object's map wires it to again.
enum class WiringOp : uint8_t { set = 1, revert = 2 };
inline constexpr wire::NamedValue kWiringOpMembers[] = {{"set", 1}, {"revert", 2}};
inline constexpr wire::EnumDef kWiringOpDef{"WiringOp", kWiringOpMembers};

struct WiringEdit {
  static constexpr std::string_view wire_name = "WiringEdit";
  uint32_t object = 0;
  std::string output;
  WiringOp op = WiringOp::set;
  std::vector<WiringAction> actions;  // set only
  friend bool operator==(const WiringEdit&, const WiringEdit&) = default;
  template <class W>
  void fields(W& w) {
    w.varu32("object", object);
    w.str8("output", output, kMaxWiringNameBytes);
    w.enum8("op", op, kWiringOpDef);
    w.list8("actions", actions, 0, kMaxWiringActions);
  }
};

// A rewired output that stands: its whole list (empty: unwired).
struct OutputState {
  static constexpr std::string_view wire_name = "OutputState";
  std::string output;
  std::vector<WiringAction> actions;
  friend bool operator==(const OutputState&, const OutputState&) = default;
  template <class W>
  void fields(W& w) {
    w.str8("output", output, kMaxWiringNameBytes);
    w.list8("actions", actions, 0, kMaxWiringActions);
  }
};

inline WiringAction wiring_call(std::string target, std::string input, std::optional<float> parameter = std::nullopt) {
  WiringCall call{std::move(target), std::move(input), std::nullopt};
  if (parameter) call.parameter = EditNumber{*parameter};
  return WiringAction{std::move(call)};
}
inline WiringAction wiring_delay(float seconds) { return WiringAction{WiringDelay{seconds}}; }

}  // namespace tickwire::protocol

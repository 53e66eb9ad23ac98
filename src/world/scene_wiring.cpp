// Wiring edits: the rule an output's new list meets, and the outputs an object's rewiring leaves it.
#include "tickwire/world/scene_wiring.h"

#include <algorithm>
#include <string>

#include "map_validate.h"
#include "tickwire/world/logic_components.h"
#include "tickwire/world/map_limits.h"

namespace tickwire::world {

static_assert(protocol::kMaxWiringNameBytes == kMaxMapStringBytes, "a wiring edit names what a map may name");
static_assert(protocol::kMaxWiringActions == kMaxOutputActions, "an edited list is as long as a map's may be");
static_assert(protocol::kMaxWiredOutputs == kMaxObjectOutputs, "an object wires as many outputs as a map gives it");

using protocol::EditRefusal;

MapAction map_action(const protocol::WiringAction& action) {
  if (const auto* delay = std::get_if<protocol::WiringDelay>(&action.form)) return MapDelay{delay->seconds};
  const auto& call = std::get<protocol::WiringCall>(action.form);
  std::optional<float> parameter;
  if (call.parameter) parameter = call.parameter->value;
  return MapCall{call.target, call.input, parameter};
}

std::vector<protocol::WiringAction> wiring_actions(std::span<const MapAction> actions) {
  std::vector<protocol::WiringAction> out;
  out.reserve(actions.size());
  for (const MapAction& action : actions) {
    if (const auto* delay = std::get_if<MapDelay>(&action)) {
      out.push_back(protocol::wiring_delay(delay->seconds));
    } else {
      const MapCall& call = std::get<MapCall>(action);
      out.push_back(protocol::wiring_call(call.target, call.input, call.parameter));
    }
  }
  return out;
}

namespace {

const protocol::OutputState* standing_output(std::span<const protocol::OutputState> standing, std::string_view output) {
  for (const protocol::OutputState& s : standing)
    if (s.output == output) return &s;
  return nullptr;
}

// How many outputs the object wires once `output` is wired too.
std::size_t outputs_with(const MapObject& authored, std::span<const protocol::OutputState> standing, std::string_view output) {
  std::vector<std::string_view> names;
  for (const MapOutput& o : authored.outputs) names.push_back(o.name);
  for (const protocol::OutputState& s : standing) names.push_back(s.output);
  names.push_back(output);
  std::sort(names.begin(), names.end());
  return static_cast<std::size_t>(std::unique(names.begin(), names.end()) - names.begin());
}

}  // namespace

std::optional<EditRefusal> check_wiring(const MapObject& authored, std::span<const protocol::OutputState> standing,
                                        const protocol::WiringEdit& edit, const ObjectNamed& named) {
  if (!runs_logic(authored)) return EditRefusal::not_logic;
  if (detail::check_identifier(edit.output, "output")) return EditRefusal::bad_action;
  if (edit.op == protocol::WiringOp::revert)
    return standing_output(standing, edit.output) != nullptr ? std::nullopt : std::optional(EditRefusal::not_edited);
  if (edit.actions.size() > kMaxOutputActions) return EditRefusal::bad_action;
  for (const protocol::WiringAction& action : edit.actions) {
    const MapAction as_map = map_action(action);
    if (detail::check_action(as_map, "action")) return EditRefusal::bad_action;
    if (const auto* call = std::get_if<MapCall>(&as_map); call != nullptr && (!named || !named(call->target)))
      return EditRefusal::unknown_target;
  }
  if (outputs_with(authored, standing, edit.output) > kMaxObjectOutputs) return EditRefusal::too_many_outputs;
  return std::nullopt;
}

std::vector<MapOutput> wired_outputs(std::span<const MapOutput> authored, std::span<const protocol::OutputState> standing) {
  std::vector<MapOutput> out;
  for (const MapOutput& o : authored)
    if (standing_output(standing, o.name) == nullptr) out.push_back(o);
  for (const protocol::OutputState& s : standing) {
    if (s.actions.empty()) continue;
    MapOutput rewired{s.output, {}};
    for (const protocol::WiringAction& action : s.actions) rewired.actions.push_back(map_action(action));
    out.push_back(std::move(rewired));
  }
  std::sort(out.begin(), out.end(), [](const MapOutput& a, const MapOutput& b) { return a.name < b.name; });
  return out;
}

}  // namespace tickwire::world

// The map's logic, bound to the reference game's objects: nodes built from the map (one behaviour
// per logic component, wiring from the outputs), touches checked against pawns' feet each tick, Use
// routed in, visible state written back into the object's component.
#include "tickwire/world/map_logic_host.h"

#include <algorithm>

#include <spdlog/spdlog.h>

#include "tickwire/core/assert.h"
#include "tickwire/logic/counter.h"
#include "tickwire/logic/gate.h"
#include "tickwire/logic/relay.h"
#include "tickwire/logic/timer.h"
#include "tickwire/world/button_behaviour.h"
#include "tickwire/world/door_behaviour.h"
#include "tickwire/world/light_behaviour.h"
#include "tickwire/world/logic_components.h"
#include "tickwire/world/touch_behaviour.h"

namespace tickwire::world {

struct MapLogicHost::Node {
  uint32_t object = 0;
  Vec3 position;
  std::vector<std::size_t> components;    // behaviour i belongs to component components[i]
  std::vector<ObjectBehaviour*> visible;  // behaviour i as an ObjectBehaviour, or null (relay...)
  TouchBehaviour* touch = nullptr;        // the node's touch volume (owned by the runtime)
  std::string_view use_input;             // what a Use delivers; empty: not interactive
  std::vector<uint64_t> inside;           // pawns in the touch volume, by ref
};

namespace {

Duration seconds(float s) { return Duration::from_seconds(static_cast<double>(s)); }

LogicNodeSpec node_spec(uint32_t object_index, const MapObject& object) {
  LogicNodeSpec spec{LogicNodeId{object_index}, object.key, {}};
  spec.wires.reserve(object.outputs.size());
  for (const MapOutput& output : object.outputs) {
    LogicWire wire{output.name, {}};
    wire.actions.reserve(output.actions.size());
    for (const MapAction& action : output.actions) {
      if (const auto* delay = std::get_if<MapDelay>(&action)) {
        wire.actions.push_back(logic_delay(seconds(delay->seconds)));
      } else {
        const MapCall& call = std::get<MapCall>(action);
        std::optional<double> parameter;
        if (call.parameter) parameter = static_cast<double>(*call.parameter);
        wire.actions.push_back(logic_call(call.target, call.input, parameter));
      }
    }
    spec.wires.push_back(std::move(wire));
  }
  return spec;
}

Vec3 vec3_setting(const ObjectComponent& component, std::string_view name) {
  const auto v = setting_values(component, name);
  return {v[0], v[1], v[2]};
}

// The behaviour of one logic component, from its settings and its authored state.
std::unique_ptr<LogicBehaviour> make_behaviour(const ObjectComponent& c, double seconds_per_tick) {
  const std::string_view name = c.name;
  if (name == "mover") {
    DoorSettings door;
    door.step_per_tick = door_step_per_tick(setting_number(c, "speed_mps"), setting_number(c, "distance_m"),
                                            seconds_per_tick);
    door.start_fraction = c.channel_count > 0 ? c.channels[0] : 0.0f;
    door.usable = setting_flag(c, "usable");
    return std::make_unique<DoorBehaviour>(door);
  }
  if (name == "button")
    return std::make_unique<ButtonBehaviour>(
        ButtonSettings{seconds(setting_number(c, "reset_s")), (c.bits & ButtonBehaviour::kPressedBit) != 0});
  if (name == "light") return std::make_unique<LightBehaviour>((c.bits & LightBehaviour::kOnBit) != 0);
  if (name == "plate" || name == "trigger")
    return std::make_unique<TouchBehaviour>(TouchSettings{vec3_setting(c, "half_extents"), name == "plate"});
  if (name == "relay") return std::make_unique<LogicRelay>(LogicRelaySettings{setting_flag(c, "start_disabled")});
  if (name == "timer")
    return std::make_unique<LogicTimer>(LogicTimerSettings{seconds(setting_number(c, "interval_s")),
                                                           setting_flag(c, "refire"), setting_flag(c, "start_on")});
  if (name == "counter")
    return std::make_unique<LogicCounter>(LogicCounterSettings{setting_number(c, "min"), setting_number(c, "max"),
                                                               setting_number(c, "start")});
  if (name == "gate") return std::make_unique<LogicGate>(LogicGateSettings{setting_flag(c, "initial")});
  TW_ASSERT(logic_component_spec(name) == nullptr, "every logic component of the table makes a behaviour");
  return nullptr;
}

}  // namespace

MapLogicHost::MapLogicHost(const Map& map, const MapObjectTable& table, const LogicSettings& settings,
                           ComponentState state)
    : map_(map), state_(std::move(state)), runtime_(std::make_unique<LogicRuntime>(settings, *this)) {
  node_by_object_.assign(table.size(), -1);
  for (uint32_t index = 0; index < table.size(); ++index) {
    const std::optional<uint32_t> at = map.object_index(table.key_of(index));
    TW_ASSERT(at.has_value(), "the object table names a key the map does not hold");
    load(index, map.objects()[*at]);
  }
}

MapLogicHost::~MapLogicHost() = default;

std::size_t MapLogicHost::logic_objects() const { return nodes_.size(); }

void MapLogicHost::load(uint32_t object_index, const MapObject& object) {
  const double seconds_per_tick = runtime_->clock().step().seconds_f();
  Node node;
  node.object = object_index;
  node.position = object.position;
  LogicBehaviours behaviours;
  for (std::size_t k = 0; k < object.components.size(); ++k) {
    std::unique_ptr<LogicBehaviour> behaviour = make_behaviour(object.components[k], seconds_per_tick);
    if (!behaviour) continue;
    auto* visible = dynamic_cast<ObjectBehaviour*>(behaviour.get());
    if (visible != nullptr && node.use_input.empty()) node.use_input = visible->use_input();
    if (auto* touch = dynamic_cast<TouchBehaviour*>(behaviour.get()); touch != nullptr && node.touch == nullptr)
      node.touch = touch;
    node.components.push_back(k);
    node.visible.push_back(visible);
    behaviours.push_back(std::move(behaviour));
  }
  if (behaviours.empty() && object.outputs.empty()) return;
  // Placed before the load: a behaviour that starts on (a timer) may fire from inside it.
  node_by_object_[object_index] = static_cast<int32_t>(nodes_.size());
  nodes_.push_back(std::move(node));
  if (runtime_->load(node_spec(object_index, object), std::move(behaviours)) != LogicLoad::loaded) {
    nodes_.pop_back();  // refused whole (counted by the runtime's loads())
    node_by_object_[object_index] = -1;
    return;
  }
  if (!nodes_.back().use_input.empty()) usable_.push_back(object_index);
  if (nodes_.back().touch != nullptr) touch_nodes_.push_back(static_cast<uint32_t>(nodes_.size() - 1));
}

MapLogicHost::Node* MapLogicHost::node_of(uint32_t object_index) {
  if (object_index >= node_by_object_.size() || node_by_object_[object_index] < 0) return nullptr;
  return &nodes_[static_cast<std::size_t>(node_by_object_[object_index])];
}

const MapLogicHost::Node* MapLogicHost::node_of(uint32_t object_index) const {
  return const_cast<MapLogicHost*>(this)->node_of(object_index);
}

void MapLogicHost::advance(Tick tick, std::span<const TouchingPawn> pawns) {
  for (uint32_t place : touch_nodes_) settle_touches(nodes_[place], pawns);
  const std::optional<Tick> last = runtime_->last_tick();
  runtime_->advance(last ? *last + 1 : tick);
}

// Who stands in the volume now against who stood there last tick: leavers first, then comers.
void MapLogicHost::settle_touches(Node& node, std::span<const TouchingPawn> pawns) {
  scratch_inside_.clear();
  for (const TouchingPawn& pawn : pawns)
    if (node.touch->contains(node.position, pawn.feet)) scratch_inside_.push_back(pawn.ref);
  std::sort(scratch_inside_.begin(), scratch_inside_.end());
  if (scratch_inside_ == node.inside) return;
  const LogicNodeId id{node.object};
  const std::vector<uint64_t> before = node.inside;
  node.inside = scratch_inside_;
  for (uint64_t ref : before)
    if (!std::binary_search(node.inside.begin(), node.inside.end(), ref))
      (void)runtime_->deliver(id, TouchBehaviour::kEndTouch, LogicSignal{LogicActivator{ref}, std::nullopt});
  for (uint64_t ref : node.inside)
    if (!std::binary_search(before.begin(), before.end(), ref))
      (void)runtime_->deliver(id, TouchBehaviour::kStartTouch, LogicSignal{LogicActivator{ref}, std::nullopt});
}

std::string_view MapLogicHost::use_input(uint32_t object_index) const {
  const Node* node = node_of(object_index);
  return node == nullptr ? std::string_view{} : node->use_input;
}

bool MapLogicHost::use(uint32_t object_index, LogicActivator activator) {
  const Node* node = node_of(object_index);
  if (node == nullptr || node->use_input.empty()) return false;
  return runtime_->deliver(LogicNodeId{object_index}, node->use_input, LogicSignal{activator, std::nullopt});
}

const LogicBehaviour* MapLogicHost::behaviour(uint32_t object_index, std::size_t component) const {
  const Node* node = node_of(object_index);
  if (node == nullptr) return nullptr;
  for (std::size_t i = 0; i < node->components.size(); ++i)
    if (node->components[i] == component) return runtime_->behaviour(LogicNodeId{object_index}, i);
  return nullptr;
}

void MapLogicHost::state_changed(LogicNodeId id, std::size_t behaviour_index) {
  const Node* node = node_of(id.value);
  TW_ASSERT(node != nullptr && behaviour_index < node->visible.size(), "state from a node the host loaded");
  if (const ObjectBehaviour* visible = node->visible[behaviour_index])
    visible->write_state(state_(node->object, node->components[behaviour_index]));
}

void MapLogicHost::output_fired(LogicNodeId, std::string_view, LogicActivator) { ++outputs_fired_; }

bool MapLogicHost::tracing() const { return trace_sink_ ? true : spdlog::should_log(spdlog::level::debug); }

void MapLogicHost::trace(std::string_view line) {
  if (trace_sink_) {
    trace_sink_(line);
  } else {
    spdlog::debug("logic: {}", line);
  }
}

}  // namespace tickwire::world

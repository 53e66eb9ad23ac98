// The map's logic, bound to the reference game's objects: nodes built from the map (one behaviour
// per logic component, wiring from the outputs as the scene edits leave them), touches checked against pawns' feet each tick, Use
// routed in, visible state written back into the object's component.
#include "tickwire/world/map_logic_host.h"

#include <algorithm>

#include <spdlog/spdlog.h>

#include "tickwire/core/assert.h"
#include "tickwire/core/byte_record.h"
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
  uint32_t map_position = 0;              // the object is map_.objects()[map_position]
  bool loaded = false;
  Vec3 position;
  std::vector<std::size_t> components;    // behaviour i belongs to component components[i]
  std::vector<ObjectBehaviour*> visible;  // behaviour i as an ObjectBehaviour, or null (relay...)
  TouchBehaviour* touch = nullptr;        // the node's touch volume (owned by the runtime)
  std::string_view use_input;             // what a Use delivers; empty: not interactive
  std::vector<uint64_t> inside;           // pawns in the touch volume, by ref
};

namespace {

Duration seconds(float s) { return Duration::from_seconds(static_cast<double>(s)); }

Vec3 vec3_setting(const ObjectComponent& component, std::string_view name) {
  const auto v = setting_values(component, name);
  return {v[0], v[1], v[2]};
}

// Each logic component's settings as its behaviour takes them (at a load, and at a live retune).
DoorSettings door_settings(const ObjectComponent& c, double seconds_per_tick) {
  DoorSettings door;
  door.step_per_tick = door_step_per_tick(setting_number(c, "speed_mps"), setting_number(c, "distance_m"), seconds_per_tick);
  door.start_fraction = c.channel_count > 0 ? c.channels[0] : 0.0f;
  door.usable = setting_flag(c, "usable");
  return door;
}
ButtonSettings button_settings(const ObjectComponent& c) {
  return ButtonSettings{seconds(setting_number(c, "reset_s")), (c.bits & ButtonBehaviour::kPressedBit) != 0};
}
TouchSettings touch_settings(const ObjectComponent& c) {
  return TouchSettings{vec3_setting(c, "half_extents"), c.name == "plate"};
}
LogicTimerSettings timer_settings(const ObjectComponent& c) {
  return LogicTimerSettings{seconds(setting_number(c, "interval_s")), setting_flag(c, "refire"), setting_flag(c, "start_on")};
}
LogicCounterSettings counter_settings(const ObjectComponent& c) {
  return LogicCounterSettings{setting_number(c, "min"), setting_number(c, "max"), setting_number(c, "start")};
}

// The behaviour of one logic component, from its settings and its authored state.
std::unique_ptr<LogicBehaviour> make_behaviour(const ObjectComponent& c, double seconds_per_tick) {
  const std::string_view name = c.name;
  if (name == "mover") return std::make_unique<DoorBehaviour>(door_settings(c, seconds_per_tick));
  if (name == "button") return std::make_unique<ButtonBehaviour>(button_settings(c));
  if (name == "light") return std::make_unique<LightBehaviour>((c.bits & LightBehaviour::kOnBit) != 0);
  if (name == "plate" || name == "trigger") return std::make_unique<TouchBehaviour>(touch_settings(c));
  if (name == "relay") return std::make_unique<LogicRelay>(LogicRelaySettings{setting_flag(c, "start_disabled")});
  if (name == "timer") return std::make_unique<LogicTimer>(timer_settings(c));
  if (name == "counter") return std::make_unique<LogicCounter>(counter_settings(c));
  if (name == "gate") return std::make_unique<LogicGate>(LogicGateSettings{setting_flag(c, "initial")});
  TW_ASSERT(logic_component_spec(name) == nullptr, "every logic component of the table makes a behaviour");
  return nullptr;
}

// A running behaviour takes what it can of its component's live settings (the light, the relay
// and the gate have only start states, read at a load).
void retune_behaviour(LogicBehaviour& behaviour, const ObjectComponent& c, double seconds_per_tick) {
  if (auto* door = dynamic_cast<DoorBehaviour*>(&behaviour)) return door->retune(door_settings(c, seconds_per_tick));
  if (auto* button = dynamic_cast<ButtonBehaviour*>(&behaviour)) return button->retune(button_settings(c));
  if (auto* touch = dynamic_cast<TouchBehaviour*>(&behaviour)) return touch->retune(touch_settings(c));
  if (auto* timer = dynamic_cast<LogicTimer*>(&behaviour)) return timer->retune(timer_settings(c));
  if (auto* counter = dynamic_cast<LogicCounter*>(&behaviour)) return counter->retune(counter_settings(c));
}

}  // namespace

std::vector<LogicWire> logic_wires(std::span<const MapOutput> outputs) {
  std::vector<LogicWire> wires;
  wires.reserve(outputs.size());
  for (const MapOutput& output : outputs) {
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
    wires.push_back(std::move(wire));
  }
  return wires;
}

MapLogicHost::MapLogicHost(const Map& map, const MapObjectTable& table, const LogicSettings& settings,
                           ComponentState state, Wiring wiring)
    : map_(map),
      state_(std::move(state)),
      wiring_(std::move(wiring)),
      runtime_(std::make_unique<LogicRuntime>(settings, *this)) {
  // Every slot first, so nodes_ never moves while a load (which may call back) is on the stack.
  node_by_object_.assign(table.size(), -1);
  for (uint32_t index = 0; index < table.size(); ++index) {
    const std::optional<uint32_t> at = map.object_index(table.key_of(index));
    TW_ASSERT(at.has_value(), "the object table names a key the map does not hold");
    const MapObject& object = map.objects()[*at];
    if (!runs_logic(object)) continue;
    node_by_object_[index] = static_cast<int32_t>(nodes_.size());
    Node node;
    node.object = index;
    node.map_position = *at;
    node.position = object.position;
    nodes_.push_back(std::move(node));
  }
  for (Node& node : nodes_) (void)load(node);
}

MapLogicHost::~MapLogicHost() = default;

// A fresh node from the object's record as the game holds it (its authored state, its edited
// settings): one behaviour per logic component, its wiring.
bool MapLogicHost::load(Node& node) {
  TW_ASSERT(!node.loaded, "a slot is loaded once until it is unbound");
  const MapObject& object = map_.objects()[node.map_position];
  const double seconds_per_tick = runtime_->clock().tick_length().seconds_f();  // at time scale 1
  LogicBehaviours behaviours;
  for (std::size_t k = 0; k < object.components.size(); ++k) {
    // The game's live component: the map's record with the settings its scene edits lay over it.
    std::unique_ptr<LogicBehaviour> behaviour = make_behaviour(state_(node.object, k), seconds_per_tick);
    if (!behaviour) continue;
    auto* visible = dynamic_cast<ObjectBehaviour*>(behaviour.get());
    if (auto* touch = dynamic_cast<TouchBehaviour*>(behaviour.get()); touch != nullptr && node.touch == nullptr)
      node.touch = touch;
    node.components.push_back(k);
    node.visible.push_back(visible);
    behaviours.push_back(std::move(behaviour));
  }
  // Marked before the load: a behaviour that starts on (a timer) may fire from inside it.
  node.loaded = true;
  LogicNodeSpec spec{LogicNodeId{node.object}, object.key, wires_of(node)};
  if (runtime_->load(std::move(spec), std::move(behaviours)) != LogicLoad::loaded) {
    unbind(node);  // refused whole (counted by the runtime's loads())
    return false;
  }
  ++loaded_nodes_;
  settle_use_input(node);
  if (node.touch != nullptr) {  // volumes settle in object order (slots are in object order)
    const auto slot = static_cast<uint32_t>(node_by_object_[node.object]);
    const auto at = std::lower_bound(touch_nodes_.begin(), touch_nodes_.end(), slot);
    if (at == touch_nodes_.end() || *at != slot) touch_nodes_.insert(at, slot);
  }
  return true;
}

std::vector<LogicWire> MapLogicHost::wires_of(const Node& node) const {
  if (wiring_) return logic_wires(wiring_(node.object));
  return logic_wires(map_.objects()[node.map_position].outputs);
}

bool MapLogicHost::retune(uint32_t object_index) {
  Node* node = node_of(object_index);
  if (node == nullptr) return false;
  const double seconds_per_tick = runtime_->clock().tick_length().seconds_f();  // at time scale 1, as a load
  for (std::size_t i = 0; i < node->components.size(); ++i) {
    LogicBehaviour* behaviour = runtime_->behaviour(LogicNodeId{object_index}, i);
    TW_ASSERT(behaviour != nullptr, "a loaded node holds its behaviours");
    retune_behaviour(*behaviour, state_(object_index, node->components[i]), seconds_per_tick);
  }
  settle_use_input(*node);  // a door made usable (or not): a Use reaches it from now on (or no longer)
  return true;
}

// What a Use delivers to the node (its first behaviour's that takes one), and the usable list after it.
void MapLogicHost::settle_use_input(Node& node) {
  std::string_view use_input;
  for (const ObjectBehaviour* visible : node.visible)
    if (visible != nullptr && use_input.empty()) use_input = visible->use_input();
  if (use_input == node.use_input) return;
  if (!node.use_input.empty()) std::erase(usable_, node.object);
  node.use_input = use_input;
  if (!use_input.empty()) usable_.insert(std::lower_bound(usable_.begin(), usable_.end(), node.object), node.object);
}

bool MapLogicHost::rewire(uint32_t object_index) {
  const Node* node = node_of(object_index);
  return node != nullptr && runtime_->rewire(LogicNodeId{object_index}, wires_of(*node)) == LogicLoad::loaded;
}

// The slot forgets its node (the runtime owned the behaviours it pointed at).
void MapLogicHost::unbind(Node& node) {
  if (!node.use_input.empty()) std::erase(usable_, node.object);
  node.loaded = false;
  node.components.clear();
  node.visible.clear();
  node.touch = nullptr;
  node.use_input = {};
  node.inside.clear();
}

bool MapLogicHost::despawn(uint32_t object_index) {
  Node* node = node_of(object_index);
  if (node == nullptr) return false;
  if (node->touch != nullptr) settle_touches(*node, {});  // everyone inside leaves first
  const bool unloaded = runtime_->unload(LogicNodeId{object_index});
  TW_ASSERT(unloaded, "a loaded slot is a loaded node");
  unbind(*node);
  --loaded_nodes_;
  return true;
}

bool MapLogicHost::spawn(uint32_t object_index) {
  if (object_index >= node_by_object_.size() || node_by_object_[object_index] < 0) return false;
  Node& node = nodes_[static_cast<std::size_t>(node_by_object_[object_index])];
  return !node.loaded && load(node);
}

LogicRuntimeSizes MapLogicHost::despawn_all() {
  for (Node& node : nodes_)
    if (node.loaded) (void)despawn(node.object);
  return runtime_->sizes();
}

MapLogicHost::Node* MapLogicHost::node_of(uint32_t object_index) {
  if (object_index >= node_by_object_.size() || node_by_object_[object_index] < 0) return nullptr;
  Node& node = nodes_[static_cast<std::size_t>(node_by_object_[object_index])];
  return node.loaded ? &node : nullptr;
}

const MapLogicHost::Node* MapLogicHost::node_of(uint32_t object_index) const {
  return const_cast<MapLogicHost*>(this)->node_of(object_index);
}

void MapLogicHost::advance(Tick tick, std::span<const TouchingPawn> pawns) {
  for (uint32_t slot : touch_nodes_)
    if (nodes_[slot].loaded) settle_touches(nodes_[slot], pawns);
  std::optional<Tick> last = runtime_->last_tick();
  if (!last) last = continue_after_;
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

void MapLogicHost::move_volume(uint32_t object_index, Vec3 centre) {
  Node* node = node_of(object_index);
  if (node != nullptr && node->touch != nullptr) node->position = centre;
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

void MapLogicHost::save_state(ByteRecordWriter& write) const {
  uint32_t volumes = 0;
  for (uint32_t slot : touch_nodes_) volumes += nodes_[slot].loaded ? 1 : 0;
  write.u32(volumes);
  for (uint32_t slot : touch_nodes_) {
    const Node& node = nodes_[slot];
    if (!node.loaded) continue;
    write.u32(node.object);
    write.u32(static_cast<uint32_t>(node.inside.size()));
    for (uint64_t ref : node.inside) write.u64(ref);
  }
  runtime_->save_state(write);
}

// Each loaded touch volume once, in object order, its occupants by ref (ascending, each once).
bool MapLogicHost::read_touch_occupants(ByteRecordReader& read, std::vector<std::pair<Node*, std::vector<uint64_t>>>& out) {
  uint32_t loaded_volumes = 0;
  for (uint32_t slot : touch_nodes_) loaded_volumes += nodes_[slot].loaded ? 1 : 0;
  const uint32_t volumes = read.u32();
  if (!read.ok() || volumes != loaded_volumes) return false;
  for (uint32_t v = 0; v < volumes; ++v) {
    Node* node = node_of(read.u32());
    const uint32_t count = read.u32();
    if (!read.ok() || node == nullptr || node->touch == nullptr || count > TouchBehaviour::kMaxTouching) return false;
    if (!out.empty() && out.back().first->object >= node->object) return false;
    std::vector<uint64_t> inside;
    for (uint32_t i = 0; i < count && read.ok(); ++i) inside.push_back(read.u64());
    if (!read.ok() || std::adjacent_find(inside.begin(), inside.end(), std::greater_equal<>()) != inside.end()) return false;
    out.emplace_back(node, std::move(inside));
  }
  return true;
}

bool MapLogicHost::restore_state(ByteRecordReader& read) {
  std::vector<std::pair<Node*, std::vector<uint64_t>>> occupants;
  if (!read_touch_occupants(read, occupants) || !runtime_->restore_state(read)) return false;
  for (auto& [node, inside] : occupants) node->inside = std::move(inside);
  for (const Node& node : nodes_) {
    if (!node.loaded) continue;
    for (std::size_t b = 0; b < node.visible.size(); ++b)
      if (node.visible[b] != nullptr) node.visible[b]->write_state(state_(node.object, node.components[b]));
  }
  return true;
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

void MapLogicHost::output_fired(LogicNodeId node, std::string_view output, LogicActivator activator) {
  ++outputs_fired_;
  if (fired_sink_) fired_sink_(node.value, output, activator);
}

bool MapLogicHost::tracing() const { return trace_sink_ ? true : spdlog::should_log(spdlog::level::debug); }

void MapLogicHost::trace(std::string_view line) {
  if (trace_sink_) {
    trace_sink_(line);
  } else {
    spdlog::debug("logic: {}", line);
  }
}

}  // namespace tickwire::world

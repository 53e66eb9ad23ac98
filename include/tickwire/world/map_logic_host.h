// MapLogicHost: the reference game's binding of the logic runtime to its map objects (the seed's
// NetLogicHost, without the network: the game's object records already carry what it writes). It
// builds one node per logic object (node id = object index, node name = the object's key, wiring
// from the object's outputs, one behaviour per logic component from logic_components.h), advances
// the runtime once per simulation tick after checking every pawn's feet against the plates and
// trigger volumes, routes a validated Use into the object's node, and writes each behaviour's
// visible state back into the object's component, where the records and the rest table read it.
// Objects join and leave one at a time (spawn, despawn) with no rebuild: every other node keeps
// its state; a despawned object's touch volume is settled at empty first, and its node unloaded.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tickwire/clock/tick.h"
#include "tickwire/logic/logic_runtime.h"
#include "tickwire/world/map.h"
#include "tickwire/world/map_object_table.h"
#include "tickwire/world/vec3.h"

namespace tickwire::world {

class ObjectBehaviour;

// The runtime's wiring of a map object's outputs (a delay in game seconds).
std::vector<LogicWire> logic_wires(std::span<const MapOutput> outputs);

// A pawn as the touch volumes see it: who (the activator of what it sets off) and where its feet are.
struct TouchingPawn {
  uint64_t ref = 0;  // EntityRef raw: the LogicActivator
  Vec3 feet;
};

class MapLogicHost final : public ILogicHost {
 public:
  // The game's live copy of an object's component (by object index and component index): what the
  // host writes a behaviour's visible state into. It must stay valid for the host's lifetime.
  using ComponentState = std::function<ObjectComponent&(uint32_t object_index, std::size_t component)>;

  // The game's live wiring of an object: its map's outputs with the rewiring its standing scene edits
  // lay over them. Null: the map's outputs as authored.
  using Wiring = std::function<std::vector<MapOutput>(uint32_t object_index)>;

  // Loads every logic object of `map` (runs_logic) in object-table order. `settings.tick_length` x
  // time scale is the game time one tick advances (a door's step and every delay follow it). The
  // game's live components must stand at the map's authored state, their settings as the scene edits
  // standing against the object leave them: a node starts from its live component (state and
  // settings) and its live wiring.
  MapLogicHost(const Map& map, const MapObjectTable& table, const LogicSettings& settings, ComponentState state,
               Wiring wiring = {});
  ~MapLogicHost() override;
  MapLogicHost(const MapLogicHost&) = delete;
  MapLogicHost& operator=(const MapLogicHost&) = delete;

  // One simulation tick: pawns entering and leaving the touch volumes (endTouch before startTouch,
  // volumes in object order, pawns by ref), then the runtime's due continuations and wakes. The
  // runtime's own tick count stays consecutive if the room declared ticks it did not run.
  void advance(Tick tick, std::span<const TouchingPawn> pawns);
  // A host that takes over from a discarded one (a map switch, a reinstall): its runtime's ticks go
  // on from `last`, so the logic's tick count stays consecutive across the change.
  void continue_ticks_after(Tick last) { continue_after_ = last; }

  // --- objects joining and leaving, one at a time ------------------------------------------------
  // Takes a logic object out: its touch volume settles at empty first (each pawn inside gets
  // endTouch, so onEndTouch fires with that pawn as the activator), then its node is unloaded with
  // every continuation and wake it had in flight. Calls naming it are dropped in silence (the
  // runtime's absent_target) until it spawns back. False when no node of it is loaded.
  bool despawn(uint32_t object_index);
  // Brings a logic object back as a fresh node built from its live components (the game has put them
  // back at the authored state first, with the settings its standing scene edits lay over them). False when it is loaded already, is not a
  // logic object, or the runtime refused it (counted by the runtime's loads()).
  bool spawn(uint32_t object_index);
  // Whether the object's node is loaded.
  bool spawned(uint32_t object_index) const { return node_of(object_index) != nullptr; }
  // The loaded node takes the object's live wiring now (a scene edit rewired it): its behaviours keep
  // their state; what its old wiring still had waiting on a delay is dropped (LogicRuntime::rewire).
  // An object out of the game takes it when it spawns back. False when no node of it is loaded or
  // the runtime refused the wiring (the node keeps its old).
  bool rewire(uint32_t object_index);
  // The loaded node's behaviours take the object's live settings now (a scene edit retuned one):
  // each keeps its state (a door its fraction and travel, a timer its beat) and reads what it can
  // use live (a door's speed and usability, a button's reset delay, a volume's box, a timer's
  // interval, a counter's bounds); what only a load reads (a start state) waits for the next load.
  // False when no node of it is loaded.
  bool retune(uint32_t object_index);
  // Despawns every loaded object (touch volumes settled first): what a discarded runtime must hold
  // afterwards is nothing, which the returned sizes say.
  LogicRuntimeSizes despawn_all();

  // Where a touch volume stands from now on (a plate carried by a lift); its box keeps its extents.
  // Ignored for an object with no loaded touch volume.
  void move_volume(uint32_t object_index, Vec3 centre);

  // The input a Use delivers to the object (a button's press, a usable door's toggle); empty when
  // a Use does nothing to it (not interactive).
  std::string_view use_input(uint32_t object_index) const;
  // The loaded objects a Use can do something to, in object order.
  std::span<const uint32_t> usable_objects() const { return usable_; }
  // A Use the game has validated (reach, look cone): delivers the object's use input with the
  // pawn as the activator. False when the object is not interactive or nothing handled it.
  bool use(uint32_t object_index, LogicActivator activator);

  // --- checkpoint (seed 003) -----------------------------------------------------------------------
  // Who stands in each loaded touch volume, then the runtime's state (LogicRuntime::save_state).
  void save_state(ByteRecordWriter& write) const;
  // Into a host built over the same map with the same objects loaded (despawns laid over first): the
  // volumes' occupants and the runtime put back, then every behaviour's visible state written into
  // its component. False when it does not read or does not match (the caller discards the host).
  bool restore_state(ByteRecordReader& read);

  // The behaviour of component `component` of an object, or nullptr (no logic there).
  const LogicBehaviour* behaviour(uint32_t object_index, std::size_t component) const;
  const LogicRuntime& runtime() const { return *runtime_; }
  LogicRuntime& runtime() { return *runtime_; }
  // The logic objects loaded now.
  std::size_t logic_objects() const { return loaded_nodes_; }
  uint64_t outputs_fired() const { return outputs_fired_; }

  // Where the trace goes (one line per call): a test's sink, or spdlog at debug level when unset.
  void set_trace_sink(std::function<void(std::string_view)> sink) { trace_sink_ = std::move(sink); }
  // Told of every output fired (the object, the output, the activator), before its wiring runs.
  using FiredSink = std::function<void(uint32_t object_index, std::string_view output, LogicActivator activator)>;
  void set_fired_sink(FiredSink sink) { fired_sink_ = std::move(sink); }

  // ILogicHost.
  void state_changed(LogicNodeId node, std::size_t behaviour_index) override;
  void output_fired(LogicNodeId node, std::string_view output, LogicActivator activator) override;
  bool tracing() const override;
  void trace(std::string_view line) override;

 private:
  struct Node;
  Node* node_of(uint32_t object_index);  // loaded nodes only
  const Node* node_of(uint32_t object_index) const;
  bool load(Node& node);
  void unbind(Node& node);
  void settle_touches(Node& node, std::span<const TouchingPawn> pawns);

  std::vector<LogicWire> wires_of(const Node& node) const;
  bool read_touch_occupants(ByteRecordReader& read, std::vector<std::pair<Node*, std::vector<uint64_t>>>& out);
  void settle_use_input(Node& node);

  const Map& map_;
  ComponentState state_;
  Wiring wiring_;
  std::unique_ptr<LogicRuntime> runtime_;
  std::vector<Node> nodes_;              // one slot per logic object, in object order, loaded or not
  std::vector<int32_t> node_by_object_;  // object index -> slot in nodes_, or -1 (no logic)
  std::size_t loaded_nodes_ = 0;
  std::optional<Tick> continue_after_;
  std::vector<uint32_t> usable_;         // loaded and interactive, in object order
  std::vector<uint32_t> touch_nodes_;    // slots in nodes_ of the objects with a touch volume
  std::vector<uint64_t> scratch_inside_;
  uint64_t outputs_fired_ = 0;
  std::function<void(std::string_view)> trace_sink_;
  FiredSink fired_sink_;
};

}  // namespace tickwire::world

// LogicRuntime: the map's EntityIO as a pure state machine. Nodes (one per logic object) carry named
// outputs wired to ordered action lists; behaviours fire the outputs; calls deliver inputs to nodes
// by name; delays park the rest of a list in a bounded queue that advances once per simulation tick
// in game time (LogicClock). Nodes load and unload one at a time, with no rebuild: an unload drops
// everything the node had in flight, and a generation per load means an id that is reused never
// receives what its previous holder scheduled. Every refusal is counted by reason (LogicDrop).
// Nothing here reads a clock, a socket or the world: the host (ILogicHost) is the only way out.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "tickwire/clock/tick.h"
#include "tickwire/core/reason_counters.h"
#include "tickwire/logic/activator.h"
#include "tickwire/logic/behaviour.h"
#include "tickwire/logic/graph.h"
#include "tickwire/logic/logic_clock.h"
#include "tickwire/logic/logic_context.h"
#include "tickwire/logic/logic_drop.h"
#include "tickwire/logic/logic_host.h"
#include "tickwire/logic/logic_limits.h"
#include "tickwire/logic/node_id.h"

namespace tickwire {

class ByteRecordReader;
class ByteRecordWriter;
class LogicScheduledQueue;
struct LogicScheduled;

using LogicBehaviours = std::vector<std::unique_ptr<LogicBehaviour>>;

// What the runtime holds, for "nothing leaked" checks: all zero once every node is unloaded.
struct LogicRuntimeSizes {
  std::size_t nodes = 0;
  std::size_t names = 0;      // distinct names in the index
  std::size_t scheduled = 0;  // continuations and wakes in flight
  std::size_t retired = 0;    // nodes unloaded mid-run, freed when the run returns
  bool operator==(const LogicRuntimeSizes&) const = default;
};

class LogicRuntime {
 public:
  LogicRuntime(const LogicSettings& settings, ILogicHost& host);
  ~LogicRuntime();
  LogicRuntime(const LogicRuntime&) = delete;
  LogicRuntime& operator=(const LogicRuntime&) = delete;

  // --- nodes ------------------------------------------------------------------------------------
  // Adds one node (its id must not be loaded). Refused, and counted, if it breaks a limit. Its
  // behaviours' `loaded` run before this returns.
  LogicLoad load(LogicNodeSpec spec, LogicBehaviours behaviours);
  // Removes one node and drops every continuation and wake it had in flight (counted). Nothing else
  // is touched. False when the id was not loaded. Safe from inside a run (a host callback).
  bool unload(LogicNodeId id);
  bool loaded(LogicNodeId id) const;
  // Gives a loaded node new wiring (a scene edit rewired an output), between runs only. Its
  // behaviours keep their state and their wakes; the rest of every action list of the old wiring
  // still waiting on a delay is dropped (counted: rewired_in_flight), since it named a list that no
  // longer stands. Nothing changes when the wiring is the same. Refused, with the node untouched,
  // when the wiring breaks a limit load checks (too_many_wires, too_many_actions, name_too_long,
  // bad_delay, bad_parameter), or when no such node is loaded (absent).
  LogicLoad rewire(LogicNodeId id, std::vector<LogicWire> wires);
  // A loaded node's wiring as it runs now (null: not loaded).
  const std::vector<LogicWire>* wires(LogicNodeId id) const;
  // A node's behaviour (its place in the list given to load), for the host to read its state.
  LogicBehaviour* behaviour(LogicNodeId id, std::size_t index);
  const LogicBehaviour* behaviour(LogicNodeId id, std::size_t index) const;

  // --- runs the host starts ---------------------------------------------------------------------
  // Delivers an input to a node's behaviours (a validated Use press, a touch). True if one handled
  // it; otherwise the reason is counted (absent_target, unknown_input, ...).
  bool deliver(LogicNodeId target, std::string_view input, const LogicSignal& signal);
  // Fires a node's output as if a behaviour had.
  void fire(LogicNodeId source, std::string_view output, LogicActivator activator);

  // --- time -------------------------------------------------------------------------------------
  // One simulation tick: game time moves on one step and every continuation and wake it reaches
  // runs, first due first. Ticks are consecutive (the first one may be any tick).
  void advance(Tick tick);
  void set_time_scale(double time_scale);
  const LogicClock& clock() const { return clock_; }
  std::optional<Tick> last_tick() const { return last_tick_; }

  // --- checkpoint (seed 003, logic_runtime_state.cpp) ----------------------------------------------
  // Everything that makes the next tick what it would have been: game time and the tick count, the
  // last tick, every continuation and wake in flight with its order, each node's generation and each
  // behaviour's own state. Between runs only.
  void save_state(ByteRecordWriter& write) const;
  // Puts it back into a runtime holding exactly the saved nodes (the same ids, the same behaviour
  // kinds: the same map, its scene edits and despawns laid over first), each continuation resuming
  // a wire its node still has. Everything is read and checked before anything changes, except that
  // a behaviour refusing its own bytes leaves those before it restored: false then too, and the
  // caller discards the runtime. No output fires, no host call is made.
  bool restore_state(ByteRecordReader& read);

  // --- counters ---------------------------------------------------------------------------------
  const ReasonCounters<LogicDrop>& drops() const { return drops_; }
  const ReasonCounters<LogicLoad>& loads() const { return loads_; }
  uint64_t firings() const { return firings_; }
  uint64_t calls_delivered() const { return calls_delivered_; }
  LogicRuntimeSizes sizes() const;
  const LogicLimits& limits() const { return settings_.limits; }

 private:
  friend class LogicContext;
  struct Node;
  struct NameHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view name) const { return std::hash<std::string_view>{}(name); }
  };
  class RunScope;
  struct SavedNode;  // logic_runtime_state.cpp

  bool read_saved_nodes(ByteRecordReader& read, uint64_t next_generation, std::vector<SavedNode>& out);
  bool read_saved_queue(ByteRecordReader& read, const std::vector<SavedNode>& nodes, std::vector<LogicScheduled>& out) const;

  LogicLoad check(const LogicNodeSpec& spec, const LogicBehaviours& behaviours) const;
  LogicLoad check_wires(const std::vector<LogicWire>& wires) const;
  Node* find(LogicNodeId id);
  const Node* find(LogicNodeId id) const;
  Node* find_live(LogicNodeId id, uint64_t generation);

  void fire_output(Node& node, std::string_view output, LogicActivator activator, uint32_t depth);
  void run_wire(Node& node, std::size_t wire, std::size_t first_action, LogicActivator activator, uint32_t depth);
  void call(Node& source, std::string_view output, const LogicCall& action, LogicActivator activator, uint32_t depth);
  LogicInputResult deliver_input(Node& target, std::string_view input, const LogicSignal& signal, uint32_t depth);
  void run_scheduled(const LogicScheduled& entry);
  bool schedule(const LogicScheduled& entry);
  void trace_call(const Node& source, std::string_view output, const LogicCall& action, std::string_view dropped);

  // LogicContext's side.
  void context_fire(const LogicContext& context, std::string_view output);
  bool context_wake_after(const LogicContext& context, Duration game_time, uint32_t tag);
  void context_cancel_wakes(const LogicContext& context, uint32_t tag);
  void context_drop_continuations(const LogicContext& context);
  void context_state_changed(const LogicContext& context);

  LogicSettings settings_;
  ILogicHost& host_;
  LogicClock clock_;
  std::optional<Tick> last_tick_;
  uint64_t next_generation_ = 1;
  std::unordered_map<LogicNodeId, std::unique_ptr<Node>> nodes_;
  std::unordered_map<std::string, std::vector<LogicNodeId>, NameHash, std::equal_to<>> by_name_;
  std::unique_ptr<LogicScheduledQueue> queue_;
  std::vector<std::unique_ptr<Node>> retired_;  // unloaded while a run was on the stack
  uint32_t runs_open_ = 0;                      // runs on the stack (host entry points, nested)
  std::deque<std::vector<LogicNodeId>> targets_lists_;  // the targets of each call on the stack, reused
  std::size_t targets_in_use_ = 0;
  std::string trace_line_;
  ReasonCounters<LogicDrop> drops_;
  ReasonCounters<LogicLoad> loads_;
  uint64_t firings_ = 0;
  uint64_t calls_delivered_ = 0;
};

}  // namespace tickwire

// The runtime's one rule: a run is depth-first and synchronous until it meets a delay. A fired
// output runs its wired actions in order; a call delivers an input to every node of that name now,
// and whatever those fire runs before the next action. A delay parks the rest of the list in the
// scheduled queue, owned by the node that fired (its id and generation), and the run returns. So
// the stack holds at most one frame group per call depth (capped), and everything else is in the
// queue, which is bounded and which an unload empties of the node's entries at once.
#include "tickwire/logic/logic_runtime.h"

#include <cmath>
#include <iterator>
#include <limits>
#include <variant>

#include <fmt/format.h>

#include "logic_node.h"
#include "scheduled_queue.h"
#include "tickwire/core/assert.h"

namespace tickwire {

// Marks a run on the stack; the outermost one frees nodes unloaded while it ran.
class LogicRuntime::RunScope {
 public:
  explicit RunScope(LogicRuntime& runtime) : runtime_(runtime) { ++runtime_.runs_open_; }
  ~RunScope() {
    if (--runtime_.runs_open_ == 0) runtime_.retired_.clear();
  }
  RunScope(const RunScope&) = delete;
  RunScope& operator=(const RunScope&) = delete;

 private:
  LogicRuntime& runtime_;
};

LogicRuntime::LogicRuntime(const LogicSettings& settings, ILogicHost& host)
    : settings_(settings),
      host_(host),
      clock_(settings.tick_length, settings.time_scale),
      queue_(std::make_unique<LogicScheduledQueue>(settings.limits.max_scheduled)) {
  const LogicLimits& limits = settings_.limits;
  constexpr uint32_t kIndexMax = std::numeric_limits<uint16_t>::max();
  TW_ASSERT(limits.max_call_depth >= 1, "a call depth of at least one");
  TW_ASSERT(limits.max_wires_per_node <= kIndexMax && limits.max_actions_per_wire < kIndexMax &&
                limits.max_behaviours_per_node <= kIndexMax,
            "wire, action and behaviour indices fit a scheduled entry");
  TW_ASSERT(limits.max_delay.ns() > 0 && limits.max_delay.ns() < std::numeric_limits<int64_t>::max() / 4,
            "the longest delay leaves room for game time to run on");
  targets_lists_.resize(limits.max_call_depth);
}

LogicRuntime::~LogicRuntime() = default;

// --- nodes ----------------------------------------------------------------------------------------

// One node's wiring against the limits (what load and rewire both refuse).
LogicLoad LogicRuntime::check_wires(const std::vector<LogicWire>& wires) const {
  const LogicLimits& limits = settings_.limits;
  if (wires.size() > limits.max_wires_per_node) return LogicLoad::too_many_wires;
  for (const LogicWire& wire : wires) {
    if (wire.output.size() > limits.max_name_bytes) return LogicLoad::name_too_long;
    if (wire.actions.size() > limits.max_actions_per_wire) return LogicLoad::too_many_actions;
    for (const LogicAction& action : wire.actions) {
      if (const auto* delay = std::get_if<LogicDelay>(&action)) {
        if (delay->game_time.ns() < 0 || delay->game_time > limits.max_delay) return LogicLoad::bad_delay;
        continue;
      }
      const auto& call = std::get<LogicCall>(action);
      if (call.target.size() > limits.max_name_bytes || call.input.size() > limits.max_name_bytes) {
        return LogicLoad::name_too_long;
      }
      if (call.parameter && !std::isfinite(*call.parameter)) return LogicLoad::bad_parameter;
    }
  }
  return LogicLoad::loaded;
}

LogicLoad LogicRuntime::check(const LogicNodeSpec& spec, const LogicBehaviours& behaviours) const {
  const LogicLimits& limits = settings_.limits;
  if (nodes_.size() >= limits.max_nodes) return LogicLoad::over_node_cap;
  if (behaviours.size() > limits.max_behaviours_per_node) return LogicLoad::too_many_behaviours;
  if (spec.name.size() > limits.max_name_bytes) return LogicLoad::name_too_long;
  return check_wires(spec.wires);
}

LogicLoad LogicRuntime::load(LogicNodeSpec spec, LogicBehaviours behaviours) {
  TW_ASSERT(!loaded(spec.id), "a node id is loaded once (unload it first)");
  for (const auto& behaviour : behaviours) TW_ASSERT(behaviour != nullptr, "a behaviour is an object");
  const LogicLoad verdict = check(spec, behaviours);
  loads_.add(verdict);
  if (verdict != LogicLoad::loaded) return verdict;

  auto owned = std::make_unique<Node>();
  Node& node = *owned;
  node.spec = std::move(spec);
  node.behaviours = std::move(behaviours);
  node.generation = next_generation_++;
  const LogicNodeId id = node.spec.id;
  if (!node.spec.name.empty()) by_name_.try_emplace(node.spec.name).first->second.push_back(id);
  nodes_.emplace(id, std::move(owned));

  RunScope run(*this);
  for (std::size_t b = 0; b < node.behaviours.size() && !node.retired; ++b) {
    LogicContext context(*this, id, node.generation, b, LogicActivator::none(), 0);
    node.behaviours[b]->loaded(context);
  }
  return LogicLoad::loaded;
}

bool LogicRuntime::unload(LogicNodeId id) {
  const auto it = nodes_.find(id);
  if (it == nodes_.end()) return false;
  std::unique_ptr<Node> node = std::move(it->second);
  nodes_.erase(it);
  if (!node->spec.name.empty()) {
    const auto named = by_name_.find(node->spec.name);
    TW_ASSERT(named != by_name_.end(), "a named node is in the name index");
    std::erase(named->second, id);
    if (named->second.empty()) by_name_.erase(named);
  }
  const std::size_t dropped = queue_->erase_if([id](const LogicScheduled& entry) { return entry.node == id; });
  drops_.add(LogicDrop::unloaded_in_flight, dropped);
  node->retired = true;
  if (runs_open_ > 0) retired_.push_back(std::move(node));  // a frame below may still be inside it
  return true;
}

bool LogicRuntime::loaded(LogicNodeId id) const { return nodes_.contains(id); }

LogicLoad LogicRuntime::rewire(LogicNodeId id, std::vector<LogicWire> wires) {
  TW_ASSERT(runs_open_ == 0, "a node is rewired between runs (a run may be walking its wiring)");
  Node* node = find(id);
  if (node == nullptr) return LogicLoad::absent;
  if (const LogicLoad verdict = check_wires(wires); verdict != LogicLoad::loaded) return verdict;
  if (wires == node->spec.wires) return LogicLoad::loaded;
  const std::size_t dropped = queue_->erase_if([id](const LogicScheduled& entry) {
    return entry.node == id && entry.kind == LogicScheduled::Kind::continuation;
  });
  drops_.add(LogicDrop::rewired_in_flight, dropped);
  node->spec.wires = std::move(wires);
  return LogicLoad::loaded;
}

const std::vector<LogicWire>* LogicRuntime::wires(LogicNodeId id) const {
  const Node* node = find(id);
  return node != nullptr ? &node->spec.wires : nullptr;
}

LogicRuntime::Node* LogicRuntime::find(LogicNodeId id) {
  const auto it = nodes_.find(id);
  return it == nodes_.end() ? nullptr : it->second.get();
}

const LogicRuntime::Node* LogicRuntime::find(LogicNodeId id) const {
  const auto it = nodes_.find(id);
  return it == nodes_.end() ? nullptr : it->second.get();
}

LogicRuntime::Node* LogicRuntime::find_live(LogicNodeId id, uint64_t generation) {
  Node* node = find(id);
  return node != nullptr && node->generation == generation ? node : nullptr;
}

LogicBehaviour* LogicRuntime::behaviour(LogicNodeId id, std::size_t index) {
  Node* node = find(id);
  return node != nullptr && index < node->behaviours.size() ? node->behaviours[index].get() : nullptr;
}

const LogicBehaviour* LogicRuntime::behaviour(LogicNodeId id, std::size_t index) const {
  const Node* node = find(id);
  return node != nullptr && index < node->behaviours.size() ? node->behaviours[index].get() : nullptr;
}

LogicRuntimeSizes LogicRuntime::sizes() const {
  return {nodes_.size(), by_name_.size(), queue_->size(), retired_.size()};
}

// --- runs -----------------------------------------------------------------------------------------

bool LogicRuntime::deliver(LogicNodeId target, std::string_view input, const LogicSignal& signal) {
  RunScope run(*this);
  Node* node = find(target);
  if (node == nullptr) {
    drops_.add(LogicDrop::absent_target);
    return false;
  }
  return deliver_input(*node, input, signal, 0) == LogicInputResult::handled;
}

void LogicRuntime::fire(LogicNodeId source, std::string_view output, LogicActivator activator) {
  RunScope run(*this);
  Node* node = find(source);
  if (node == nullptr) {
    drops_.add(LogicDrop::absent_target);
    return;
  }
  fire_output(*node, output, activator, 0);
}

void LogicRuntime::fire_output(Node& node, std::string_view output, LogicActivator activator, uint32_t depth) {
  ++firings_;
  host_.output_fired(node.spec.id, output, activator);
  for (std::size_t w = 0; w < node.spec.wires.size() && !node.retired; ++w) {
    if (node.spec.wires[w].output == output) run_wire(node, w, 0, activator, depth);
  }
}

void LogicRuntime::run_wire(Node& node, std::size_t wire_index, std::size_t first_action, LogicActivator activator,
                            uint32_t depth) {
  const LogicWire& wire = node.spec.wires[wire_index];
  for (std::size_t a = first_action; a < wire.actions.size(); ++a) {
    if (const auto* delay = std::get_if<LogicDelay>(&wire.actions[a])) {
      if (delay->game_time.ns() == 0 || a + 1 == wire.actions.size()) continue;  // nothing to wait for
      LogicScheduled entry;
      entry.due = clock_.now() + delay->game_time;
      entry.node = node.spec.id;
      entry.generation = node.generation;
      entry.kind = LogicScheduled::Kind::continuation;
      entry.wire = static_cast<uint16_t>(wire_index);
      entry.next_action = static_cast<uint16_t>(a + 1);
      entry.activator = activator;
      schedule(entry);
      return;
    }
    call(node, wire.output, std::get<LogicCall>(wire.actions[a]), activator, depth + 1);
    if (node.retired) {
      drops_.add(LogicDrop::source_unloaded);
      return;
    }
  }
}

void LogicRuntime::call(Node& source, std::string_view output, const LogicCall& action, LogicActivator activator,
                        uint32_t depth) {
  if (depth > settings_.limits.max_call_depth) {
    drops_.add(LogicDrop::call_depth_cap);
    trace_call(source, output, action, reason_name(LogicDrop::call_depth_cap));
    return;
  }
  const auto named = by_name_.find(std::string_view(action.target));
  if (named == by_name_.end()) {
    const LogicHostCall host_call{source.spec.id, output, action.target, action.input, action.parameter, activator};
    const bool taken = host_.deliver_to_host(host_call);
    if (taken) {
      ++calls_delivered_;
    } else {
      drops_.add(LogicDrop::absent_target);
    }
    trace_call(source, output, action, taken ? std::string_view() : reason_name(LogicDrop::absent_target));
    return;
  }
  trace_call(source, output, action, {});
  // Copied, into a list of its own for as long as this call runs: what the call sets off may load or
  // unload nodes of this name, and may make calls of its own (a host may even start a run inside it).
  if (targets_in_use_ == targets_lists_.size()) targets_lists_.emplace_back();
  std::vector<LogicNodeId>& targets = targets_lists_[targets_in_use_++];
  targets.assign(named->second.begin(), named->second.end());
  const LogicSignal signal{activator, action.parameter};
  for (const LogicNodeId id : targets) {
    Node* target = find(id);
    if (target == nullptr) continue;
    ++calls_delivered_;
    deliver_input(*target, action.input, signal, depth);
  }
  --targets_in_use_;
}

LogicInputResult LogicRuntime::deliver_input(Node& target, std::string_view input, const LogicSignal& signal,
                                             uint32_t depth) {
  LogicInputResult outcome = LogicInputResult::not_an_input;
  for (std::size_t b = 0; b < target.behaviours.size() && !target.retired; ++b) {
    LogicContext context(*this, target.spec.id, target.generation, b, signal.activator, depth);
    const LogicInputResult result = target.behaviours[b]->input(input, signal, context);
    if (result == LogicInputResult::handled) {
      outcome = result;
    } else if (result != LogicInputResult::not_an_input && outcome == LogicInputResult::not_an_input) {
      outcome = result;
    }
  }
  switch (outcome) {
    case LogicInputResult::handled: break;
    case LogicInputResult::not_an_input: drops_.add(LogicDrop::unknown_input); break;
    case LogicInputResult::disabled: drops_.add(LogicDrop::target_disabled); break;
    case LogicInputResult::bad_parameter: drops_.add(LogicDrop::bad_parameter); break;
  }
  return outcome;
}

// --- time -----------------------------------------------------------------------------------------

void LogicRuntime::set_time_scale(double time_scale) { clock_.set_time_scale(time_scale); }

void LogicRuntime::advance(Tick tick) {
  TW_ASSERT(runs_open_ == 0, "the logic advances between runs, not from inside one");
  TW_ASSERT(!last_tick_ || tick == *last_tick_ + 1, "the logic advances one tick at a time");
  last_tick_ = tick;
  clock_.advance();
  RunScope run(*this);
  queue_->begin_tick();
  while (const std::optional<LogicScheduled> entry = queue_->pop_due(clock_)) run_scheduled(*entry);
  queue_->end_tick();
}

bool LogicRuntime::schedule(const LogicScheduled& entry) {
  if (queue_->push(entry)) return true;
  drops_.add(LogicDrop::queue_full);
  return false;
}

void LogicRuntime::run_scheduled(const LogicScheduled& entry) {
  Node* node = find_live(entry.node, entry.generation);
  if (node == nullptr) {  // an unload takes the node's entries with it; this is a broken invariant
    drops_.add(LogicDrop::stale_generation);
    return;
  }
  if (entry.kind == LogicScheduled::Kind::continuation) {
    // A new run from the queue: the stack below it is empty, so its calls start at depth 1.
    run_wire(*node, entry.wire, entry.next_action, entry.activator, 0);
    return;
  }
  LogicContext context(*this, entry.node, entry.generation, entry.behaviour, entry.activator, 0);
  node->behaviours[entry.behaviour]->woken(entry.tag, context);
}

void LogicRuntime::trace_call(const Node& source, std::string_view output, const LogicCall& action,
                              std::string_view dropped) {
  if (!host_.tracing()) return;
  trace_line_.clear();
  auto out = std::back_inserter(trace_line_);
  if (source.spec.name.empty()) {
    fmt::format_to(out, "#{}", source.spec.id.value);
  } else {
    fmt::format_to(out, "{}", source.spec.name);
  }
  fmt::format_to(out, " fired {} -> {}.{}", output, action.target, action.input);
  if (action.parameter) fmt::format_to(out, "({})", *action.parameter);
  if (!dropped.empty()) fmt::format_to(out, " (dropped: {})", dropped);
  host_.trace(trace_line_);
}

// --- what a behaviour's context asks ----------------------------------------------------------------

void LogicRuntime::context_fire(const LogicContext& context, std::string_view output) {
  Node* node = find_live(context.node_, context.generation_);
  if (node == nullptr) {
    drops_.add(LogicDrop::source_unloaded);
    return;
  }
  fire_output(*node, output, context.activator_, context.depth_);
}

bool LogicRuntime::context_wake_after(const LogicContext& context, Duration game_time, uint32_t tag) {
  TW_ASSERT(game_time.ns() >= 0 && game_time <= settings_.limits.max_delay, "a wake within the delay limit");
  if (find_live(context.node_, context.generation_) == nullptr) {
    drops_.add(LogicDrop::source_unloaded);
    return false;
  }
  LogicScheduled entry;
  entry.due = clock_.now() + game_time;
  entry.node = context.node_;
  entry.generation = context.generation_;
  entry.kind = LogicScheduled::Kind::wake;
  entry.behaviour = static_cast<uint16_t>(context.behaviour_);
  entry.tag = tag;
  entry.activator = context.activator_;
  return schedule(entry);
}

void LogicRuntime::context_cancel_wakes(const LogicContext& context, uint32_t tag) {
  queue_->erase_if([&](const LogicScheduled& entry) {
    return entry.node == context.node_ && entry.kind == LogicScheduled::Kind::wake &&
           entry.behaviour == context.behaviour_ && entry.tag == tag;
  });
}

void LogicRuntime::context_drop_continuations(const LogicContext& context) {
  const std::size_t dropped = queue_->erase_if([&](const LogicScheduled& entry) {
    return entry.node == context.node_ && entry.kind == LogicScheduled::Kind::continuation;
  });
  drops_.add(LogicDrop::disabled_in_flight, dropped);
}

void LogicRuntime::context_state_changed(const LogicContext& context) {
  host_.state_changed(context.node_, context.behaviour_);
}

}  // namespace tickwire

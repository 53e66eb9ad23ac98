// The logic runtime's checkpoint (seed 003, "Durability and rejoin"): a room recovered after a crash
// resumes its logic mid-flight (a door halfway through its travel, a light due to switch on after a
// delay, a timer mid-beat), so the next tick of the restored runtime is the one the lost one would
// have run. Read whole and checked against the nodes loaded before anything is laid over them.
#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_map>

#include "logic_node.h"
#include "scheduled_queue.h"
#include "tickwire/core/assert.h"
#include "tickwire/core/byte_record.h"
#include "tickwire/logic/logic_runtime.h"

namespace tickwire {

// One node as the checkpoint holds it, matched to the loaded node of its id.
struct LogicRuntime::SavedNode {
  Node* node = nullptr;
  uint64_t generation = 0;
  std::vector<std::span<const uint8_t>> behaviours;  // each behaviour's own bytes, in node order
};

namespace {

constexpr uint8_t kRuntimeStateVersion = 1;
// Game time stays far from where doubling it (LogicClock::reached) would overflow.
constexpr int64_t kMaxGameTimeNs = std::numeric_limits<int64_t>::max() / 8;
constexpr std::size_t kMaxBehaviourStateBytes = 4096;  // one behaviour's own state

void write_entry(ByteRecordWriter& write, const LogicScheduled& entry) {
  write.i64(entry.due.ns());
  write.u64(entry.sequence);
  write.u32(entry.node.value);
  write.u64(entry.generation);
  write.u8(static_cast<uint8_t>(entry.kind));
  write.u16(entry.wire);
  write.u16(entry.next_action);
  write.u16(entry.behaviour);
  write.u32(entry.tag);
  write.u64(entry.activator.value);
}

LogicScheduled read_entry(ByteRecordReader& read) {
  LogicScheduled entry;
  entry.due = Duration::nanoseconds(read.i64());
  entry.sequence = read.u64();
  entry.node = LogicNodeId{read.u32()};
  entry.generation = read.u64();
  const uint8_t kind = read.u8();
  if (kind > static_cast<uint8_t>(LogicScheduled::Kind::wake)) read.fail();
  entry.kind = static_cast<LogicScheduled::Kind>(kind);
  entry.wire = read.u16();
  entry.next_action = read.u16();
  entry.behaviour = read.u16();
  entry.tag = read.u32();
  entry.activator = LogicActivator{read.u64()};
  return entry;
}

}  // namespace

void LogicRuntime::save_state(ByteRecordWriter& write) const {
  TW_ASSERT(runs_open_ == 0, "a checkpoint is taken between runs");
  write.u8(kRuntimeStateVersion);
  write.i64(clock_.now().ns());
  write.i64(clock_.ticks());
  write.f64(clock_.time_scale());
  write.flag(last_tick_.has_value());
  write.i64(last_tick_ ? last_tick_->value() : 0);
  write.u64(next_generation_);
  std::vector<LogicNodeId> ids;
  ids.reserve(nodes_.size());
  for (const auto& [id, node] : nodes_) ids.push_back(id);
  std::sort(ids.begin(), ids.end());  // the same bytes for the same state, whatever the map's order
  write.u32(static_cast<uint32_t>(ids.size()));
  std::vector<uint8_t> own;
  for (const LogicNodeId id : ids) {
    const Node& node = *nodes_.at(id);
    write.u32(id.value);
    write.u64(node.generation);
    write.u32(static_cast<uint32_t>(node.behaviours.size()));
    for (const auto& behaviour : node.behaviours) {
      write.name(behaviour->kind());
      own.clear();
      ByteRecordWriter own_write(own);
      behaviour->save(own_write);
      write.blob(own);
    }
  }
  write.u64(queue_->next_sequence());
  const std::span<const LogicScheduled> entries = queue_->entries();
  write.u32(static_cast<uint32_t>(entries.size()));
  for (const LogicScheduled& entry : entries) write_entry(write, entry);
}

// Every loaded node exactly once, each with the behaviour kinds it holds and a generation of its own.
bool LogicRuntime::read_saved_nodes(ByteRecordReader& read, uint64_t next_generation, std::vector<SavedNode>& out) {
  const uint32_t count = read.u32();
  if (!read.ok() || count != nodes_.size()) return false;
  std::vector<uint64_t> generations;
  out.reserve(count);
  for (uint32_t i = 0; i < count; ++i) {
    SavedNode saved;
    const LogicNodeId id{read.u32()};
    saved.generation = read.u64();
    const uint32_t behaviours = read.u32();
    saved.node = find(id);
    if (!read.ok() || saved.node == nullptr || saved.generation == 0 || saved.generation >= next_generation ||
        behaviours != saved.node->behaviours.size())
      return false;
    if (!out.empty() && !(out.back().node->spec.id < id)) return false;  // ascending: each id once
    for (const auto& behaviour : saved.node->behaviours) {
      if (read.name(settings_.limits.max_name_bytes) != behaviour->kind()) return false;
      saved.behaviours.push_back(read.blob(kMaxBehaviourStateBytes));
    }
    if (!read.ok()) return false;
    generations.push_back(saved.generation);
    out.push_back(std::move(saved));
  }
  std::sort(generations.begin(), generations.end());
  return std::adjacent_find(generations.begin(), generations.end()) == generations.end();
}

// Every entry belongs to a saved node (its generation), and resumes a wire or wakes a behaviour it has.
bool LogicRuntime::read_saved_queue(ByteRecordReader& read, const std::vector<SavedNode>& nodes,
                                    std::vector<LogicScheduled>& out) const {
  const uint32_t count = read.u32();
  if (!read.ok() || count > settings_.limits.max_scheduled) return false;
  std::unordered_map<uint32_t, const SavedNode*> by_id;
  for (const SavedNode& saved : nodes) by_id.emplace(saved.node->spec.id.value, &saved);
  out.reserve(count);
  for (uint32_t i = 0; i < count; ++i) {
    const LogicScheduled entry = read_entry(read);
    const auto it = by_id.find(entry.node.value);
    if (!read.ok() || it == by_id.end() || it->second->generation != entry.generation) return false;
    if (entry.due.ns() < 0 || entry.due.ns() > kMaxGameTimeNs) return false;
    const Node& node = *it->second->node;
    if (entry.kind == LogicScheduled::Kind::continuation) {
      if (entry.wire >= node.spec.wires.size() || entry.next_action > node.spec.wires[entry.wire].actions.size())
        return false;
    } else if (entry.behaviour >= node.behaviours.size()) {
      return false;
    }
    out.push_back(entry);
  }
  return true;
}

bool LogicRuntime::restore_state(ByteRecordReader& read) {
  TW_ASSERT(runs_open_ == 0, "a checkpoint is restored between runs");
  if (read.u8() != kRuntimeStateVersion) return false;
  const Duration now = Duration::nanoseconds(read.i64());
  const int64_t ticks = read.i64();
  const double time_scale = read.f64();
  const bool ticked = read.flag();
  const Tick last_tick = Tick::from_value(read.i64());
  const uint64_t next_generation = read.u64();
  if (!read.ok() || now.ns() < 0 || now.ns() > kMaxGameTimeNs || ticks < 0 || !std::isfinite(time_scale) ||
      time_scale < 0 || time_scale > 1e6)
    return false;
  std::vector<SavedNode> nodes;
  if (!read_saved_nodes(read, next_generation, nodes)) return false;
  const uint64_t next_sequence = read.u64();
  std::vector<LogicScheduled> entries;
  if (!read_saved_queue(read, nodes, entries)) return false;
  // Read and checked: now laid over the runtime (the queue first: it alone may still refuse).
  if (!queue_->restore(std::move(entries), next_sequence)) return false;
  for (SavedNode& saved : nodes) {
    for (std::size_t b = 0; b < saved.behaviours.size(); ++b) {
      ByteRecordReader own(saved.behaviours[b]);
      if (!saved.node->behaviours[b]->restore(own, settings_.limits) || !own.done()) return false;
    }
    saved.node->generation = saved.generation;
  }
  clock_.set_time_scale(time_scale);
  clock_.restore(now, ticks);
  last_tick_ = ticked ? std::optional<Tick>(last_tick) : std::nullopt;
  next_generation_ = next_generation;
  return true;
}

}  // namespace tickwire

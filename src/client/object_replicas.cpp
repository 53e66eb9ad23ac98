// The client's map objects as runs of equal state, sampled on the interpolation timeline.
#include "tickwire/client/object_replicas.h"

#include <algorithm>
#include <variant>

#include "tickwire/core/assert.h"

namespace tickwire {
namespace {

bool same_sections(const ObjectSample& a, const ObjectSample& b) {
  if (a.section_count != b.section_count) return false;
  for (uint8_t k = 0; k < a.section_count; ++k) {
    if (a.sections[k].wire_id != b.sections[k].wire_id) return false;
  }
  return true;
}

}  // namespace

ObjectReplicas::ObjectReplicas(const ObjectReplicaSettings& settings) : settings_(settings) {
  TW_ASSERT(settings_.max_objects >= 1 && settings_.runs_per_object >= 2 && settings_.history_ticks >= 1,
            "object replica settings out of range");
}

void ObjectReplicas::prune(Replica& replica, int64_t tick) const {
  std::size_t drop = 0;
  while (replica.runs.size() - drop > 1 &&
         (replica.runs.size() - drop > settings_.runs_per_object || replica.runs[drop].last + settings_.history_ticks < tick)) {
    ++drop;
  }
  replica.runs.erase(replica.runs.begin(), replica.runs.begin() + static_cast<std::ptrdiff_t>(drop));
}

void ObjectReplicas::take(int64_t tick, uint32_t entity_id, const protocol::ObjectRecord& record) {
  if (record.object_index >= settings_.max_objects) {
    ++counters_.over_cap;
    return;
  }
  if (record.object_index >= replicas_.size()) replicas_.resize(record.object_index + std::size_t{1});
  Replica& replica = replicas_[record.object_index];
  if (replica.seen_at == tick) return;  // one record per object and tick: the first stands
  // As it was (the commonest case, decided without building a sample): its run grows.
  const bool unchanged = !replica.runs.empty() && replica.runs.back().gone_at < 0 &&
                         sample_of_record(replica.runs.back().state, record);
  replica.seen_at = tick;
  replica.entity_id = entity_id;
  scratch_.push_back(record.object_index);
  if (unchanged) {
    replica.runs.back().last = tick;
    return;
  }
  ObjectSample state = object_sample(record);
  // First seen, back after it left, or another object under the same index (its sections are
  // another set: a new map's): a fresh object, nothing of the old one blended into it. The old
  // life's runs stay, so a render tick still behind the change draws the old object until then.
  const bool fresh = replica.runs.empty() || replica.runs.back().gone_at >= 0 ||
                     !same_sections(replica.runs.back().state, state);
  if (fresh) ++counters_.appeared;
  replica.runs.push_back(Run{tick, tick, fresh, -1, std::move(state)});
}

void ObjectReplicas::on_snapshot(Tick tick_value, std::span<const protocol::Record> records) {
  const int64_t tick = tick_value.value();
  if (tick <= newest_tick_) {
    ++counters_.stale_snapshots;
    return;
  }
  newest_tick_ = tick;
  ++counters_.snapshots;
  scratch_.clear();
  for (const protocol::Record& record : records) {
    if (const auto* object = std::get_if<protocol::ObjectRecord>(&record.body)) take(tick, record.entity_id, *object);
  }
  if (!std::is_sorted(scratch_.begin(), scratch_.end())) std::sort(scratch_.begin(), scratch_.end());  // records come by id
  // Whoever the previous snapshot named and this one does not has left.
  for (uint32_t index : present_) {
    Replica& replica = replicas_[index];
    if (replica.seen_at != tick) {
      replica.runs.back().gone_at = tick;
      ++counters_.left;
    }
  }
  present_.swap(scratch_);
  changing_.clear();
  for (uint32_t index : present_) {  // every object this snapshot named, pruned once
    Replica& replica = replicas_[index];
    prune(replica, tick);
    if (replica.runs.size() > 1) changing_.push_back(index);
  }
}

std::optional<ObjectSample> ObjectReplicas::sample(uint32_t object_index, double render_tick) const {
  if (object_index >= replicas_.size()) return std::nullopt;
  return sample_runs(replicas_[object_index].runs, render_tick);
}

std::optional<ObjectSample> ObjectReplicas::sample_runs(const std::vector<Run>& runs, double render_tick) const {
  if (runs.empty()) return std::nullopt;
  // Before the oldest run held: absent if the object appeared with it, else (older runs were
  // pruned) its oldest state.
  if (render_tick < static_cast<double>(runs.front().first)) {
    return runs.front().fresh ? std::nullopt : std::optional<ObjectSample>(runs.front().state);
  }
  // The first run that ends at or after the render tick.
  const auto it = std::lower_bound(runs.begin(), runs.end(), render_tick,
                                   [](const Run& run, double t) { return static_cast<double>(run.last) < t; });
  if (it != runs.end() && render_tick >= static_cast<double>(it->first)) return it->state;
  const Run& older = *(it - 1);  // not the first run: render_tick >= runs.front().first
  // Between `older` and the next run (or past the newest): gone once a snapshot stopped naming it.
  if (older.gone_at >= 0 && render_tick >= static_cast<double>(older.gone_at)) return std::nullopt;
  if (it == runs.end() || it->fresh) return older.state;  // held: never extrapolated, never blended into a new life
  const double alpha = (render_tick - static_cast<double>(older.last)) / static_cast<double>(it->first - older.last);
  return blend_objects(older.state, it->state, std::clamp(alpha, 0.0, 1.0));
}

std::size_t ObjectReplicas::held_states(uint32_t object_index) const {
  return object_index < replicas_.size() ? replicas_[object_index].runs.size() : 0;
}

std::size_t ObjectReplicas::held_states() const {
  std::size_t total = 0;
  for (const Replica& replica : replicas_) total += replica.runs.size();
  return total;
}

uint32_t ObjectReplicas::entity_id(uint32_t object_index) const {
  return object_index < replicas_.size() ? replicas_[object_index].entity_id : 0;
}

void ObjectReplicas::reset() {
  replicas_.clear();
  present_.clear();
  changing_.clear();
  newest_tick_ = -1;
}

}  // namespace tickwire

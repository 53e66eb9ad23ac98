// ObjectReplicas: the client's copy of every map object, on the interpolation timeline. The records a
// snapshot carries (with the rest table filled in, every object the room names) land here by tick;
// each object keeps its history as runs of equal state (a resting lamp is one run however many
// snapshots named it), so 50,000 objects cost one run each and only what changes costs more. At a
// render tick an object is sampled as a game draws it: inside a run, that run's state; between two
// runs, blended (channels lerp, bits snap: ObjectSample); past the newest, held (objects are never
// extrapolated); before it was first seen or once a snapshot no longer names it, absent (presence in
// the snapshot is the whole lifecycle, seed 000). An object back after it left, or whose record
// carries another set of sections, is a fresh object: the old one is drawn until the render tick
// reaches the new one, and nothing of it is blended into the new.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "tickwire/client/object_sample.h"
#include "tickwire/clock/tick.h"
#include "tickwire/protocol/record_batch.h"

namespace tickwire {

struct ObjectReplicaSettings {
  uint32_t max_objects = 1u << 17;  // object indices at or past it are ignored (counted)
  uint32_t runs_per_object = 32;    // the oldest run goes first past it (a door easing open is one
                                    // run a tick: this covers the render delay at 60 snapshots/s)
  uint32_t history_ticks = 128;     // runs that ended longer ago than this are dropped (one stays)
};

struct ObjectReplicaCounters {
  uint64_t snapshots = 0;
  uint64_t stale_snapshots = 0;  // not newer than the newest taken: ignored
  uint64_t over_cap = 0;         // records naming an index past max_objects
  uint64_t appeared = 0;         // an object entered (first seen, or back after it left)
  uint64_t left = 0;             // an object a snapshot stopped naming
};

class ObjectReplicas {
 public:
  explicit ObjectReplicas(const ObjectReplicaSettings& settings = {});

  // A snapshot's records at `tick` (entity records are skipped). Ticks must rise; an older one is
  // ignored and counted.
  void on_snapshot(Tick tick, std::span<const protocol::Record> records);
  // The object as drawn at `render_tick` (fractional ticks), or nullopt when absent then.
  std::optional<ObjectSample> sample(uint32_t object_index, double render_tick) const;
  // The entity id of the object's newest record (0: never seen).
  uint32_t entity_id(uint32_t object_index) const;
  // The objects whose held history has more than one state (what a renderer redraws), ascending.
  std::span<const uint32_t> changing() const { return changing_; }
  // The objects the newest snapshot named.
  std::size_t present() const { return present_.size(); }
  // The states held for one object (its runs), and for all of them: what the history costs.
  std::size_t held_states(uint32_t object_index) const;
  std::size_t held_states() const;
  const ObjectReplicaCounters& counters() const { return counters_; }
  // A new session or a new map: everything goes.
  void reset();

 private:
  struct Run {
    int64_t first = 0, last = 0;  // the ticks of the first and last snapshot that held this state
    bool fresh = false;           // the object appeared with it: absent before, nothing blends into it
    int64_t gone_at = -1;         // the first snapshot tick after it that no longer named the object
    ObjectSample state;
  };
  struct Replica {
    std::vector<Run> runs;  // ascending ticks; several lives of an object may follow one another
    int64_t seen_at = -1;   // the newest snapshot tick that named it
    uint32_t entity_id = 0;
  };
  std::optional<ObjectSample> sample_runs(const std::vector<Run>& runs, double render_tick) const;
  void take(int64_t tick, uint32_t entity_id, const protocol::ObjectRecord& record);
  void prune(Replica& replica, int64_t tick) const;

  ObjectReplicaSettings settings_;
  std::vector<Replica> replicas_;   // by object index (grown to the largest index seen)
  std::vector<uint32_t> present_;   // the objects the newest snapshot named, ascending
  std::vector<uint32_t> changing_;
  std::vector<uint32_t> scratch_;
  int64_t newest_tick_ = -1;
  ObjectReplicaCounters counters_;
};

}  // namespace tickwire

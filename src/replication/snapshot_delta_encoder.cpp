// The SnapshotDelta body encoder: walks the current frame and the baseline in id order, naming
// runs of unchanged records by their length, coding changed records field by field against the
// baseline (predicted on from the older frame), added records against nothing, removals
// explicitly. No allocation per record: the output vector and the models are reused per body.
#include <algorithm>

#include "delta_frame.h"
#include "tickwire/core/assert.h"
#include "tickwire/replication/snapshot_delta_codec.h"

namespace tickwire {
namespace {

using namespace delta;

struct Walk {
  EncodeIO& c;
  FrameModels& m;
  const BodyRefs& refs;
  const ReplicaKinds& kinds;
  DeltaBodyStats& stats;
  OlderCursor older;
  RecordOp previous = RecordOp::end;
  int64_t last_id = -1;
  std::size_t mark = 0;

  // Adds the bits spent since the last call to `section`.
  void charge(std::size_t& section) {
    const std::size_t now = c.bits_so_far();
    if (now > mark) section += now - mark;
    mark = now;
  }
  void op(RecordOp o, uint32_t run) {
    code_op(c, m, previous, o);
    previous = o;
    if (o == RecordOp::end) return;
    uint64_t run_records = run;
    c.uint(m.run, run_records, 32);
    charge(stats.skip_bits);
  }
  void record(const ReplicaState& current, const ReplicaState& base, const ReplicaState* older_state) {
    RecordRefs r{&base, older_state, refs.ex, &kinds};
    if (older_state == nullptr) r.ex.active = false;
    ReplicaState s = current;
    code_record(c, m.record, r, s);
    charge(current.form == ReplicaForm::object ? stats.object_bits : stats.entity_bits);
  }
};

std::size_t coded_records(const ReplicaFrame& current, const ReplicaFrame* baseline) {
  return baseline == nullptr ? current.states.size() : std::max(current.states.size(), baseline->states.size());
}

void encode_records(Walk& w, const ReplicaFrame& current) {
  static const ReplicaState kNothing{};
  const std::vector<ReplicaState>& cur = current.states;
  const std::vector<ReplicaState>* base_states = w.refs.baseline ? &w.refs.baseline->states : nullptr;
  const std::size_t nc = cur.size();
  const std::size_t nb = base_states ? base_states->size() : 0;
  std::size_t i = 0, j = 0;
  while (true) {
    uint32_t run = 0;
    while (i < nb && j < nc && (*base_states)[i] == cur[j]) {
      ++i, ++j, ++run;
    }
    if (i == nb && j == nc) {
      w.op(RecordOp::end, 0);
      w.charge(w.stats.skip_bits);
      w.stats.unchanged += run;
      return;
    }
    w.stats.unchanged += run;
    if (run > 0) w.last_id = (*base_states)[i - 1].id;
    if (i < nb && (j == nc || (*base_states)[i].id < cur[j].id)) {
      w.op(RecordOp::removed, run);
      w.last_id = (*base_states)[i++].id;
      w.charge(w.stats.removal_bits);
      ++w.stats.removed;
    } else if (i < nb && (*base_states)[i].id == cur[j].id) {
      w.op(RecordOp::changed, run);
      const ReplicaState& base = (*base_states)[i++];
      w.record(cur[j], base, w.older.find(base.id, base));
      w.last_id = cur[j++].id;
      ++w.stats.changed;
    } else {
      w.op(RecordOp::added, run);
      uint64_t gap = static_cast<uint64_t>(static_cast<int64_t>(cur[j].id) - w.last_id - 1);
      w.c.uint(w.m.id_gap, gap, 33);
      w.record(cur[j], kNothing, nullptr);
      w.last_id = cur[j++].id;
      ++w.stats.added;
    }
  }
}

void check_sorted(const ReplicaFrame& frame) {
  for (std::size_t k = 1; k < frame.states.size(); ++k) {
    TW_ASSERT(frame.states[k - 1].id < frame.states[k].id, "a replica frame's states must ascend by id");
  }
}

}  // namespace

Result<DeltaBodyStats> encode_snapshot_delta(const ReplicaFrame& current, DeltaRefs refs, const ReplicaKinds& kinds,
                                             std::vector<uint8_t>& out) {
  out.clear();
  TW_ASSERT(refs.baseline == nullptr || refs.baseline->tick <= current.tick, "a baseline from the future");
  check_sorted(current);
  if (current.states.size() > kMaxReplicaFrameStates ||
      coded_records(current, refs.baseline) > kMaxReplicaFrameStates) {
    return Error::count_over_max;
  }
  const BodyRefs body = body_refs(refs.baseline, refs.older, current.tick);
  FrameModels models = FrameModels::fresh();
  EncodeIO c(out);
  DeltaBodyStats stats;
  uint64_t header = (body.baseline ? 1u : 0u) | (body.ex.active ? 2u : 0u);
  c.raw(header, 2);
  bool owner = current.owner.has_value();
  c.bit(models.owner_present, owner);
  if (owner) {
    static const protocol::OwnerDetail kNoOwner{};
    const protocol::OwnerDetail* base_owner = body.baseline && body.baseline->owner ? &*body.baseline->owner : &kNoOwner;
    const protocol::OwnerDetail* older_owner =
        body.ex.active && body.older->owner && body.baseline->owner ? &*body.older->owner : nullptr;
    protocol::OwnerDetail s = *current.owner;
    code_owner(c, models.owner, *base_owner, older_owner, body.ex, s);
  }
  Walk walk{c, models, body, kinds, stats, OlderCursor(body.older)};
  walk.charge(stats.header_bits);
  encode_records(walk, current);
  c.finish();
  walk.charge(stats.skip_bits);  // the stream's last bytes
  if (out.size() > protocol::MaxSnapshotBytes) return Error::buffer_full;
  return stats;
}

}  // namespace tickwire

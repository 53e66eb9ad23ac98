// The SnapshotDelta body decoder: rebuilds the full frame from the baseline and the body, reading
// hostile bytes. Every count is capped, every id must ascend, every operation must name a record
// the baseline holds, and a body needing a reference it was not given is refused, never misapplied.
#include "delta_frame.h"
#include "tickwire/core/assert.h"
#include "tickwire/replication/delta/snapshot_delta_codec.h"

namespace tickwire {
namespace {

using namespace delta;

struct Reader {
  DecodeIO& c;
  FrameModels& m;
  const BodyRefs& refs;
  const ReplicaKinds& kinds;
  ReplicaFrame& out;
  OlderCursor older;
  FitWindow& window;
  RecordFit fit{};  // one record's fit, reused: gather() writes what the fit reads
  RecordOp previous = RecordOp::changed;
  int64_t last_id = -1;

  bool push(const ReplicaState& s) {
    c.require(out.states.size() < kMaxReplicaFrameStates, DeltaRefusal::too_many_records);
    if (c.failed()) return false;
    out.states.push_back(s);
    return true;
  }
  void copy_run(const FrameView& base, std::size_t& i, uint64_t run) {
    for (uint64_t k = 0; k < run && push(base[i]); ++k) last_id = base[i++].id;
  }
  // A baseline record that changed, coded against it.
  void changed(const ReplicaState& base, const ReplicaState* older_state) {
    if (!push(base)) return;
    RecordRefs r{&base, older_state, refs.ex, &kinds};
    if (older_state == nullptr) r.ex.active = false;
    if (window.frames() != 0 && kind_fits(base, kinds) && window.gather(base, fit)) r.fit = &fit;
    code_record(c, m.record, r, out.states.back());
    last_id = base.id;
  }
  // A record the baseline lacks, coded against the frame's records before it (copied: the push
  // may move them).
  void added(uint32_t id) {
    const std::size_t n = out.states.size();
    if (n > 0) added_previous = out.states[n - 1];
    if (n > 1) added_before = out.states[n - 2];
    const RecordRefs r = added_refs(c, m.record.added_like_previous, added_previous, n > 0 ? &added_previous : nullptr,
                                    n > 1 ? &added_before : nullptr, kinds);
    if (!push(*r.base)) return;
    ReplicaState& s = out.states.back();
    s.id = id;
    code_record(c, m.record, r, s);
    last_id = id;
  }
  ReplicaState added_previous{}, added_before{};  // an addition's references, copied
};

void decode_records(Reader& rd) {
  const FrameView& base = rd.refs.baseline;  // no baseline: empty
  const std::size_t nb = base.size();
  std::size_t i = 0;
  // Each step keeps or consumes a baseline record or adds one to the (capped) frame.
  bool may_end = true;  // at the start, after an operation, and once the baseline is exhausted
  for (std::size_t steps = 0; steps <= nb + kMaxReplicaFrameStates && !rd.c.failed(); ++steps) {
    if ((may_end || i == nb) && code_end(rd.c, rd.m, false)) {
      rd.copy_run(base, i, nb - i);
      return;
    }
    may_end = false;
    // Past the baseline's records only an addition can follow: no step is coded.
    const RecordStep step =
        i < nb ? code_step(rd.c, rd.m, keep_context(rd.older, base[i]), rd.previous, RecordStep::kept) : RecordStep::added;
    if (rd.c.failed()) return;
    if (step == RecordStep::kept) {
      rd.copy_run(base, i, 1);
      continue;
    }
    may_end = true;
    const RecordOp op = op_of(step);
    rd.previous = op;
    if (op == RecordOp::added) {
      uint64_t gap = 0;
      rd.c.uint(rd.m.id_gap, gap, 33);
      const int64_t id = rd.last_id + 1 + static_cast<int64_t>(gap);
      rd.c.require(id <= static_cast<int64_t>(UINT32_MAX), DeltaRefusal::id_out_of_order);
      rd.c.require(i == nb || id <= static_cast<int64_t>(base[i].id), DeltaRefusal::id_out_of_order);
      rd.c.require(i == nb || id != static_cast<int64_t>(base[i].id), DeltaRefusal::duplicate_id);
      if (rd.c.failed()) return;
      rd.added(static_cast<uint32_t>(id));
      continue;
    }
    TW_ASSERT(i < nb, "a change or removal is decoded only at a baseline record");
    const ReplicaState& b = base[i++];
    if (op == RecordOp::removed) {
      rd.last_id = b.id;
    } else {
      rd.changed(b, rd.older.find(b.id, b));
    }
  }
  rd.c.require(false, DeltaRefusal::too_many_records);
}

Status refuse(DeltaRefusal reason, DeltaRefusal* refusal) {
  if (refusal != nullptr) *refusal = reason;
  return delta_refusal_error(reason);
}

}  // namespace

Status decode_snapshot_delta(std::span<const uint8_t> body, uint32_t tick, DeltaRefs refs, const ReplicaKinds& kinds,
                             ReplicaFrame& out, DeltaRefusal* refusal) {
  TW_ASSERT(!refs.baseline.same_object(FrameView(out)) && !refs.older.same_object(FrameView(out)),
            "decode into a frame other than its references");
  DecodeIO c(body);
  if (c.decoder().corrupt()) return refuse(DeltaRefusal::corrupt_stream, refusal);
  FrameModels models = FrameModels::fresh();
  uint64_t header = 0;
  c.raw(header, 2);
  const bool uses_baseline = (header & 1u) != 0, uses_older = (header & 2u) != 0;
  if (uses_baseline && refs.baseline == nullptr) return refuse(DeltaRefusal::missing_baseline, refusal);
  if (uses_older && (refs.older == nullptr || !uses_baseline)) return refuse(DeltaRefusal::missing_older, refusal);
  if (uses_baseline && refs.baseline.tick() > tick) return refuse(DeltaRefusal::reference_ticks, refusal);
  if (uses_older && !older_usable(refs.baseline, refs.older, tick)) return refuse(DeltaRefusal::reference_ticks, refusal);
  const BodyRefs body_ref = body_refs(uses_baseline ? refs.baseline : FrameView(), uses_older ? refs.older : FrameView(), tick);
  out.tick = tick;
  out.states.clear();
  bool owner = false;
  c.bit(models.owner_present, owner);
  out.owner.reset();
  if (owner) {
    static const protocol::OwnerDetail kNoOwner{};
    const std::optional<protocol::OwnerDetail>& b = body_ref.baseline.owner();  // no baseline: none
    const protocol::OwnerDetail& base_owner = b ? *b : kNoOwner;
    const protocol::OwnerDetail* older_owner =
        body_ref.ex.active && body_ref.older.owner() && b ? &*body_ref.older.owner() : nullptr;
    out.owner = base_owner;
    code_owner(c, models.owner, base_owner, older_owner, body_ref.ex, *out.owner);
  }
  out.world = body_ref.baseline.world();
  if (!c.failed()) code_world(c, models.world, body_ref.baseline.world(), out.world);
  FitWindow window;
  if (!c.failed()) code_fit_window(c, models, body_ref, refs.history, false, tick, window);
  Reader reader{c, models, body_ref, kinds, out, OlderCursor(body_ref.older), window};
  if (!c.failed()) decode_records(reader);
  if (c.failed()) return refuse(c.refusal(), refusal);
  if (c.decoder().corrupt()) return refuse(DeltaRefusal::corrupt_stream, refusal);
  if (body.size() > c.decoder().consumed()) return refuse(DeltaRefusal::trailing_bytes, refusal);
  return Status{};
}

}  // namespace tickwire

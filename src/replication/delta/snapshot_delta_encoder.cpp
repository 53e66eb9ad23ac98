// The SnapshotDelta body encoder: walks the current frame and the baseline in id order; each
// unchanged record costs one learnt "kept" decision (a few thousandths of a bit at rest), changed
// records are coded field by field against the baseline (predicted on from the older frame),
// added ones against nothing, removals explicitly. No allocation per record.
#include <algorithm>

#include "delta_frame.h"
#include "tickwire/core/assert.h"
#include "tickwire/replication/delta/snapshot_delta_codec.h"

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
  FitWindow& window;
  RecordFit fit{};  // one record's fit, reused: gather() writes what the fit reads
  RecordOp previous = RecordOp::changed;
  int64_t last_id = -1;
  std::size_t mark = 0;
  RecordBitsLog* log = nullptr;  // the inspector's per-record figures (null: not asked)

  // Adds the bits spent since the last call to `section`; returns them.
  std::size_t charge(std::size_t& section) {
    const std::size_t now = c.bits_so_far();
    const std::size_t spent = now > mark ? now - mark : 0;
    section += spent;
    mark = now;
    return spent;
  }
  void log_record(const ReplicaState& r, RecordCoding coding, std::size_t bits) {
    if (log == nullptr) return;
    log->add(RecordBits{r.id, r.kind, r.form == ReplicaForm::object, r.object_index, coding, static_cast<uint32_t>(bits)});
  }
  // Charges a record's own bits to its form's section, and logs them when asked.
  void charge_record(const ReplicaState& r, RecordCoding coding) {
    log_record(r, coding, charge(r.form == ReplicaForm::object ? stats.object_bits : stats.entity_bits));
  }
  // The step at baseline record `base`; past the baseline (null) an addition, coded by nothing.
  void step(const ReplicaState* base, RecordStep s) {
    if (base != nullptr) code_step(c, m, keep_context(older, *base), previous, s);
    if (s != RecordStep::kept) previous = op_of(s);
  }
  // A baseline record that changed, coded against it.
  void changed(const ReplicaState& current, const ReplicaState& base, const ReplicaState* older_state) {
    RecordRefs r{&base, older_state, refs.ex, &kinds};
    if (older_state == nullptr) r.ex.active = false;
    if (window.frames() != 0 && kind_fits(base, kinds) && window.gather(base, fit)) r.fit = &fit;
    code_record(c, m.record, r, current);
    charge_record(current, RecordCoding::changed);
  }
  // A record the baseline lacks, coded against the frame's records before it (`at`: its index).
  void added(const FrameView& cur, std::size_t at) {
    const RecordRefs r = added_refs(c, m.record.added_like_previous, cur[at], at > 0 ? &cur[at - 1] : nullptr,
                                    at > 1 ? &cur[at - 2] : nullptr, kinds);
    code_record(c, m.record, r, cur[at]);
    charge_record(cur[at], RecordCoding::added);
  }
};

std::size_t coded_records(const FrameView& current, const FrameView& baseline) {
  return std::max(current.size(), baseline.size());  // no baseline: empty
}

// Records equal at the end of both frames: past this many, `end` is cheaper than a kept decision each.
constexpr std::size_t kEndAfterTailRecords = 32;

std::size_t equal_tail(const FrameView& base, const FrameView& cur) {
  std::size_t tail = 0;
  while (tail < base.size() && tail < cur.size() && same_record(base[base.size() - 1 - tail], cur[cur.size() - 1 - tail])) ++tail;
  return tail >= kEndAfterTailRecords ? tail : 0;
}

void encode_records(Walk& w, const FrameView& cur) {
  const FrameView& base = w.refs.baseline;  // no baseline: empty
  const std::size_t nc = cur.size(), nb = base.size();
  const std::size_t tail = equal_tail(base, cur);
  std::size_t i = 0, j = 0;
  bool may_end = true;  // at the start, after an operation, and once the baseline is exhausted
  while (true) {
    base.prefetch(i + kPrefetchAheadRecords);
    cur.prefetch(j + kPrefetchAheadRecords);
    if (may_end || i == nb) {
      const bool end = i == nb - tail && j == nc - tail;
      code_end(w.c, w.m, end);
      w.charge(w.stats.skip_bits);
      if (end) {
        w.stats.unchanged += static_cast<uint32_t>(tail);
        return;
      }
    }
    may_end = false;
    const ReplicaState* at = i < nb ? &base[i] : nullptr;  // the baseline record the step is at
    const RecordStep step = at == nullptr                                      ? RecordStep::added
                            : j < nc && i < nb - tail && same_record(*at, cur[j]) ? RecordStep::kept
                            : j == nc || at->id < cur[j].id                   ? RecordStep::removed
                            : at->id == cur[j].id                              ? RecordStep::changed
                                                                               : RecordStep::added;
    w.step(at, step);
    if (step == RecordStep::kept) {
      w.charge(w.stats.skip_bits);
      w.last_id = at->id;
      ++i, ++j, ++w.stats.unchanged;
      continue;
    }
    may_end = true;
    if (step == RecordStep::removed) {
      const ReplicaState& gone = base[i++];
      w.last_id = gone.id;
      w.log_record(gone, RecordCoding::removed, w.charge(w.stats.removal_bits));
      ++w.stats.removed;
    } else if (step == RecordStep::changed) {
      w.charge(w.stats.skip_bits);
      const ReplicaState& b = base[i++];
      w.changed(cur[j], b, w.older.find(b.id, b));
      w.last_id = cur[j++].id;
      ++w.stats.changed;
    } else {
      uint64_t gap = static_cast<uint64_t>(static_cast<int64_t>(cur[j].id) - w.last_id - 1);
      w.c.uint(w.m.id_gap, gap, 33);
      w.charge(w.stats.skip_bits);
      w.added(cur, j);
      w.last_id = cur[j++].id;
      ++w.stats.added;
    }
  }
}

void check_sorted(const FrameView& frame) {
  for (std::size_t k = 1; k < frame.size(); ++k) {
    TW_ASSERT(frame[k - 1].id < frame[k].id, "a replica frame's states must ascend by id");
  }
}

}  // namespace

Result<DeltaBodyStats> encode_snapshot_delta(const FrameView& current, DeltaRefs refs, const ReplicaKinds& kinds,
                                             std::vector<uint8_t>& out) {
  out.clear();
  TW_ASSERT(current, "no frame to encode");
  TW_ASSERT(!refs.baseline || refs.baseline.tick() <= current.tick(), "a baseline from the future");
  check_sorted(current);
  if (current.size() > kMaxReplicaFrameStates ||
      coded_records(current, refs.baseline) > kMaxReplicaFrameStates) {
    return Error::count_over_max;
  }
  // A fit over the history frames the client holds, when some baseline record's kind fits; the
  // older frame still predicts what the fit does not (and gives the kept decisions their context).
  // Every stride-th held frame is named, so at most max_fit_frames (and at least two) span the window.
  const bool may_fit = refs.history != nullptr && refs.max_fit_frames != 0 && refs.baseline &&
                       refs.baseline.tick() != 0 && refs.baseline.tick() < current.tick() &&
                       any_kind_fits(refs.baseline, kinds);
  const uint32_t held = may_fit ? held_fit_frames(*refs.history, refs.baseline.tick(), current.tick()) : 0;
  const bool fit = held >= kMinFitFrames;
  const uint32_t max_frames = std::max<uint32_t>(refs.max_fit_frames, kMinFitFrames);
  const uint32_t stride = std::max<uint32_t>((held + max_frames - 1) / max_frames, 1);
  const BodyRefs body = body_refs(refs.baseline, refs.older, current.tick());
  FrameModels models = FrameModels::fresh();
  EncodeIO c(out);
  DeltaBodyStats stats;
  stats.used_baseline = static_cast<bool>(body.baseline);
  stats.used_older = body.ex.active;
  uint64_t header = (body.baseline ? 1u : 0u) | (body.ex.active ? 2u : 0u);
  c.raw(header, 2);
  bool owner = current.owner().has_value();
  c.bit(models.owner_present, owner);
  if (owner) {
    static const protocol::OwnerDetail kNoOwner{};
    const std::optional<protocol::OwnerDetail>& b = body.baseline.owner();  // no baseline: none
    const protocol::OwnerDetail* base_owner = b ? &*b : &kNoOwner;
    const protocol::OwnerDetail* older_owner = body.ex.active && body.older.owner() && b ? &*body.older.owner() : nullptr;
    protocol::OwnerDetail s = *current.owner();
    code_owner(c, models.owner, *base_owner, older_owner, body.ex, s);
  }
  protocol::WorldSettings world = current.world();
  code_world(c, models.world, body.baseline.world(), world);
  FitWindow window;
  code_fit_window(c, models, body, refs.history, fit, current.tick(), window, stride);
  stats.fit_frames = window.frames();
  Walk walk{c, models, body, kinds, stats, OlderCursor(body.older), window};
  walk.log = refs.record_bits;
  if (walk.log != nullptr) walk.log->clear();
  walk.charge(stats.header_bits);
  encode_records(walk, current);
  c.finish();
  walk.charge(stats.skip_bits);  // the stream's last bytes
  if (out.size() > protocol::MaxSnapshotBytes) return Error::buffer_full;
  return stats;
}

}  // namespace tickwire

// Resolving, decoding and keeping delta snapshots on the client.
#include "tickwire/client/delta_snapshot_reader.h"

namespace tickwire {

DeltaSnapshotReader::DeltaSnapshotReader(const ReplicaKinds& kinds) : kinds_(kinds), rest_(kinds_) {
  frame_.states.reserve(protocol::MaxRecordsPerSnapshot);
  body_.reserve(protocol::MaxSnapshotBytes);
}

// The message's references among what this client holds; false (counted) when one is missing.
bool DeltaSnapshotReader::resolve(const protocol::SnapshotDelta& message, DeltaRefs& refs) {
  refs.history = &held_;
  if (message.baseline_age != 0) {
    refs.baseline = message.tick > message.baseline_age ? held_.find(message.tick - message.baseline_age) : nullptr;
    if (message.predict_age != 0) {
      refs.older = message.tick > message.predict_age && message.predict_age > message.baseline_age
                       ? held_.find(message.tick - message.predict_age)
                       : nullptr;
      if (refs.older == nullptr) refs.baseline = nullptr;
    }
    if (refs.baseline == nullptr) drops_.add(DeltaDrop::baseline_missing);
    return refs.baseline != nullptr;
  }
  if (message.predict_age != 0) {
    drops_.add(DeltaDrop::baseline_missing);
    return false;
  }
  if (message.rest_revision == 0) return true;
  if (rest_.holds(message.rest_revision)) {
    refs.baseline = &rest_.frame();
    return true;
  }
  drops_.add(DeltaDrop::rest_table_missing);
  if (set_aside_) drops_.add(DeltaDrop::set_aside_replaced);
  set_aside_ = message;
  return false;
}

bool DeltaSnapshotReader::read(const protocol::SnapshotDelta& message, protocol::Snapshot& out) {
  DeltaRefs refs;
  if (!resolve(message, refs)) return false;
  body_.resize(message.body.size());
  for (std::size_t i = 0; i < body_.size(); ++i) body_[i] = message.body[i].value;
  if (!decode_snapshot_delta(body_, message.tick, refs, kinds_, frame_).ok()) {
    drops_.add(DeltaDrop::body_malformed);
    return false;
  }
  held_.keep(frame_);
  to_snapshot(message, out);
  return true;
}

void DeltaSnapshotReader::to_snapshot(const protocol::SnapshotDelta& message, protocol::Snapshot& out) {
  out.tick = message.tick;
  out.contract_hash.bytes = contract_hash_.bytes();  // the tag matched it (SessionClient checked)
  out.owner = frame_.owner;
  out.world = frame_.world;
  // Decoded over the records `out` holds (their lists keep their capacity: no allocation).
  std::size_t n = 0;
  for (const ReplicaState& state : frame_.states) {
    if (state.form == ReplicaForm::entity && !kinds_.registered(state.kind)) {
      ++records_ignored_;
      continue;
    }
    if (n == out.records.size()) out.records.emplace_back();
    dequantize_state(state, kinds_, out.records[n++]);
  }
  out.records.resize(n);
  out.record_count = static_cast<uint16_t>(out.records.size());
}

bool DeltaSnapshotReader::accept_rest_chunk(const protocol::RestTableChunk& chunk) {
  return rest_.accept(chunk).outcome == RestChunkOutcome::completed;
}

bool DeltaSnapshotReader::read_set_aside(protocol::Snapshot& out) {
  if (!set_aside_ || !rest_.holds(set_aside_->rest_revision)) return false;
  const protocol::SnapshotDelta message = std::move(*set_aside_);
  set_aside_.reset();
  return read(message, out);
}

void DeltaSnapshotReader::reset() {
  held_.reset();
  rest_ = RestTableAssembler(kinds_);
  set_aside_.reset();
  frame_.states.clear();
  frame_.owner.reset();
}

}  // namespace tickwire

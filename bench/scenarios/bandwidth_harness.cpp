// The bandwidth harness: references from simulated acks, encode, wire bytes, delivery, checks.
#include "bandwidth_harness.h"

#include <algorithm>
#include <array>
#include <span>
#include <vector>

#include "precision_check.h"
#include "tickwire/core/assert.h"
#include "tickwire/core/rng.h"
#include "tickwire/protocol/snapshot_delta.h"
#include "tickwire/replication/frames/held_frames.h"
#include "tickwire/replication/frames/sent_frame_history.h"
#include "tickwire/replication/frames/sent_frame_history.h"
#include "tickwire/wire/codec.h"
#include "wire_overhead.h"

namespace tickwire::bench {
namespace {

constexpr uint32_t kRestRevision = 1;  // the one rest table a scenario's client holds

enum class Against : uint8_t { snapshot, rest, nothing };

struct References {
  DeltaRefs refs;
  uint8_t baseline_age = 0;
  uint8_t predict_age = 0;
  Against against = Against::nothing;
};

class HarnessRun {
 public:
  HarnessRun(BandwidthScenario& scenario, const HarnessOptions& options)
      : scenario_(scenario),
        options_(options),
        rtt_ticks_(round_trip_ticks(options.round_trip_ms, scenario.tick_hz())),
        loss_rng_(options.seed),
        precision_(scenario.kinds(), scenario.max_angle_error_rad()),
        delivered_(scenario.ticks() + 1, false) {
  }

  BandwidthResult run();

 private:
  References choose(uint32_t tick) const;
  void code_tick(uint32_t tick);
  void tally(const References& references, const DeltaBodyStats& stats, std::size_t message_bytes);
  void deliver(uint32_t tick, std::span<const uint8_t> message_bytes);
  bool resolve(const protocol::SnapshotDelta& message, DeltaRefs& refs) const;
  void finish();

  BandwidthScenario& scenario_;
  HarnessOptions options_;
  uint32_t rtt_ticks_;
  Rng loss_rng_;
  SentFrameHistory server_;  // the room's own record and reference choice
  HeldFrames client_;  // the client's own store
  PrecisionCheck precision_;
  std::vector<bool> delivered_;  // by tick
  TruthFrame truth_;
  ReplicaFrame frame_;
  ReplicaFrame decoded_;
  std::vector<uint8_t> body_;
  std::vector<uint8_t> message_;
  std::vector<double> message_samples_, wire_samples_;
  uint64_t baseline_age_sum_ = 0;
  BandwidthResult result_;
};

// The references exactly as the room picks them (SentFrameHistory: the newest frame the client
// holds, the prediction reference about one baseline age behind it, every held frame to fit over),
// else the rest table, else nothing.
References HarnessRun::choose(uint32_t tick) const {
  References r;
  r.refs = server_.delta_refs(Tick::from_value(tick), protocol::MaxBaselineTicks);
  if (r.refs.baseline != nullptr) {
    r.against = Against::snapshot;
  } else if (const ReplicaFrame* rest = scenario_.rest_frame()) {
    r.refs.baseline = rest;
    r.against = Against::rest;
  }
  return r;
}

void HarnessRun::code_tick(uint32_t tick) {
  // The client's report of a snapshot it decoded reaches the server one round trip after it was sent.
  if (tick > rtt_ticks_ && delivered_[tick - rtt_ticks_]) server_.on_held(protocol::SnapshotsHeld{tick - rtt_ticks_, 0, 0});
  truth_.owner.reset();
  truth_.records.clear();
  scenario_.truth_at(tick, truth_);
  frame_.tick = tick;
  frame_.owner = truth_.owner;
  quantize_records(truth_.records, scenario_.kinds(), frame_.states);

  References references = choose(tick);
  auto stats = encode_snapshot_delta(frame_, references.refs, scenario_.kinds(), body_);
  if (!stats) {
    ++result_.encode_errors;
    return;
  }
  // The message names only the references the body used.
  if (!stats->used_baseline) references = References{};
  if (!stats->used_older) references.refs.older = {};
  if (references.against == Against::snapshot) {
    references.baseline_age = static_cast<uint8_t>(tick - references.refs.baseline.tick());
  }
  if (references.refs.older) references.predict_age = static_cast<uint8_t>(tick - references.refs.older.tick());
  protocol::SnapshotDelta message;
  message.tick = tick;
  message.rest_revision = references.against == Against::rest ? kRestRevision : 0;
  message.baseline_age = references.baseline_age;
  message.predict_age = references.predict_age;
  message.body.resize(body_.size());
  for (std::size_t i = 0; i < body_.size(); ++i) message.body[i].value = body_[i];
  message_.resize(1 + wire::measure(message));
  const auto written = wire::encode_message(message, message_);
  TW_ASSERT(written.ok() && *written == message_.size(), "a measured message encodes to its size");
  tally(references, *stats, message_.size());

  const SentFrameHistory::References keep = server_.references(Tick::from_value(tick), protocol::MaxBaselineTicks);
  server_.begin(Tick::from_value(tick), keep, server_.newest()).assign(frame_);
  if (loss_rng_.chance(options_.snapshot_loss)) {
    ++result_.lost;
    precision_.check(tick, truth_, frame_);
  } else {
    deliver(tick, message_);
  }
  scenario_.observe(truth_, frame_, result_.extras);
}

void HarnessRun::tally(const References& references, const DeltaBodyStats& stats, std::size_t message_bytes) {
  message_samples_.push_back(static_cast<double>(message_bytes));
  wire_samples_.push_back(static_cast<double>(WireOverhead::wire_bytes(message_bytes)));
  result_.packets += WireOverhead::packets(message_bytes);
  switch (references.against) {
    case Against::snapshot:
      ++result_.ticks_vs_snapshot;
      baseline_age_sum_ += references.baseline_age;
      break;
    case Against::rest: ++result_.ticks_vs_rest; break;
    case Against::nothing: ++result_.ticks_vs_nothing; break;
  }
  if (references.refs.older != nullptr) ++result_.ticks_with_prediction;
  result_.body_totals += stats;
}

// The client holds only what it received: its references come from its HeldFrames and the rest
// table, named by the message's ages exactly as a real client resolves them.
bool HarnessRun::resolve(const protocol::SnapshotDelta& message, DeltaRefs& refs) const {
  refs = {};
  refs.history = &client_;
  if (message.baseline_age != 0) {
    refs.baseline = client_.find(message.tick - message.baseline_age);
    if (refs.baseline == nullptr) return false;
  } else if (message.rest_revision == kRestRevision) {
    refs.baseline = scenario_.rest_frame();
  }
  if (message.predict_age != 0) {
    refs.older = client_.find(message.tick - message.predict_age);
    if (refs.older == nullptr) return false;
  }
  return true;
}

void HarnessRun::deliver(uint32_t tick, std::span<const uint8_t> message_bytes) {
  protocol::SnapshotDelta message;
  DeltaRefs refs;
  if (message_bytes.empty() || message_bytes[0] != protocol::SnapshotDelta::wire_id ||
      !wire::decode(message_bytes.subspan(1), message) || !resolve(message, refs)) {
    ++result_.decode_errors;
    precision_.check(tick, truth_, frame_);
    return;
  }
  body_.resize(message.body.size());
  for (std::size_t i = 0; i < body_.size(); ++i) body_[i] = message.body[i].value;
  if (!decode_snapshot_delta(body_, message.tick, refs, scenario_.kinds(), decoded_)) {
    ++result_.decode_errors;
    precision_.check(tick, truth_, frame_);
    return;
  }
  ++result_.delivered;
  if (!(decoded_ == frame_)) ++result_.mismatches;
  precision_.check(tick, truth_, decoded_);
  client_.keep(decoded_);
  delivered_[tick] = true;
}

void HarnessRun::finish() {
  BandwidthResult& r = result_;
  r.message_bytes = Summary::of(message_samples_);
  r.wire_bytes = Summary::of(wire_samples_);
  r.message_kbps = r.message_bytes.mean * 8.0 * r.tick_hz / 1000.0;
  r.wire_kbps = r.wire_bytes.mean * 8.0 * r.tick_hz / 1000.0;
  const DeltaBodyStats& t = r.body_totals;
  r.moving_updates = uint64_t{t.changed} + t.added;
  r.resting_updates = t.unchanged;
  const auto per = [](double bits, uint64_t n) { return n == 0 ? 0.0 : bits / static_cast<double>(n); };
  r.bits_per_moving_update = per(static_cast<double>(t.entity_bits + t.object_bits), r.moving_updates);
  r.bits_per_resting_update = per(static_cast<double>(t.skip_bits), r.resting_updates);
  const uint64_t updates = r.moving_updates + r.resting_updates;
  double message_bits = 0, wire_total = 0;
  for (double b : message_samples_) message_bits += 8.0 * b;
  for (double b : wire_samples_) wire_total += b;
  r.bits_per_update = per(message_bits, updates);
  r.wire_bytes_per_update = per(wire_total, updates);
  r.mean_baseline_age_ticks = per(static_cast<double>(baseline_age_sum_), r.ticks_vs_snapshot);
  r.precision = precision_.tally();
  r.entities = frame_.states.size();
}

BandwidthResult HarnessRun::run() {
  result_.scenario = scenario_.name();
  result_.tick_hz = scenario_.tick_hz();
  result_.ticks = scenario_.ticks();
  result_.seed = options_.seed;
  message_samples_.reserve(result_.ticks);
  wire_samples_.reserve(result_.ticks);
  for (uint32_t tick = 1; tick <= result_.ticks; ++tick) code_tick(tick);
  finish();
  return result_;
}

}  // namespace

uint32_t round_trip_ticks(uint32_t round_trip_ms, uint32_t tick_hz) {
  return std::max<uint32_t>(1, (round_trip_ms * tick_hz + 500) / 1000);
}

BandwidthResult run_bandwidth_scenario(BandwidthScenario& scenario, const HarnessOptions& options) {
  HarnessRun run(scenario, options);
  return run.run();
}

}  // namespace tickwire::bench

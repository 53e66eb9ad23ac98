// The bandwidth harness: the room's ReplicationServer codes each tick against what the simulated
// client acknowledged; wire bytes, delivery to a client holding only what it received, checks.
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
#include "tickwire/replication/replication_server.h"
#include "tickwire/wire/codec.h"
#include "wire_overhead.h"

namespace tickwire::bench {
namespace {

constexpr uint8_t kOwner = 1;  // the scenario's one client

// The room a scenario runs in: its tick rate, its vocabulary, and policy wide enough that interest
// and the budget choose everything (the scenarios measure the codec, not fitting).
NetcodeContract contract_of(const BandwidthScenario& scenario) {
  RoomPolicy policy;
  policy.identity = {scenario.name(), "tickwire-bench", "bench", "1", "bench", "", ""};
  policy.cadence.tick_rate_hz = scenario.tick_hz();
  policy.cadence.snapshot_rate_hz = scenario.tick_hz();
  policy.interest.radius_m = kContractMaxInterestRadiusM;
  policy.budgets.snapshot_budget_bytes = static_cast<uint32_t>(protocol::MaxPacketBytes * protocol::MaxSnapshotFragments);
  policy.budgets.client_bytes_per_second = policy.budgets.snapshot_budget_bytes * scenario.tick_hz();
  policy.vocabulary = scenario.vocabulary();
  const ContractResolution resolved = resolve_netcode_contract(policy);
  TW_ASSERT(resolved.ok(), "a scenario's policy resolves");
  return *resolved.contract;
}

ReplicationServerConfig service_config() {
  ReplicationServerConfig c;
  c.interest.grid = InterestGridConfig{-65536.0f, -65536.0f, 131072.0f, 131072.0f, 1024.0f, c.interest.max_entities};
  // Fit motion over every frame the client holds (SCENARIOS.md: realistic baselines, nothing tuned away).
  c.builder.max_fit_frames = protocol::MaxBaselineTicks;
  c.builder.fit_budget = false;  // everything every tick: the scenarios measure the codec, not fitting
  c.unreferenced_every_ticks = 1;  // a snapshot every tick: the figures are per tick, the first ones included
  return c;
}

// The scenario's map objects as the room's rest source: installed once.
class ScenarioRest final : public RestRecordSource {
 public:
  explicit ScenarioRest(const BandwidthScenario& scenario) : scenario_(scenario) {}
  void write_rest_records(std::vector<protocol::Record>& out) const override { scenario_.rest_records(out); }
  uint64_t map_generation() const override { return 1; }

 private:
  const BandwidthScenario& scenario_;
};

// What the client holds once it decodes the frame the service sent.
void copy_frame(const FrameView& view, ReplicaFrame& out) {
  out.tick = view.tick();
  out.owner = view.owner();
  out.states.clear();
  for (std::size_t i = 0; i < view.size(); ++i) out.states.push_back(view[i]);
}

// The body's bits and counts as the encoder counted them (changed and added records together).
DeltaBodyStats body_stats(const SnapshotDiagnostics& d) {
  DeltaBodyStats s;
  s.header_bits = d.header_bits;
  s.entity_bits = d.entity_bits;
  s.object_bits = d.object_bits;
  s.removal_bits = d.removal_bits;
  s.skip_bits = d.skip_bits;
  s.unchanged = d.unchanged;
  s.changed = d.records_sent;
  s.removed = d.removed;
  return s;
}

class HarnessRun {
 public:
  HarnessRun(BandwidthScenario& scenario, const HarnessOptions& options)
      : scenario_(scenario),
        options_(options),
        rtt_ticks_(round_trip_ticks(options.round_trip_ms, scenario.tick_hz())),
        loss_rng_(options.seed),
        kinds_(ReplicaKinds::from(scenario.vocabulary())),
        service_(contract_of(scenario), service_config()),
        rest_(scenario),
        precision_(kinds_, scenario.max_angle_error_rad()),
        delivered_(scenario.ticks() + 1, false) {
    service_.add_client(kOwner, /*pawn record=*/0, ReplicationFormat{true, true});
  }

  BandwidthResult run();

 private:
  void code_tick(uint32_t tick);
  void tally(const protocol::SnapshotDelta& message, const DeltaBodyStats& stats, std::size_t message_bytes);
  void deliver(uint32_t tick, std::span<const uint8_t> message_bytes);
  bool resolve(const protocol::SnapshotDelta& message, DeltaRefs& refs) const;
  void finish();

  BandwidthScenario& scenario_;
  HarnessOptions options_;
  uint32_t rtt_ticks_;
  Rng loss_rng_;
  ReplicaKinds kinds_;
  ReplicationServer service_;  // the room's own snapshot production
  ScenarioRest rest_;
  HeldFrames client_;  // the client's own store
  PrecisionCheck precision_;
  std::vector<bool> delivered_;  // by tick
  TruthFrame truth_;
  TickRecords records_;
  ReplicaFrame frame_;
  ReplicaFrame decoded_;
  std::vector<uint8_t> body_;
  std::vector<double> message_samples_, wire_samples_;
  uint64_t baseline_age_sum_ = 0;
  BandwidthResult result_;
};

void HarnessRun::code_tick(uint32_t tick) {
  // The client's report of a snapshot it decoded reaches the server one round trip after it was
  // sent; it has held the rest table (revision 1) since before the first tick.
  truth_.owner.reset();
  truth_.records.clear();
  scenario_.truth_at(tick, truth_);
  records_.records.swap(truth_.records);
  service_.begin_tick(Tick::from_value(tick), records_, rest_);
  const bool reported = tick > rtt_ticks_ && delivered_[tick - rtt_ticks_];
  service_.on_held(kOwner, protocol::SnapshotsHeld{reported ? tick - rtt_ticks_ : 0, 0, service_.rest_table().revision()});
  const ClientMessages messages = service_.build(kOwner, truth_.owner, MonoTime{});
  service_.reliable_taken(kOwner, messages.reliable.size());  // the rest table is delivered whole
  records_.records.swap(truth_.records);
  if (!messages.snapshot) {
    ++result_.encode_errors;
    return;
  }
  const std::span<const uint8_t> message = service_.last_snapshot();
  const SentFrame* sent = service_.replication(kOwner)->history.find(Tick::from_value(tick));
  TW_ASSERT(sent != nullptr, "a built snapshot's frame is in the history");
  copy_frame(sent->view(), frame_);
  protocol::SnapshotDelta header;
  TW_ASSERT(wire::decode(message.subspan(1), header).ok(), "the service's own message decodes");
  tally(header, body_stats(service_.replication(kOwner)->last), message.size());
  if (loss_rng_.chance(options_.snapshot_loss)) {
    ++result_.lost;
    precision_.check(tick, truth_, frame_);
  } else {
    deliver(tick, message);
  }
  scenario_.observe(truth_, frame_, result_.extras);
}

void HarnessRun::tally(const protocol::SnapshotDelta& message, const DeltaBodyStats& stats, std::size_t message_bytes) {
  message_samples_.push_back(static_cast<double>(message_bytes));
  wire_samples_.push_back(static_cast<double>(WireOverhead::wire_bytes(message_bytes)));
  result_.packets += WireOverhead::packets(message_bytes);
  if (message.baseline_age != 0) {
    ++result_.ticks_vs_snapshot;
    baseline_age_sum_ += message.baseline_age;
  } else if (message.rest_revision != 0) {
    ++result_.ticks_vs_rest;
  } else {
    ++result_.ticks_vs_nothing;
  }
  if (message.predict_age != 0) ++result_.ticks_with_prediction;
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
  } else if (message.rest_revision != 0) {
    if (message.rest_revision != service_.rest_table().revision()) return false;
    refs.baseline = &service_.rest_table().frame();  // what the client's assembler holds, byte for byte
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
  if (!decode_snapshot_delta(body_, message.tick, refs, kinds_, decoded_)) {
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

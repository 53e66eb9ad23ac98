// One player's client, frame by frame.
#include "tickwire/client/game_client.h"

#include <algorithm>
#include <cmath>
#include <utility>
#include <variant>

namespace tickwire {

inline constexpr std::size_t kSnapshotSizeLogCap = 4096;  // sizes kept between two take_snapshot_sizes()

GameClient::GameClient(ReliableClient& transport, SchemaCache& cache, MonoTime now, const PredictionModel* model,
                       const SessionClientConfig& config)
    : transport_(transport),
      session_(transport, cache, config),
      requested_logic_hz_(config.logic_hz),
      model_(model),
      last_frame_(now) {}

namespace {
// The client's logic rate: the room's tick rate, or in server-time mode its own (the config's),
// within the contract's ceiling.
double logic_rate_hz(const NetcodeContract& contract, uint32_t requested_hz) {
  if (contract.mode.mode != RuntimeMode::server_time || requested_hz == 0) return contract.cadence.tick_rate_hz;
  return std::min(requested_hz, contract.mode.server_time.max_logic_hz);
}
}  // namespace

void GameClient::on_welcome(MonoTime now) {
  const protocol::RoomWelcome& welcome = *session_.welcome();
  const Duration period = Duration::from_seconds(1.0 / welcome.contract.cadence.tick_rate_hz);
  regulator_.emplace(period, ClockRegulatorSettings{}, now);
  server_time_ = welcome.contract.mode.mode == RuntimeMode::server_time;
  logic_hz_ = logic_rate_hz(welcome.contract, requested_logic_hz_);
  logic_step_us_ = static_cast<uint32_t>(std::lround(1e6 / logic_hz_));
  server_clock_.reset();
  accumulator_.emplace(Duration::from_seconds(1.0 / logic_hz_));
  interpolator_.emplace(InterpSettings::from_contract(welcome.contract), now);
  welcomed_pawn_ = welcome.pawn_ref;
  objects_.reset();  // a new session names its objects afresh
  newest_snapshot_ = nullptr;
  reconciled_world_ = false;
  quality_.emplace(now, welcome.contract.cadence.tick_rate_hz);
  // The server grants prediction narrowly (seed 003): without the grant the own pawn is drawn from
  // the snapshots like everyone else, and its inputs still go up.
  own_pawn_predicted_ = welcome.contract.prediction.own_pawn_predicted;
  own_profile_ = InterpProfile::standard;
  server_values_.clear();
  server_pawn_.reset();
  last_correction_m_ = 0;
  predictor_.reset();
  if (model_ != nullptr && own_pawn_predicted_) {
    predictor_.emplace(*model_, 1.0 / logic_hz_, welcome.contract.vocabulary.claimable_flag_mask());
    take_world_settings(session_.world_settings());
  }
}

// The settings each snapshot carries: the predictor claims by the forgiveness and steps at the time
// scale (a change reaches it with the first snapshot of a tick that ran under it).
void GameClient::take_world_settings(const protocol::WorldSettings& settings) {
  if (!predictor_) return;
  predictor_->set_forgiveness(settings.forgiveness);
  predictor_->set_time_scale(settings.time_scale);
}

void GameClient::take_owner_detail(Tick tick, const protocol::OwnerDetail& owner, MonoTime now) {
  if (!server_time_) {  // a server-time room merges what arrived: its depth byte regulates nothing
    regulator_->on_depth_reading(tick, owner.queue_depth, now);
    quality_->on_depth_reading(owner.queue_depth, regulator_->target_depth_ticks(), now);
  }
  if (owner.ack) quality_->on_ack(owner.ack->sequence, now);
  if (owner.claim == protocol::ClaimOutcome::accepted) ++counters_.claims_accepted;
  if (owner.claim == protocol::ClaimOutcome::corrected) ++counters_.claims_corrected;
  server_values_ = owner.pawn.values;
  server_pawn_ = owner.pawn.position;
  server_pawn_tick_ = static_cast<uint32_t>(tick.value());
}

// The predictor steps against the snapshot its last applied reconcile took (its doors, at the acked
// tick) and the one applied before it (its props' motion). The snapshot is done with otherwise, so
// it moves into the spare buffer (no copy: the next pop overwrites what comes back) and becomes the
// world only if the reconcile was applied (a skipped one leaves the ack and the world as they were).
void GameClient::reconcile_last_snapshot() {
  const std::size_t spare = 1 - reconciled_current_;
  std::swap(reconciled_[spare], snapshot_);
  newest_snapshot_ = &reconciled_[spare];
  predictor_->set_world(&reconciled_[spare], reconciled_world_ ? &reconciled_[reconciled_current_] : nullptr);
  if (const ReconcileOutcome outcome = predictor_->reconcile(*reconciled_[spare].owner); outcome.applied) {
    last_correction_m_ = outcome.correction_m;
    reconciled_current_ = spare;  // the one before it stays where it was: the world's previous
    reconciled_world_ = true;
  } else {  // its previous went with the spare
    predictor_->set_world(reconciled_world_ ? &reconciled_[reconciled_current_] : nullptr);
  }
}

void GameClient::take_snapshots(MonoTime now) {
  std::size_t bytes = 0;
  while (session_.pop_snapshot(snapshot_, &bytes)) {
    newest_snapshot_ = &snapshot_;
    ++counters_.snapshots;
    counters_.snapshot_bytes += bytes;
    counters_.max_snapshot_bytes = std::max(counters_.max_snapshot_bytes, static_cast<uint32_t>(bytes));
    if (snapshot_sizes_.size() < kSnapshotSizeLogCap) snapshot_sizes_.push_back(static_cast<uint32_t>(bytes));
    const Tick tick = Tick::from_value(snapshot_.tick);
    if (server_time_) {
      const ReliableEndpoint* endpoint = transport_.endpoint();
      const Duration rtt = Duration::from_milliseconds(endpoint != nullptr ? endpoint->stats().rtt_ms : 0.0);
      server_clock_.on_snapshot(protocol::server_time_us_of_tick(snapshot_.tick, session_.welcome()->contract.cadence.tick_rate_hz),
                                rtt, now);
    }
    take_world_settings(snapshot_.world);
    if (snapshot_.owner) take_owner_detail(tick, *snapshot_.owner, now);
    samples_.clear();
    const uint32_t own = EntityRef::from_raw(*welcomed_pawn_).handle().raw();
    for (const protocol::Record& record : snapshot_.records) {
      const auto* entity = std::get_if<protocol::EntityRecord>(&record.body);
      if (entity == nullptr) continue;
      if (record.entity_id == own) {
        if (own_pawn_predicted_) continue;  // our own pawn is predicted, not drawn late
        own_profile_ = own_kind_profile(entity->kind);
      }
      EntitySample sample;
      sample.entity = EntityNetHandle::from_raw(record.entity_id);
      sample.position_m = entity->position;
      sample.yaw_deg = entity->yaw_deg;
      sample.pitch_deg = entity->pitch_deg;
      sample.kind = entity->kind;
      sample.flags = entity->flags;
      sample.channel_count = static_cast<uint8_t>(std::min<std::size_t>(entity->payload.channels.size(), kSampleChannels));
      for (uint8_t c = 0; c < sample.channel_count; ++c) sample.channels[c] = entity->payload.channels[c].value;
      sample.bits = entity->payload.bits;
      samples_.push_back(sample);
    }
    mark_carried(tick);
    (void)interpolator_->on_snapshot(tick, samples_);
    objects_.on_snapshot(tick, snapshot_.records);
    if (snapshot_.owner && predictor_) reconcile_last_snapshot();  // last: it takes the snapshot
  }
}

std::optional<ObjectSample> GameClient::object(uint32_t object_index) const {
  if (!interpolator_) return std::nullopt;
  return objects_.sample(object_index, interpolator_->render_tick());
}

// Between world-lane ticks only the pose lane runs: an entity whose state is the one the previous
// snapshot held was carried, not sampled (see EntitySample::carried). On world ticks every state is
// a sample, a resting entity's included.
void GameClient::mark_carried(Tick tick) {
  const auto by_entity = [](const EntitySample& a, const EntitySample& b) { return a.entity.raw() < b.entity.raw(); };
  std::sort(samples_.begin(), samples_.end(), by_entity);
  const uint32_t ticks_per_snapshot = session_.welcome()->contract.ticks_per_snapshot;
  const bool world_tick = ticks_per_snapshot <= 1 || tick.value() % ticks_per_snapshot == 0;
  if (!world_tick) {
    for (EntitySample& sample : samples_) {
      const auto it = std::lower_bound(previous_samples_.begin(), previous_samples_.end(), sample, by_entity);
      if (it == previous_samples_.end() || it->entity != sample.entity) continue;
      EntitySample was = *it;
      was.carried = false;
      sample.carried = was == sample;
    }
  }
  previous_samples_ = samples_;
}

void GameClient::frame(MonoTime now, const InputSource& input) {
  ++counters_.frames;
  const Duration dt = started_ ? now - last_frame_ : Duration();
  started_ = true;
  last_frame_ = now;
  session_.receive(now);
  if (session_.welcomed() && (!welcomed_pawn_ || *welcomed_pawn_ != session_.welcome()->pawn_ref)) on_welcome(now);
  if (regulator_) {
    take_snapshots(now);
    double rate = 1.0;  // a server-time client runs its own rate, unbent
    if (!server_time_) {
      regulator_->update(now, static_cast<uint32_t>(session_.inputs().pending_count()));
      rate = regulator_->rate();
    }
    quality_->on_rate(rate);
    const uint32_t ticks = accumulator_->advance(dt, rate);
    for (uint32_t i = 0; i < ticks; ++i) {
      ++counters_.client_ticks;
      if (!server_time_ && regulator_->holding()) {
        ++counters_.held_ticks;
        session_.resend_inputs();
        continue;
      }
      if (!session_.sending()) break;  // between connections: nothing to predict for
      run_client_tick(now, input, ticks - 1 - i);
    }
    if (predictor_) predictor_->decay(dt);
    (void)interpolator_->frame(now);
  }
  session_.send(now);
}

// One client tick: its input sampled, predicted, and sent (with a claim in the tick-numbered modes;
// in server-time mode stamped with the server time it stands for, `ticks_after` logic steps before
// the frame's last one).
void GameClient::run_client_tick(MonoTime now, const InputSource& input, uint32_t ticks_after) {
  const uint32_t sequence = session_.inputs().next_sequence();
  const protocol::InputCmd cmd = input(sequence);
  std::optional<protocol::Claim> claim;
  if (predictor_) {
    predictor_->predict(sequence, cmd);
    if (!server_time_) claim = predictor_->claim();
    ++counters_.predicted_ticks;
  }
  std::optional<uint32_t> sent;
  if (server_time_) {
    const uint64_t back_us = uint64_t{ticks_after} * logic_step_us_;
    const uint64_t server_now_us = server_clock_.at(now);
    sent = session_.send_timed_input(cmd, server_now_us > back_us ? server_now_us - back_us : 0, logic_step_us_);
  } else {
    sent = session_.send_input(cmd, claim);
  }
  if (sent) {
    ++counters_.inputs_sent;
    quality_->on_input_sent(sequence, now);
  }
}

std::optional<QualityReport> GameClient::quality_report() const {
  if (!quality_) return std::nullopt;
  QualityReport r;
  quality_->fill(r);
  r.holds = regulator_->counters().holds;
  r.margin_ticks = regulator_->margin_ticks();
  const InterpCounters& interp = interpolator_->counters();
  r.frames = interp.frames;
  r.held_frames = interp.held_frames;
  r.render_snaps = interp.snaps;
  r.max_burst = interp.max_burst;
  if (predictor_) {
    r.corrections = predictor_->stats().corrections;
    r.correction_p99_m = predictor_->stats().correction_m.quantile_m(0.99);
    r.correction_max_m = predictor_->stats().correction_m.max_m();
    r.prediction_snaps = predictor_->stats().snaps.total();
  }
  r.claims_accepted = counters_.claims_accepted;
  r.claims_corrected = counters_.claims_corrected;
  return r;
}

double GameClient::frame_alpha() const { return accumulator_ ? accumulator_->alpha() : 1.0; }

PredictionContext GameClient::prediction_context() const { return predictor_ ? predictor_->context() : PredictionContext{}; }

InterpProfile GameClient::own_kind_profile(uint8_t kind) const {
  const KindDef* def = session_.welcome()->contract.vocabulary.find_kind(kind);
  return def != nullptr ? def->profile : InterpProfile::standard;
}

InterpSample GameClient::own_pawn_sample() const {
  if (own_pawn_predicted_ || !interpolator_ || !welcomed_pawn_) return InterpSample{};
  return interpolator_->sample(EntityRef::from_raw(*welcomed_pawn_).handle(), own_profile_);
}

protocol::Vec3 GameClient::drawn_position() const {
  if (!own_pawn_predicted_) {
    const InterpSample own = own_pawn_sample();
    return own.state == SampleState::absent ? protocol::Vec3{} : own.sample.position_m;
  }
  return predictor_ && accumulator_ ? predictor_->drawn_position(accumulator_->alpha()) : protocol::Vec3{};
}

float GameClient::drawn_value(std::size_t index) const {
  if (!own_pawn_predicted_) return index < server_values_.size() ? server_values_[index].value : 0.0f;
  return predictor_ && accumulator_ ? predictor_->drawn_value(index, accumulator_->alpha()) : 0.0f;
}

std::vector<uint32_t> GameClient::take_snapshot_sizes() {
  std::vector<uint32_t> out;
  out.swap(snapshot_sizes_);
  return out;
}

}  // namespace tickwire

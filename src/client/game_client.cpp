// One player's client, frame by frame.
#include "tickwire/client/game_client.h"

#include <algorithm>
#include <variant>

namespace tickwire {

inline constexpr std::size_t kSnapshotSizeLogCap = 4096;  // sizes kept between two take_snapshot_sizes()

GameClient::GameClient(ReliableClient& transport, SchemaCache& cache, MonoTime now, const PredictionModel* model,
                       const SessionClientConfig& config)
    : session_(transport, cache, config), model_(model), last_frame_(now) {}

void GameClient::on_welcome(MonoTime now) {
  const protocol::RoomWelcome& welcome = *session_.welcome();
  const Duration period = Duration::from_seconds(1.0 / welcome.contract.cadence.tick_rate_hz);
  regulator_.emplace(period, ClockRegulatorSettings{}, now);
  accumulator_.emplace(period);
  interpolator_.emplace(InterpSettings::from_contract(welcome.contract), now);
  welcomed_pawn_ = welcome.pawn_ref;
  if (model_ != nullptr) {
    predictor_.emplace(*model_, 1.0 / welcome.contract.cadence.tick_rate_hz);
    predictor_->set_forgiveness(session_.forgiveness());
  }
}

void GameClient::take_snapshots(MonoTime now) {
  std::size_t bytes = 0;
  while (session_.pop_snapshot(snapshot_, &bytes)) {
    ++counters_.snapshots;
    counters_.snapshot_bytes += bytes;
    counters_.max_snapshot_bytes = std::max(counters_.max_snapshot_bytes, static_cast<uint32_t>(bytes));
    if (snapshot_sizes_.size() < kSnapshotSizeLogCap) snapshot_sizes_.push_back(static_cast<uint32_t>(bytes));
    const Tick tick = Tick::from_value(snapshot_.tick);
    if (snapshot_.owner) {
      regulator_->on_depth_reading(tick, snapshot_.owner->queue_depth, now);
      if (predictor_) (void)predictor_->reconcile(*snapshot_.owner);
    }
    samples_.clear();
    const uint32_t own = EntityRef::from_raw(*welcomed_pawn_).handle().raw();
    for (const protocol::Record& record : snapshot_.records) {
      const auto* entity = std::get_if<protocol::EntityRecord>(&record.body);
      if (entity == nullptr || record.entity_id == own) continue;  // our own pawn is predicted, not drawn late
      EntitySample sample;
      sample.entity = EntityNetHandle::from_raw(record.entity_id);
      sample.position_m = entity->position;
      sample.yaw_deg = entity->yaw_deg;
      sample.pitch_deg = entity->pitch_deg;
      sample.eye_height_m = entity->eye_height;
      sample.channel_count = static_cast<uint8_t>(std::min<std::size_t>(entity->payload.channels.size(), kSampleChannels));
      for (uint8_t c = 0; c < sample.channel_count; ++c) sample.channels[c] = entity->payload.channels[c].value;
      sample.bits = entity->payload.bits;
      samples_.push_back(sample);
    }
    (void)interpolator_->on_snapshot(tick, samples_);
  }
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
    regulator_->update(now, static_cast<uint32_t>(session_.inputs().pending_count()));
    const uint32_t ticks = accumulator_->advance(dt, regulator_->rate());
    for (uint32_t i = 0; i < ticks; ++i) {
      ++counters_.client_ticks;
      if (regulator_->holding()) {
        ++counters_.held_ticks;
        session_.resend_inputs();
        continue;
      }
      const uint32_t sequence = session_.inputs().next_sequence();
      const protocol::InputCmd cmd = input(sequence);
      std::optional<protocol::Claim> claim;
      if (predictor_) {
        predictor_->predict(sequence, cmd);
        claim = predictor_->claim();
      }
      if (session_.send_input(cmd, claim)) ++counters_.inputs_sent;
    }
    if (predictor_) predictor_->decay(dt);
    (void)interpolator_->frame(now);
  }
  session_.send(now);
}

std::vector<uint32_t> GameClient::take_snapshot_sizes() {
  std::vector<uint32_t> out;
  out.swap(snapshot_sizes_);
  return out;
}

}  // namespace tickwire

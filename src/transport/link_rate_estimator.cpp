// The delivery-rate estimate and the pacing phases. A sample's interval is the longer of its send
// and ack spans, so a burst of acks arriving together cannot read as a faster path than the one the
// packets crossed. The max filter only moves on in rounds where the sender was really pushing:
// a game that sends less than the path carries must not talk its own estimate down.
#include "tickwire/transport/link_rate_estimator.h"

#include <algorithm>
#include <limits>

#include "tickwire/core/assert.h"

namespace tickwire {
namespace {
constexpr double kStartupGain = 2.885;  // 2/ln 2: doubles the delivery rate every round trip
constexpr double kDrainGain = 1.0 / kStartupGain;
constexpr double kInflightGain = 2.0;   // in-flight cap, in bandwidth-delay products
constexpr double kFullPipeGrowth = 1.25;
constexpr uint64_t kStartupLossDivisor = 6;          // a sixth of a round's bytes lost ends startup
constexpr uint64_t kStartupLossMinBytes = 4 * 1200;  // ...and at least four packets' worth
constexpr std::array<double, LinkRateEstimator::kProbeCycle> kProbeGains = {1.25, 0.75, 1, 1, 1, 1, 1, 1};
constexpr Duration kMinSampleInterval = Duration::microseconds(1);
constexpr Duration kMinCyclePhase = Duration::milliseconds(1);
}  // namespace

LinkRateEstimator::LinkRateEstimator(const LinkRateConfig& config) : config_(config) {
  TW_ASSERT(config.initial_bytes_per_second > 0 && config.min_bytes_per_second > 0, "send rates must be positive");
  TW_ASSERT(config.max_bytes_per_second == 0 || config.max_bytes_per_second >= config.min_bytes_per_second,
            "max send rate below the minimum");
}

DeliveryStamp LinkRateEstimator::on_sent(MonoTime now, std::size_t bytes_in_flight) {
  if (bytes_in_flight == 0) {  // the flight restarts: an idle gap is not a slow path
    delivered_at_ = now;
    first_sent_at_ = now;
  }
  return DeliveryStamp{delivered_, delivered_at_, first_sent_at_, app_limited_};
}

void LinkRateEstimator::on_app_limited(std::size_t bytes_in_flight) {
  app_limited_until_ = delivered_ + std::max<std::size_t>(bytes_in_flight, 1);
  app_limited_ = true;
}

void LinkRateEstimator::on_rtt_sample(MonoTime now, Duration rtt) {
  if (!has_min_rtt_ || rtt <= min_rtt_ || now - min_rtt_at_ > kMinRttWindow) {
    min_rtt_ = rtt;
    min_rtt_at_ = now;
    has_min_rtt_ = true;
  }
}

void LinkRateEstimator::on_lost(std::size_t bytes) { round_lost_bytes_ += bytes; }

void LinkRateEstimator::on_acked(MonoTime now, MonoTime sent_at, std::size_t bytes, const DeliveryStamp& stamp,
                                 std::size_t bytes_in_flight) {
  delivered_ += bytes;
  round_acked_bytes_ += bytes;
  delivered_at_ = now;
  if (app_limited_ && delivered_ > app_limited_until_) app_limited_ = false;
  take_sample(now, sent_at, stamp);
  first_sent_at_ = sent_at;
  if (stamp.delivered_bytes >= next_round_delivered_) {
    next_round_delivered_ = delivered_;
    end_round();
  }
  advance_phase(now, bytes_in_flight);
}

void LinkRateEstimator::take_sample(MonoTime now, MonoTime sent_at, const DeliveryStamp& stamp) {
  const Duration interval = std::max(now - stamp.delivered_at, sent_at - stamp.first_sent_at);
  if (interval < kMinSampleInterval) return;
  const double rate = static_cast<double>(delivered_ - stamp.delivered_bytes) / interval.seconds_f();
  if (stamp.app_limited && rate <= bandwidth_) return;
  double& slot = round_max_[round_count_ % kBandwidthRounds];
  slot = std::max(slot, rate);
  bandwidth_ = std::max(bandwidth_, rate);
  round_pushed_ = round_pushed_ || !stamp.app_limited;
}

void LinkRateEstimator::end_round() {
  const uint64_t lost = round_lost_bytes_;
  const uint64_t sent = round_lost_bytes_ + round_acked_bytes_;
  round_lost_bytes_ = 0;
  round_acked_bytes_ = 0;
  if (phase_ == Phase::startup && lost >= kStartupLossMinBytes && lost * kStartupLossDivisor >= sent) {
    phase_ = Phase::drain;
  }
  if (!round_pushed_) return;  // an app-limited round neither ends startup nor ages the filter
  round_pushed_ = false;
  if (phase_ == Phase::startup) {
    if (bandwidth_ >= full_bandwidth_ * kFullPipeGrowth) {
      full_bandwidth_ = bandwidth_;
      full_rounds_ = 0;
    } else if (++full_rounds_ >= kFullPipeRounds) {
      phase_ = Phase::drain;
    }
  }
  ++round_count_;
  round_max_[round_count_ % kBandwidthRounds] = 0.0;
  bandwidth_ = *std::max_element(round_max_.begin(), round_max_.end());
}

void LinkRateEstimator::advance_phase(MonoTime now, std::size_t bytes_in_flight) {
  if (phase_ == Phase::drain && static_cast<double>(bytes_in_flight) <= bdp_bytes()) {
    phase_ = Phase::probe;
    cycle_index_ = 2;  // start in a steady phase: probing waits one cycle
    cycle_started_ = now;
  } else if (phase_ == Phase::probe && now - cycle_started_ >= std::max(min_rtt_, kMinCyclePhase)) {
    cycle_index_ = (cycle_index_ + 1) % kProbeCycle;
    cycle_started_ = now;
  }
}

double LinkRateEstimator::clamp_rate(double rate) const {
  rate = std::max(rate, config_.min_bytes_per_second);
  if (config_.max_bytes_per_second > 0) rate = std::min(rate, config_.max_bytes_per_second);
  return rate;
}

double LinkRateEstimator::bdp_bytes() const {
  return has_min_rtt_ ? bandwidth_ * min_rtt_.seconds_f() : 0.0;
}

double LinkRateEstimator::pacing_bytes_per_second() const {
  switch (phase_) {
    case Phase::startup:
      return clamp_rate(std::max(config_.initial_bytes_per_second, kStartupGain * bandwidth_));
    case Phase::drain:
      return clamp_rate(kDrainGain * bandwidth_);
    case Phase::probe:
      return clamp_rate(kProbeGains[cycle_index_] * bandwidth_);
  }
  return clamp_rate(bandwidth_);
}

double LinkRateEstimator::planning_bytes_per_second() const {
  return phase_ == Phase::startup ? pacing_bytes_per_second() : clamp_rate(bandwidth_);
}

std::size_t LinkRateEstimator::inflight_cap_bytes() const {
  if (!has_min_rtt_) return std::numeric_limits<std::size_t>::max();
  const double rate = phase_ == Phase::startup ? pacing_bytes_per_second() : bandwidth_;
  const double cap = kInflightGain * rate * min_rtt_.seconds_f();
  return std::max(config_.min_inflight_bytes, static_cast<std::size_t>(cap));
}

}  // namespace tickwire

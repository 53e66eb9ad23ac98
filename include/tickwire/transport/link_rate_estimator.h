// How many bytes per second the path to the peer delivers, and so how fast to send: without an
// estimate a reliable burst (a rest table, a 2 MB block) would leave as fast as the host can write
// and push the snapshots beside it into the bottleneck's queue. Every acked packet is a sample of
// the delivery rate (bytes acked since the packet left / time since then); the estimate is the
// largest recent sample, as in BBR, so random loss does not read as congestion. Pacing follows it
// with a gain that probes for more and drains what probing queued; in-flight bytes are capped at
// about two bandwidth-delay products. Our own code; QUIC's recovery draft, BBR and GNS's token
// bucket were the references (docs/reliability.md, "Send rate").
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "tickwire/clock/time.h"

namespace tickwire {

// The estimator's state when a packet left, kept in its sent record until it is acked.
struct DeliveryStamp {
  uint64_t delivered_bytes = 0;  // bytes the peer had acked by then
  MonoTime delivered_at;         // when the last of those was acked (or the flight restarted)
  MonoTime first_sent_at;        // when the packet acked last by then had left
  bool app_limited = false;      // the sender had less to send than the pacer allowed
};

struct LinkRateConfig {
  double initial_bytes_per_second = 1024.0 * 1024.0;  // the pacer's floor until the path is measured full
  double min_bytes_per_second = 32.0 * 1024.0;        // never pace below this
  double max_bytes_per_second = 0.0;                  // 0 = no cap
  std::size_t min_inflight_bytes = 16 * 1200;         // the in-flight cap never goes below this
};

class LinkRateEstimator {
 public:
  enum class Phase : uint8_t { startup, drain, probe };
  static constexpr std::size_t kBandwidthRounds = 10;  // the max filter's window, in round trips
  static constexpr int kFullPipeRounds = 3;            // rounds without 25% growth that end startup
  static constexpr std::size_t kProbeCycle = 8;        // gains per probe cycle (one per min RTT)
  static constexpr Duration kMinRttWindow = Duration::seconds(10);

  explicit LinkRateEstimator(const LinkRateConfig& config);

  // A packet leaves with `bytes_in_flight` already out (before it): the stamp to keep with it.
  DeliveryStamp on_sent(MonoTime now, std::size_t bytes_in_flight);
  // The sender wrote less than the pacer allowed: samples until what is in flight is acked may
  // only raise the estimate.
  void on_app_limited(std::size_t bytes_in_flight);
  // A packet the peer newly acked (one delivery-rate sample) and, if it elicited an ack, its RTT.
  void on_acked(MonoTime now, MonoTime sent_at, std::size_t bytes, const DeliveryStamp& stamp,
                std::size_t bytes_in_flight);
  void on_rtt_sample(MonoTime now, Duration rtt);
  // A packet of `bytes` was given up on. Startup ends early on a round that lost a sixth or more
  // of what it sent: the probe overflowed the bottleneck's queue (random loss stays well below).
  void on_lost(std::size_t bytes);

  // The largest recent delivery rate, bytes per second (0 until the first sample).
  double bottleneck_bytes_per_second() const { return bandwidth_; }
  // What the pacer lets out now: the estimate times the phase's gain, within [min, max]; never
  // below the initial rate before the path was measured full.
  double pacing_bytes_per_second() const;
  // What a sender should plan on per second: the pacing rate while still probing upward (startup),
  // the measured bottleneck once the path was found full.
  double planning_bytes_per_second() const;
  // Reliable data is sent only while in-flight bytes are below this.
  std::size_t inflight_cap_bytes() const;
  Phase phase() const { return phase_; }
  Duration min_rtt() const { return min_rtt_; }
  uint64_t rounds() const { return round_count_; }

 private:
  void take_sample(MonoTime now, MonoTime sent_at, const DeliveryStamp& stamp);
  void end_round();
  void advance_phase(MonoTime now, std::size_t bytes_in_flight);
  double clamp_rate(double rate) const;
  double bdp_bytes() const;

  LinkRateConfig config_;
  uint64_t delivered_ = 0;
  MonoTime delivered_at_;
  MonoTime first_sent_at_;
  uint64_t app_limited_until_ = 0;  // samples of packets sent before delivered_ passes this are app-limited
  bool app_limited_ = false;
  // Round trips: a round ends when a packet sent after it began is acked.
  uint64_t round_count_ = 0;
  uint64_t next_round_delivered_ = 0;
  bool round_pushed_ = false;  // a sample this round came from a sender that was not app-limited
  uint64_t round_acked_bytes_ = 0;
  uint64_t round_lost_bytes_ = 0;
  std::array<double, kBandwidthRounds> round_max_{};
  double bandwidth_ = 0.0;
  // Startup ends when the estimate stops growing.
  double full_bandwidth_ = 0.0;
  int full_rounds_ = 0;
  Phase phase_ = Phase::startup;
  std::size_t cycle_index_ = 0;
  MonoTime cycle_started_;
  Duration min_rtt_;
  MonoTime min_rtt_at_;
  bool has_min_rtt_ = false;
};

}  // namespace tickwire

// SessionQuality: what one client's session felt like, as figures a test, a bot or the demo can
// print and judge: the server queue depth the client was steered by (histogram, starved readings,
// when it settled at its target), the clock rate's range and how long each input took from being
// sent to being acked. GameClient feeds it; QualityReport adds the regulator's, the interpolator's
// and the predictor's counters and prints them as one block.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "tickwire/clock/time.h"
#include "tickwire/protocol/constants.h"

namespace tickwire {

// Depth readings below the floor (starved runs longer than 6 ticks) share the floor's bin.
inline constexpr int kQualityDepthFloorTicks = -6;
inline constexpr int kQualityDepthTopTicks = static_cast<int>(protocol::InputQueueTicks);
inline constexpr std::size_t kQualityDepthBins =
    static_cast<std::size_t>(kQualityDepthTopTicks - kQualityDepthFloorTicks + 1);
// The settle window: at most this many readings (one second at up to 240 Hz).
inline constexpr std::size_t kQualitySettleWindowCap = 240;
// Input send times kept for the latency figure (above the sender's ~2 s pending ring).
inline constexpr std::size_t kQualitySentCap = 256;
// Input-to-ack latency in 1 ms bins; anything at or past the cap shares the last bin.
inline constexpr std::size_t kQualityLatencyBinsMs = 1000;

struct SessionQualityConfig {
  // Settled: the mean depth over the trailing window is within the tolerance of the target, and
  // stays so for `settle_hold` (the session's settle time is when that run began).
  Duration settle_window = Duration::seconds(1);
  Duration settle_hold = Duration::seconds(5);
  double settle_tolerance_ticks = 0.5;
};

// The session's figures (GameClient::quality_report fills the counters of the other parts).
struct QualityReport {
  // Depth readings (one per snapshot with an owner detail), by depth in ticks, floor bin first.
  std::array<uint64_t, kQualityDepthBins> depth_histogram{};
  uint64_t readings = 0;
  uint64_t starved_readings = 0;  // negative depth: the server had no input for that tick
  std::optional<double> settle_s;  // from the welcome (merged: the latest, absent if any never settled)
  uint32_t sessions = 0;           // the sessions in this report (1, or more when merged)
  uint32_t settled_sessions = 0;   // of those, the ones whose depth settled
  uint64_t readings_after_settle = 0;
  uint64_t starved_after_settle = 0;
  uint64_t in_band_after_settle = 0;
  double min_rate = 1.0, max_rate = 1.0;
  uint64_t holds = 0;
  double margin_ticks = 0.0;
  // Input to ack: ms from the client sending an input to the snapshot acking it arriving.
  uint64_t acked_inputs = 0;
  double ack_p50_ms = 0.0, ack_p99_ms = 0.0, ack_max_ms = 0.0;
  // Interpolation of the remote entities.
  uint64_t frames = 0;
  uint64_t held_frames = 0;
  uint64_t render_snaps = 0;
  uint32_t max_burst = 0;
  // Prediction of the own pawn.
  uint64_t corrections = 0;
  double correction_p99_m = 0.0, correction_max_m = 0.0;
  uint64_t prediction_snaps = 0;
  // ClaimAccepted telemetry.
  uint64_t claims_accepted = 0, claims_corrected = 0;
};

// The report as a few indented lines, each starting with `name`.
std::string format_quality_report(std::string_view name, const QualityReport& report);
// Adds `b`'s counts to `a` (rates: the widest range; quantiles, settle, margin: the worst of the two).
void merge_quality_reports(QualityReport& a, const QualityReport& b);

class SessionQuality {
 public:
  SessionQuality(MonoTime start, double tick_rate_hz, const SessionQualityConfig& config = {});

  // One owner detail's depth byte and the target the regulator steers it to right after it.
  void on_depth_reading(int8_t depth, double target_ticks, MonoTime now);
  void on_rate(double rate);
  void on_input_sent(uint32_t sequence, MonoTime now);
  // A snapshot acked every input up to `sequence`.
  void on_ack(uint32_t sequence, MonoTime now);

  // Fills the figures this class keeps into `report` (leaves the other fields alone).
  void fill(QualityReport& report) const;

 private:
  double latency_quantile_ms(double q) const;

  SessionQualityConfig config_;
  MonoTime start_;
  std::size_t window_readings_;
  std::array<int8_t, kQualitySettleWindowCap> window_{};
  std::size_t window_count_ = 0;
  std::size_t window_next_ = 0;
  int64_t window_sum_ = 0;
  // The current in-band run: when it began and what it saw.
  std::optional<MonoTime> run_start_;
  uint64_t run_readings_ = 0;
  uint64_t run_starved_ = 0;
  QualityReport figures_;
  std::array<MonoTime, kQualitySentCap> sent_at_{};
  std::optional<uint32_t> first_sent_;
  uint32_t next_sent_ = 0;
  std::optional<uint32_t> last_acked_;
  std::array<uint64_t, kQualityLatencyBinsMs + 1> latency_bins_{};
};

}  // namespace tickwire

// The session's quality figures: the depth the clock was steered by and when it settled, the rate
// range and the input-to-ack latency, and the printed block a report shows for each client.
#include "tickwire/client/session_quality.h"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "tickwire/core/assert.h"

namespace tickwire {

SessionQuality::SessionQuality(MonoTime start, double tick_rate_hz, const SessionQualityConfig& config)
    : config_(config), start_(start) {
  TW_ASSERT(std::isfinite(tick_rate_hz) && tick_rate_hz > 0, "the tick rate must be positive");
  const double readings = std::round(config.settle_window.seconds_f() * tick_rate_hz);
  window_readings_ = std::clamp<std::size_t>(static_cast<std::size_t>(std::max(readings, 1.0)), 1, kQualitySettleWindowCap);
}

void SessionQuality::on_depth_reading(int8_t depth, double target_ticks, MonoTime now) {
  const int bin = std::clamp<int>(depth, kQualityDepthFloorTicks, kQualityDepthTopTicks) - kQualityDepthFloorTicks;
  ++figures_.depth_histogram[static_cast<std::size_t>(bin)];
  ++figures_.readings;
  const bool starved = depth < 0;
  if (starved) ++figures_.starved_readings;
  if (window_count_ == window_readings_) window_sum_ -= window_[window_next_];
  else ++window_count_;
  window_[window_next_] = depth;
  window_sum_ += depth;
  window_next_ = (window_next_ + 1) % window_readings_;
  const double mean = static_cast<double>(window_sum_) / static_cast<double>(window_count_);
  const bool in_band = window_count_ == window_readings_ && std::fabs(mean - target_ticks) <= config_.settle_tolerance_ticks;
  if (figures_.settle_s) {
    ++figures_.readings_after_settle;
    if (starved) ++figures_.starved_after_settle;
    if (in_band) ++figures_.in_band_after_settle;
    return;
  }
  if (!in_band) {
    run_start_.reset();
    run_readings_ = run_starved_ = 0;
    return;
  }
  if (!run_start_) run_start_ = now;
  ++run_readings_;
  if (starved) ++run_starved_;
  if (now - *run_start_ >= config_.settle_hold) {
    // Settled from the run's start: what the run saw counts as after settling.
    figures_.settle_s = (*run_start_ - start_).seconds_f();
    figures_.readings_after_settle = figures_.in_band_after_settle = run_readings_;
    figures_.starved_after_settle = run_starved_;
  }
}

void SessionQuality::on_rate(double rate) {
  figures_.min_rate = std::min(figures_.min_rate, rate);
  figures_.max_rate = std::max(figures_.max_rate, rate);
}

void SessionQuality::on_input_sent(uint32_t sequence, MonoTime now) {
  if (!first_sent_) first_sent_ = sequence;
  TW_ASSERT(sequence >= next_sent_ || next_sent_ == 0, "inputs are sent in sequence order");
  sent_at_[sequence % kQualitySentCap] = now;
  next_sent_ = sequence + 1;
}

void SessionQuality::on_ack(uint32_t sequence, MonoTime now) {
  if (!first_sent_ || sequence >= next_sent_) return;  // nothing sent, or an ack of an unsent input
  uint32_t from = last_acked_ ? *last_acked_ + 1 : *first_sent_;
  if (sequence < from) return;
  // Only the inputs whose send time is still kept (the newest kQualitySentCap).
  if (next_sent_ - from > kQualitySentCap) from = next_sent_ - static_cast<uint32_t>(kQualitySentCap);
  for (uint32_t s = from; s <= sequence; ++s) {
    const double ms = (now - sent_at_[s % kQualitySentCap]).milliseconds_f();
    const auto bin = static_cast<std::size_t>(std::clamp(ms, 0.0, static_cast<double>(kQualityLatencyBinsMs)));
    ++latency_bins_[std::min(bin, kQualityLatencyBinsMs)];
    ++figures_.acked_inputs;
    figures_.ack_max_ms = std::max(figures_.ack_max_ms, ms);
  }
  last_acked_ = sequence;
}

// The upper edge of the 1 ms bin holding the q-quantile (the largest sample when smaller).
double SessionQuality::latency_quantile_ms(double q) const {
  if (figures_.acked_inputs == 0) return 0.0;
  const auto rank = static_cast<uint64_t>(std::ceil(q * static_cast<double>(figures_.acked_inputs)));
  uint64_t seen = 0;
  for (std::size_t i = 0; i < latency_bins_.size(); ++i) {
    seen += latency_bins_[i];
    if (seen >= std::max<uint64_t>(rank, 1)) return std::min(static_cast<double>(i + 1), figures_.ack_max_ms);
  }
  return figures_.ack_max_ms;
}

void SessionQuality::fill(QualityReport& report) const {
  report.depth_histogram = figures_.depth_histogram;
  report.readings = figures_.readings;
  report.starved_readings = figures_.starved_readings;
  report.settle_s = figures_.settle_s;
  report.sessions = 1;
  report.settled_sessions = figures_.settle_s ? 1 : 0;
  report.readings_after_settle = figures_.readings_after_settle;
  report.starved_after_settle = figures_.starved_after_settle;
  report.in_band_after_settle = figures_.in_band_after_settle;
  report.min_rate = figures_.min_rate;
  report.max_rate = figures_.max_rate;
  report.acked_inputs = figures_.acked_inputs;
  report.ack_p50_ms = latency_quantile_ms(0.5);
  report.ack_p99_ms = latency_quantile_ms(0.99);
  report.ack_max_ms = figures_.ack_max_ms;
}

void merge_quality_reports(QualityReport& a, const QualityReport& b) {
  for (std::size_t i = 0; i < kQualityDepthBins; ++i) a.depth_histogram[i] += b.depth_histogram[i];
  a.readings += b.readings;
  a.starved_readings += b.starved_readings;
  if (!b.settle_s) a.settle_s.reset();
  else if (a.settle_s) a.settle_s = std::max(*a.settle_s, *b.settle_s);
  a.sessions += b.sessions;
  a.settled_sessions += b.settled_sessions;
  a.readings_after_settle += b.readings_after_settle;
  a.starved_after_settle += b.starved_after_settle;
  a.in_band_after_settle += b.in_band_after_settle;
  a.min_rate = std::min(a.min_rate, b.min_rate);
  a.max_rate = std::max(a.max_rate, b.max_rate);
  a.holds += b.holds;
  a.margin_ticks = std::max(a.margin_ticks, b.margin_ticks);
  a.acked_inputs += b.acked_inputs;
  a.ack_p50_ms = std::max(a.ack_p50_ms, b.ack_p50_ms);
  a.ack_p99_ms = std::max(a.ack_p99_ms, b.ack_p99_ms);
  a.ack_max_ms = std::max(a.ack_max_ms, b.ack_max_ms);
  a.frames += b.frames;
  a.held_frames += b.held_frames;
  a.render_snaps += b.render_snaps;
  a.max_burst = std::max(a.max_burst, b.max_burst);
  a.corrections += b.corrections;
  a.correction_p99_m = std::max(a.correction_p99_m, b.correction_p99_m);
  a.correction_max_m = std::max(a.correction_max_m, b.correction_max_m);
  a.prediction_snaps += b.prediction_snaps;
  a.claims_accepted += b.claims_accepted;
  a.claims_corrected += b.claims_corrected;
}

namespace {

double percent(uint64_t part, uint64_t whole) {
  return whole != 0 ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0;
}

}  // namespace

std::string format_quality_report(std::string_view name, const QualityReport& r) {
  using ull = unsigned long long;
  const std::string n(name);
  char line[512];
  std::string out;
  std::snprintf(line, sizeof line, "%s depth:", n.c_str());
  out += line;
  for (std::size_t i = 0; i < kQualityDepthBins; ++i) {
    if (r.depth_histogram[i] == 0) continue;
    const int depth = static_cast<int>(i) + kQualityDepthFloorTicks;
    std::snprintf(line, sizeof line, depth == kQualityDepthFloorTicks ? " <=%d:%llu" : " %d:%llu", depth,
                  static_cast<ull>(r.depth_histogram[i]));
    out += line;
  }
  char settle[48] = "never";
  if (r.settle_s) std::snprintf(settle, sizeof settle, "%.2f s", *r.settle_s);
  if (r.sessions > 1) {
    const std::size_t used = std::strlen(settle);
    std::snprintf(settle + used, sizeof settle - used, " (%u/%u settled)", r.settled_sessions, r.sessions);
  }
  std::snprintf(line, sizeof line, "\n%s clock: settle %s, starved %llu/%llu (%.3f%%), after settle %llu/%llu (%.3f%%, "
                "%.1f%% in band), rate x%.4f..x%.4f, holds %llu, margin %.1f t\n",
                n.c_str(), settle,
                static_cast<ull>(r.starved_readings), static_cast<ull>(r.readings), percent(r.starved_readings, r.readings),
                static_cast<ull>(r.starved_after_settle), static_cast<ull>(r.readings_after_settle),
                percent(r.starved_after_settle, r.readings_after_settle),
                percent(r.in_band_after_settle, r.readings_after_settle), r.min_rate, r.max_rate,
                static_cast<ull>(r.holds), r.margin_ticks);
  out += line;
  std::snprintf(line, sizeof line, "%s input->ack: %llu inputs, p50 %.0f ms, p99 %.0f ms, max %.0f ms\n", n.c_str(),
                static_cast<ull>(r.acked_inputs), r.ack_p50_ms, r.ack_p99_ms, r.ack_max_ms);
  out += line;
  std::snprintf(line, sizeof line, "%s interp: %llu frames, held %llu, snaps %llu, burst %u | prediction: %llu corrections, "
                "p99 %.3f m, max %.3f m, snaps %llu | claims: %llu accepted, %llu corrected\n",
                n.c_str(), static_cast<ull>(r.frames), static_cast<ull>(r.held_frames), static_cast<ull>(r.render_snaps),
                r.max_burst, static_cast<ull>(r.corrections), r.correction_p99_m, r.correction_max_m,
                static_cast<ull>(r.prediction_snaps), static_cast<ull>(r.claims_accepted),
                static_cast<ull>(r.claims_corrected));
  out += line;
  return out;
}

}  // namespace tickwire

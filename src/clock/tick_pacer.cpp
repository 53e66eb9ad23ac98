// The pacer's achieved-rate measurement and its rate-limited low-rate warning.
#include "tickwire/clock/tick_pacer.h"

#include <spdlog/spdlog.h>

#include <cmath>

#include "tickwire/core/assert.h"

namespace tickwire {

TickPacer::TickPacer(HostTimer& timer, const TickPacerConfig& config, std::shared_ptr<spdlog::logger> logger)
    : config_(config),
      wait_(timer, config.wait),
      logger_(logger ? std::move(logger) : spdlog::default_logger()),
      measured_hz_(config.tick_rate_hz) {
  TW_ASSERT(std::isfinite(config.tick_rate_hz) && config.tick_rate_hz > 0.0, "tick rate must be positive");
  TW_ASSERT(config.rate_window.ns() > 0, "the rate window must be positive");
}

void TickPacer::record_ticks(MonoTime now, uint32_t ticks) {
  if (!window_open_) {
    // The first report opens the window; its ticks ran before it, so they are not counted.
    window_open_ = true;
    window_start_ = now;
    window_ticks_ = 0;
    return;
  }
  window_ticks_ += ticks;
  if (now - window_start_ >= config_.rate_window) close_window(now);
}

void TickPacer::close_window(MonoTime now) {
  measured_hz_ = static_cast<double>(window_ticks_) / (now - window_start_).seconds_f();
  window_start_ = now;
  window_ticks_ = 0;
  if (measured_hz_ >= config_.rate_warn_fraction * config_.tick_rate_hz) return;
  ++windows_below_;
  if (warned_once_ && now - last_warning_ < config_.rate_warn_interval) return;
  warned_once_ = true;
  last_warning_ = now;
  ++rate_warnings_;
  logger_->warn("tick rate {:.1f} Hz is below {:.0f}% of the nominal {:.1f} Hz; host sleep overshoot factor {:.2f}",
                measured_hz_, config_.rate_warn_fraction * 100.0, config_.tick_rate_hz, sleep_factor());
}

}  // namespace tickwire

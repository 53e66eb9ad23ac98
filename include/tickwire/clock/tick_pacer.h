// TickPacer: paces a fixed-tick loop against real (or simulated) host time. It waits for the room
// clock's next due time through a DeadlineWait, measures the tick rate the loop really achieves,
// and says so in the log (rate-limited) when that falls below a fraction of nominal, naming the
// measured Hz and the learned sleep-overshoot factor. A loop that is behind is not made to wait.
#pragma once

#include <cstdint>
#include <memory>

#include "tickwire/clock/deadline_wait.h"
#include "tickwire/clock/host_timer.h"
#include "tickwire/clock/time.h"

namespace spdlog {
class logger;
}

namespace tickwire {

struct TickPacerConfig {
  double tick_rate_hz = 60.0;
  DeadlineWaitConfig wait;                                      // spin window, max_spin, factor law
  double rate_warn_fraction = 0.9;                              // warn below this share of nominal
  Duration rate_warn_interval = Duration::seconds(10);          // at most one warning per interval
  Duration rate_window = Duration::seconds(2);                  // the achieved rate's measuring window
};

class TickPacer {
 public:
  // `logger` null: spdlog's default logger.
  TickPacer(HostTimer& timer, const TickPacerConfig& config, std::shared_ptr<spdlog::logger> logger = nullptr);

  // Waits until `deadline` (usually RoomClock::next_due()); returns at once if it has passed.
  WaitReport wait_until(MonoTime deadline) { return wait_.wait_until(deadline); }

  // Reports the ticks the loop simulated in the iteration that ran at `now`.
  void record_ticks(MonoTime now, uint32_t ticks);

  // The achieved rate over the last completed window (nominal until one completes).
  double measured_hz() const { return measured_hz_; }
  double sleep_factor() const { return wait_.sleep_factor(); }
  uint64_t rate_warnings() const { return rate_warnings_; }
  uint64_t windows_below_threshold() const { return windows_below_; }
  const DeadlineWait& wait() const { return wait_; }
  const TickPacerConfig& config() const { return config_; }

 private:
  void close_window(MonoTime now);

  TickPacerConfig config_;
  DeadlineWait wait_;
  std::shared_ptr<spdlog::logger> logger_;
  bool window_open_ = false;
  MonoTime window_start_;
  uint64_t window_ticks_ = 0;
  double measured_hz_;
  bool warned_once_ = false;
  MonoTime last_warning_;
  uint64_t rate_warnings_ = 0;
  uint64_t windows_below_ = 0;
};

}  // namespace tickwire

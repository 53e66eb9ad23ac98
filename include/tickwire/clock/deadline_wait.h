// DeadlineWait: block until a MonoTime deadline by sleeping most of the budget and spinning the
// last ~2 ms, the wait the server's TickPacer and the client's frame limiter share. Sleeps are
// requested as budget / learned overshoot factor; spinning is capped per wait (max_spin) so a
// pathological timer costs a slice of a core rather than all of one.
#pragma once

#include <cstdint>

#include "tickwire/clock/host_timer.h"
#include "tickwire/clock/sleep_factor.h"
#include "tickwire/clock/time.h"

namespace tickwire {

// Sleep/spin rounds one wait may take (each round is one sleep or one bounded spin).
inline constexpr uint32_t kDeadlineWaitMaxRounds = 64;
// Pause iterations one spin may take: a guard against a clock that does not move.
inline constexpr uint64_t kDeadlineWaitMaxPauses = uint64_t{1} << 22;

struct DeadlineWaitConfig {
  Duration spin_window = Duration::milliseconds(2);  // the tail of each wait that is spun
  Duration max_spin = Duration::milliseconds(4);     // spin allowance per wait
  Duration min_sleep = Duration::milliseconds(1);    // a smaller request is spun instead
  SleepFactorConfig factor;
};

struct WaitReport {
  Duration slept;          // host time spent in sleeps
  Duration spun;           // host time spent spinning
  uint32_t sleeps = 0;
  bool spin_capped = false;  // the spin allowance ran out before the deadline
  Duration late;             // how far past the deadline the wait returned (0 if on time)
};

class DeadlineWait {
 public:
  DeadlineWait(HostTimer& timer, const DeadlineWaitConfig& config = {});

  // Returns at `deadline` or as soon after as the host allows; at once if it has passed.
  WaitReport wait_until(MonoTime deadline);

  double sleep_factor() const { return factor_.value(); }
  const DeadlineWaitConfig& config() const { return config_; }
  uint64_t waits() const { return waits_; }
  uint64_t spin_capped_waits() const { return spin_capped_waits_; }
  Duration total_spun() const { return total_spun_; }
  Duration total_slept() const { return total_slept_; }
  Duration longest_spin() const { return longest_spin_; }

 private:
  void sleep_for(Duration request, WaitReport& report);
  void spin_until(MonoTime deadline, Duration allowance, WaitReport& report);
  void book(const WaitReport& report);

  HostTimer& timer_;
  DeadlineWaitConfig config_;
  SleepFactor factor_;
  uint64_t waits_ = 0;
  uint64_t spin_capped_waits_ = 0;
  Duration total_spun_;
  Duration total_slept_;
  Duration longest_spin_;
};

}  // namespace tickwire

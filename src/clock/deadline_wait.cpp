// The sleep-then-spin wait. Each round reads the host clock, then either sleeps (budget minus the
// spin window, divided by the learned factor), spins (bounded by the per-wait allowance), or, once
// the allowance is spent, sleeps the remainder and accepts a late wake.
#include "tickwire/clock/deadline_wait.h"

#include <algorithm>

#include "tickwire/core/assert.h"

namespace tickwire {

DeadlineWait::DeadlineWait(HostTimer& timer, const DeadlineWaitConfig& config)
    : timer_(timer), config_(config), factor_(config.factor) {
  TW_ASSERT(config.spin_window.ns() >= 0 && config.max_spin.ns() >= 0, "spin durations must not be negative");
  TW_ASSERT(config.min_sleep.ns() > 0, "the smallest sleep must be positive");
}

WaitReport DeadlineWait::wait_until(MonoTime deadline) {
  WaitReport report;
  for (uint32_t round = 0; round < kDeadlineWaitMaxRounds; ++round) {
    const Duration remaining = deadline - timer_.now();
    if (remaining.ns() <= 0) break;
    const Duration request = factor_.request_for(remaining - config_.spin_window);
    if (request >= config_.min_sleep) {
      sleep_for(request, report);
      continue;
    }
    if (report.spun < config_.max_spin) {
      spin_until(deadline, config_.max_spin - report.spun, report);
      continue;
    }
    // The spin allowance is spent and the deadline is still ahead: sleep the rest and accept a
    // late wake rather than burning the core.
    report.spin_capped = true;
    sleep_for(std::max(factor_.request_for(remaining), Duration::nanoseconds(1)), report);
  }
  const Duration past = timer_.now() - deadline;
  report.late = past.ns() > 0 ? past : Duration{};
  book(report);
  return report;
}

void DeadlineWait::sleep_for(Duration request, WaitReport& report) {
  const MonoTime before = timer_.now();
  timer_.sleep(request);
  const Duration actual = timer_.now() - before;
  factor_.observe(request, actual);
  report.slept += actual;
  ++report.sleeps;
}

void DeadlineWait::spin_until(MonoTime deadline, Duration allowance, WaitReport& report) {
  const MonoTime start = timer_.now();
  MonoTime now = start;
  for (uint64_t i = 0; i < kDeadlineWaitMaxPauses && now < deadline && now - start < allowance; ++i) {
    timer_.pause();
    now = timer_.now();
  }
  report.spun += now - start;
}

void DeadlineWait::book(const WaitReport& report) {
  ++waits_;
  if (report.spin_capped) ++spin_capped_waits_;
  total_spun_ += report.spun;
  total_slept_ += report.slept;
  longest_spin_ = std::max(longest_spin_, report.spun);
}

}  // namespace tickwire

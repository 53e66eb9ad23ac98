// The matchmaker's runner (match_runner.h). The directory's listing is judged by the wall clock, read
// here (apps own the clocks); the matchmaker's cadence is the desk's monotonic clock.
#include "match_runner.h"

#include <spdlog/spdlog.h>

#include <utility>

#include "tickwire/clock/system_clock.h"

namespace tickwire::cli {

MatchRunner::MatchRunner(durable::FleetDirectory& directory, MatchDesk& desk, const MatchRunnerConfig& config)
    : directory_(directory), desk_(desk), config_(config) {}

void MatchRunner::run(MonoTime now) {
  heartbeat_.beat(now);
  if (!started_ || now >= next_sweep_) {
    sweep();
    next_sweep_ = now + config_.sweep_every;
  }
  if (!started_ || now >= next_poll_) {
    poll();
    next_poll_ = now + config_.poll;
  } else {
    desk_.update();
  }
  started_ = true;
}

void MatchRunner::poll() {
  auto listed = directory_.list(wall_now());
  if (const durable::StoreFailure* failure = durable::store_failure(listed)) {
    spdlog::debug("tickwire match: listing the directory: {}", failure->detail);
    desk_.with([](MatchState& state, MonoTime now) {
      ++state.listing_failures;
      state.matchmaker.update(now);
    });
    return;
  }
  (void)desk_.take_listing(std::move(std::get<durable::DirectoryListing>(listed)));
}

void MatchRunner::sweep() {
  const auto swept = directory_.sweep(wall_now());
  if (const durable::StoreFailure* failure = durable::store_failure(swept)) {
    spdlog::debug("tickwire match: sweeping the directory: {}", failure->detail);
    desk_.with([](MatchState& state, MonoTime) { ++state.sweep_failures; });
  }
}

}  // namespace tickwire::cli

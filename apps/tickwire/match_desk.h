// `tickwire match`'s shared state: the matchmaker as two threads use it, the runner's loop feeding it
// listings on its cadence and the HTTP endpoint's thread answering players. One mutex guards the
// matchmaker, the seated roll call, the last good listing and the counters, and every caller reads
// the clock inside the lock, so the matchmaker only ever sees time go forward whoever calls it. The
// store is never touched under the lock: the runner lists first and hands the listing in.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>

#include "tickwire/clock/time.h"
#include "tickwire/core/reason_counters.h"
#include "tickwire/durable/fleet_directory.h"
#include "tickwire/fleet/http_endpoint.h"
#include "tickwire/fleet/match_request.h"
#include "tickwire/fleet/matchmaker.h"
#include "tickwire/fleet/seat_roll_call.h"

namespace tickwire::cli {

// What the desk holds, as a caller sees it under the lock.
struct MatchState {
  explicit MatchState(const fleet::MatchmakerConfig& config) : matchmaker(config) {}

  fleet::Matchmaker matchmaker;
  fleet::SeatRollCall roll_call;
  durable::DirectoryListing listing;  // the last good one (/fleet)
  fleet::ListingView view;            // what it changed
  uint64_t listings = 0;              // good listings taken
  uint64_t listing_failures = 0;      // listings the store failed (the last good one stayed)
  uint64_t sweep_failures = 0;
  ReasonCounters<fleet::MatchRequestRefusal> request_refusals;  // requests answered 400
};

class MatchDesk {
 public:
  MatchDesk(const fleet::MatchmakerConfig& config, std::function<MonoTime()> clock);

  // `work(state, now)` under the lock, `now` read from the clock inside it.
  template <class Work>
  auto with(Work&& work) {
    const std::lock_guard<std::mutex> lock(mutex_);
    return work(state_, clock_());
  }
  template <class Work>
  auto with(Work&& work) const {
    const std::lock_guard<std::mutex> lock(mutex_);
    return work(static_cast<const MatchState&>(state_), clock_());
  }

  // The runner's thread. A good listing: observed, its roll call taken, kept for /fleet.
  fleet::RollCall take_listing(durable::DirectoryListing listing);
  // Lapses and promotions settled without anyone asking.
  void update();

  // The HTTP endpoint serving the desk, for its refusal counts in /metrics: set once it serves (its
  // handlers, the only readers, run on its thread while it stands).
  void attach(const fleet::HttpEndpoint* endpoint) { endpoint_.store(endpoint, std::memory_order_release); }
  const fleet::HttpEndpoint* endpoint() const { return endpoint_.load(std::memory_order_acquire); }

 private:
  std::function<MonoTime()> clock_;
  mutable std::mutex mutex_;
  MatchState state_;  // guarded by mutex_
  std::atomic<const fleet::HttpEndpoint*> endpoint_{nullptr};
};

}  // namespace tickwire::cli

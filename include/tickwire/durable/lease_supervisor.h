// LeaseSupervisor (seed 003, "Authority and prediction admission"): one process's hold on one
// room's single-writer lease. It acquires the lease, renews it once a fraction of its term has
// passed, and surrenders authority the moment it cannot be sure it still holds it: a renewal the
// store refuses (another holder took it) or a term that ran out while the store could not be
// reached. Authority is held only while the term has a safety margin left, so a stalled holder
// stops before another can take over; every durable write carries the fence besides, and the
// store refuses a stale one, so even a holder that missed all of this cannot write. Time is a
// parameter (the caller's wall clock), so a contention test runs a thousand terms in a second.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "tickwire/core/reason_counters.h"
#include "tickwire/durable/store.h"

namespace tickwire::durable {

struct LeaseSupervisorConfig {
  Duration term = Duration::seconds(10);
  double renew_after = 1.0 / 3.0;  // of the term: renew once this much of it has passed
  double margin = 0.2;             // of the term: authority ends this long before the term does
};

// Why a holder gave up its authority.
TW_REASONS(LeaseSurrender,
           lost,          // a renewal refused: the lease is another holder's now
           ran_out,       // the store could not be reached until the term (less its margin) ran out
           released)      // given up on purpose (a drain, a shutdown)

class LeaseSupervisor {
 public:
  LeaseSupervisor(Store& store, std::string room, std::string owner, const LeaseSupervisorConfig& config = {});

  // One look at the lease at wall time `now` (call it every tick or every few): acquires when not
  // holding, renews when due, surrenders when it must. Returns whether this process holds
  // authority over the room now.
  bool poll(WallTime now);
  // Whether it may advance and write the room at `now`: holding, with the margin left of the term.
  bool authority(WallTime now) const;
  // When authority ends unless a renewal lands first (nullopt: not holding).
  std::optional<WallTime> authority_until() const;
  // Gives the lease up (the store ends its term now), so another can take it at once.
  void release();

  const std::optional<Lease>& lease() const { return lease_; }
  const std::string& room() const { return room_; }
  const std::string& owner() const { return owner_; }
  uint64_t acquisitions() const { return acquisitions_; }
  uint64_t renewals() const { return renewals_; }
  uint64_t store_failures() const { return store_failures_; }  // calls the store could not answer
  const ReasonCounters<LeaseSurrender>& surrenders() const { return surrenders_; }

 private:
  void surrender(LeaseSurrender why);

  Store& store_;
  std::string room_;
  std::string owner_;
  LeaseSupervisorConfig config_;
  std::optional<Lease> lease_;
  WallTime renewed_at_;
  uint64_t acquisitions_ = 0;
  uint64_t renewals_ = 0;
  uint64_t store_failures_ = 0;
  ReasonCounters<LeaseSurrender> surrenders_;
};

}  // namespace tickwire::durable

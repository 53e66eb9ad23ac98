// The lease supervisor: acquire, renew on a fraction of the term, surrender on a refused renewal or
// a term that ran out unrenewed.
#include "tickwire/durable/lease_supervisor.h"

#include <spdlog/spdlog.h>

#include <utility>

namespace tickwire::durable {
namespace {

Duration fraction_of(Duration d, double f) { return Duration::from_seconds(d.seconds_f() * f); }

}  // namespace

LeaseSupervisor::LeaseSupervisor(Store& store, std::string room, std::string owner, const LeaseSupervisorConfig& config)
    : store_(store), room_(std::move(room)), owner_(std::move(owner)), config_(config) {}

std::optional<WallTime> LeaseSupervisor::authority_until() const {
  if (!lease_) return std::nullopt;
  return lease_->expires_at - fraction_of(config_.term, config_.margin);
}

bool LeaseSupervisor::authority(WallTime now) const {
  const std::optional<WallTime> until = authority_until();
  return until.has_value() && now < *until;
}

bool LeaseSupervisor::poll(WallTime now) {
  if (lease_ && !authority(now)) surrender(LeaseSurrender::ran_out);  // no renewal landed in time
  if (!lease_) {
    auto taken = store_.acquire(room_, owner_, now, config_.term);
    if (const StoreFailure* f = store_failure(taken)) {
      if (f->reason != StoreRefusal::held_elsewhere) ++store_failures_;
      return false;
    }
    lease_ = std::get<Lease>(std::move(taken));
    renewed_at_ = now;
    ++acquisitions_;
    spdlog::info("lease: {} holds room {} (fence {})", owner_, room_, lease_->fence);
    return authority(now);
  }
  if (now - renewed_at_ >= fraction_of(config_.term, config_.renew_after)) {
    auto renewed = store_.renew(*lease_, now, config_.term);
    if (const StoreFailure* f = store_failure(renewed)) {
      if (f->reason == StoreRefusal::lease_lost) {
        surrender(LeaseSurrender::lost);
      } else {
        ++store_failures_;  // tried again next poll; authority ends at the margin meanwhile
      }
    } else {
      lease_ = std::get<Lease>(std::move(renewed));
      renewed_at_ = now;
      ++renewals_;
    }
  }
  return authority(now);
}

void LeaseSupervisor::release() {
  if (!lease_) return;
  (void)store_.release(*lease_);
  surrender(LeaseSurrender::released);
}

void LeaseSupervisor::surrender(LeaseSurrender why) {
  spdlog::warn("lease: {} surrenders room {} (fence {}): {}; the room stops advancing here", owner_, room_, lease_->fence,
               reason_name(why));
  surrenders_.add(why);
  lease_.reset();
}

}  // namespace tickwire::durable

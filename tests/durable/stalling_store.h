// A real store seen through a link that can stall: while stalled, every call fails `unavailable`
// without reaching the database (a process cut off from its store: a partition, a stalled disk, a
// database failing over). Not a mock: every call that is let through is the real store's answer.
#pragma once

#include <atomic>
#include <memory>
#include <utility>

#include "tickwire/durable/store.h"

namespace tickwire::durable::test_support {

class StallingStore final : public Store {
 public:
  explicit StallingStore(std::unique_ptr<Store> real) : real_(std::move(real)) {}
  void set_stalled(bool stalled) { stalled_ = stalled; }
  bool stalled() const { return stalled_; }

  std::string_view backend() const override { return real_->backend(); }
  uint32_t schema_version() const override { return real_->schema_version(); }
  StoreResult<Lease> acquire(std::string_view room, std::string_view owner, WallTime now, Duration term) override {
    if (stalled_) return cut();
    return real_->acquire(room, owner, now, term);
  }
  StoreResult<Lease> renew(const Lease& lease, WallTime now, Duration term) override {
    if (stalled_) return cut();
    return real_->renew(lease, now, term);
  }
  StoreStatus release(const Lease& lease) override { return stalled_ ? StoreStatus{cut()} : real_->release(lease); }
  StoreResult<std::optional<Lease>> lease_of(std::string_view room) override {
    if (stalled_) return cut();
    return real_->lease_of(room);
  }
  StoreResult<TickEpoch> epoch(std::string_view room) override {
    if (stalled_) return cut();
    return real_->epoch(room);
  }
  StoreStatus advance_epoch(const Lease& lease, TickEpoch epoch) override {
    return stalled_ ? StoreStatus{cut()} : real_->advance_epoch(lease, epoch);
  }
  StoreStatus append(const Lease& lease, const JournalEntry& entry) override {
    return stalled_ ? StoreStatus{cut()} : real_->append(lease, entry);
  }
  StoreResult<std::vector<JournalEntry>> journal_after(std::string_view room, uint64_t after) override {
    if (stalled_) return cut();
    return real_->journal_after(room, after);
  }
  StoreStatus write_checkpoint(const Lease& lease, const Checkpoint& checkpoint) override {
    return stalled_ ? StoreStatus{cut()} : real_->write_checkpoint(lease, checkpoint);
  }
  StoreResult<std::optional<Checkpoint>> latest_checkpoint(std::string_view room) override {
    if (stalled_) return cut();
    return real_->latest_checkpoint(room);
  }
  StoreStatus trim_journal(const Lease& lease, uint64_t through) override {
    return stalled_ ? StoreStatus{cut()} : real_->trim_journal(lease, through);
  }
  StoreStatus use_resume_token(std::string_view room, std::span<const uint8_t> id, WallTime expires_at, WallTime now) override {
    return stalled_ ? StoreStatus{cut()} : real_->use_resume_token(room, id, expires_at, now);
  }

 private:
  static StoreFailure cut() { return StoreFailure{StoreRefusal::unavailable, "stalled"}; }

  std::unique_ptr<Store> real_;
  std::atomic<bool> stalled_ = false;
};

}  // namespace tickwire::durable::test_support

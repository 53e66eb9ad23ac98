// ShardBurner: a room on a shard that only burns its thread's time, for `tickwire shards --burn`:
// each tick it spins the share of the tick period it is told (changed from any thread), so the
// shard's ladder can be watched engaging and releasing under a known load. Never moved: it is the
// load, not a room the shard ladder should relieve by moving.
#pragma once

#include <atomic>
#include <cstdint>

#include "tickwire/clock/host_timer.h"
#include "tickwire/fleet/shard_room.h"

namespace tickwire::cli {

class ShardBurner final : public ShardRoom {
 public:
  ShardBurner(HostTimer& timer, const NetcodeContract& contract, MonoTime start)
      : timer_(timer), contract_(contract),
        period_(tick_period_of(contract)), next_(start) {}

  // The share of each tick period it spins, 0..100 (any thread).
  void set_percent(double percent) { percent_ = percent; }
  double percent() const { return percent_; }

  MonoTime next_due() const override { return next_; }
  uint32_t run(MonoTime now) override {
    const uint32_t ticks = take_due_ticks(next_, period_, now);
    const MonoTime until = now + Duration::from_seconds(period_.seconds_f() * percent_ / 100.0);
    while (timer_.now() < until) timer_.pause();
    return ticks;
  }
  void shed(const RoomShedding&) override {}
  const NetcodeContract& contract() const override { return contract_; }
  double measured_hz() const override { return 1e9 / static_cast<double>(period_.ns()); }
  bool movable() const override { return false; }

 private:
  HostTimer& timer_;
  NetcodeContract contract_;
  Duration period_;
  MonoTime next_;
  std::atomic<double> percent_{0.0};
};

}  // namespace tickwire::cli

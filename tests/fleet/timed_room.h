// TimedRoom: a room for shard tests that costs host time and nothing else. Each tick it runs takes
// `cost_per_tick` of the host's clock (a SimHostTimer advanced, or a real one spun), it counts its
// ticks, and it keeps every shedding it was told. A burner is a TimedRoom that is not movable.
#pragma once

#include <cstdint>
#include <vector>

#include "tickwire/clock/host_timer.h"
#include "tickwire/clock/sim_host_timer.h"
#include "tickwire/fleet/shard_room.h"
#include "tickwire/protocol/room_policy.h"

namespace tickwire::test {

inline NetcodeContract shard_test_contract() {
  RoomPolicy policy;
  policy.identity = {"room-1", "tickwire", "local", "1", "dev", "", ""};
  return resolve_netcode_contract(policy).contract.value();
}

class TimedRoom final : public ShardRoom {
 public:
  // `sim` non-null: the cost advances it; else the cost is spun on `timer`.
  TimedRoom(HostTimer& timer, SimHostTimer* sim, MonoTime start, Duration cost_per_tick, bool movable = true)
      : timer_(timer), sim_(sim), contract_(shard_test_contract()),
        period_(tick_period_of(contract_)), next_(start),
        cost_(cost_per_tick), movable_(movable) {}

  MonoTime next_due() const override { return next_; }
  uint32_t run(MonoTime now) override {
    const uint32_t ticks = take_due_ticks(next_, period_, now);
    ticks_ += ticks;
    const Duration cost = cost_ * ticks;
    if (sim_ != nullptr) {
      sim_->advance(cost);
    } else {
      const MonoTime until = timer_.now() + cost;
      while (timer_.now() < until) timer_.pause();
    }
    return ticks;
  }
  void shed(const RoomShedding& shedding) override { sheds_.push_back(shedding); }
  const NetcodeContract& contract() const override { return contract_; }
  double measured_hz() const override { return 0.0; }
  bool movable() const override { return movable_; }

  void set_cost(Duration cost_per_tick) { cost_ = cost_per_tick; }
  uint64_t ticks() const { return ticks_; }
  const std::vector<RoomShedding>& sheds() const { return sheds_; }
  Duration period() const { return period_; }

 private:
  HostTimer& timer_;
  SimHostTimer* sim_;
  NetcodeContract contract_;
  Duration period_;
  MonoTime next_;
  Duration cost_;
  bool movable_;
  uint64_t ticks_ = 0;
  std::vector<RoomShedding> sheds_;
};

}  // namespace tickwire::test

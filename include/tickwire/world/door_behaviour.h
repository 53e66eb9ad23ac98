// The door (a mover): an open fraction in [0, 1] that travels toward open (1) or closed (0) at its
// speed, one step per logic tick (scaled by the world time scale). It replicates the fraction on channel 0 and, on channel 1, the
// signed change the next tick will make (seed 000: the Quake 3 mover trajectory a client predicts
// with). At the end of travel it fires onOpened or onClosed, and channel 1 is written after that
// output has run, so on the tick wiring bounces it back the rate already carries the way back.
#pragma once

#include <string_view>

#include "tickwire/world/object_behaviour.h"

namespace tickwire::world {

struct DoorSettings {
  double step_per_tick = 0.05;  // open fraction per logic tick at time scale 1: speed x tick length / distance
  double start_fraction = 0;    // the authored channel 0
  bool usable = false;          // a Use toggles it
};

// The fraction a door travels per tick: `speed_mps` along `distance_m` at `seconds_per_tick` of game
// time per tick (at least one tick's worth of travel, at most the whole way).
double door_step_per_tick(double speed_mps, double distance_m, double seconds_per_tick);

class DoorBehaviour final : public ObjectBehaviour {
 public:
  static constexpr std::string_view kOpen = "open";
  static constexpr std::string_view kClose = "close";
  static constexpr std::string_view kToggle = "toggle";  // closes if opening or open, else opens
  static constexpr std::string_view kOnOpened = "onOpened";
  static constexpr std::string_view kOnClosed = "onClosed";
  static constexpr std::size_t kFractionChannel = 0;
  static constexpr std::size_t kRateChannel = 1;

  explicit DoorBehaviour(const DoorSettings& settings);
  // A scene edit retuned its settings: the speed from the next step (a moving door keeps its travel
  // and its fraction), whether a Use toggles it from now on; the start fraction was the load's.
  void retune(const DoorSettings& settings) {
    settings_.step_per_tick = settings.step_per_tick;
    settings_.usable = settings.usable;
  }

  std::string_view kind() const override { return "mover"; }
  LogicInputResult input(std::string_view name, const LogicSignal& signal, LogicContext& context) override;
  void woken(uint32_t tag, LogicContext& context) override;
  std::string_view use_input() const override { return settings_.usable ? kToggle : std::string_view{}; }
  // Channel 0 the fraction; channel 1 the rate, when the component carries a second channel.
  void write_state(ObjectComponent& component) const override;
  // The fraction, where it heads, the rate it states and whether its next step is in the queue.
  void save(ByteRecordWriter& write) const override;
  bool restore(ByteRecordReader& read, const LogicLimits& limits) override;

  double fraction() const { return fraction_; }
  double target() const { return target_; }
  // The signed change of the fraction the next tick makes (0 at rest).
  double rate_per_tick() const { return rate_; }
  bool moving() const { return fraction_ != target_; }

 private:
  static constexpr uint32_t kMove = 0;  // the wake tag of the next step
  void head_for(double target, LogicContext& context);
  void keep_moving(LogicContext& context);
  // The change the next tick makes, at the world time scale the runtime runs at.
  double next_delta(const LogicContext& context) const;

  DoorSettings settings_;
  double fraction_ = 0;
  double target_ = 0;
  double rate_ = 0;
  bool wake_pending_ = false;
};

}  // namespace tickwire::world

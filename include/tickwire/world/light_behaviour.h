// The light: one on bit (bit 0 of its component), switched by turnOn, turnOff and toggle; each
// change fires onTurnedOn or onTurnedOff. Its colour and intensity channels are the map's and the
// game's (a flicker), never the logic's.
#pragma once

#include <string_view>

#include "tickwire/logic/boolean_level.h"
#include "tickwire/world/object_behaviour.h"

namespace tickwire::world {

class LightBehaviour final : public ObjectBehaviour {
 public:
  static constexpr std::string_view kTurnOn = "turnOn";
  static constexpr std::string_view kTurnOff = "turnOff";
  static constexpr std::string_view kToggle = "toggle";
  static constexpr std::string_view kOnTurnedOn = "onTurnedOn";
  static constexpr std::string_view kOnTurnedOff = "onTurnedOff";
  static constexpr uint8_t kOnBit = 1u << 0;

  explicit LightBehaviour(bool start_on) : on_(start_on) {}

  std::string_view kind() const override { return "light"; }
  LogicInputResult input(std::string_view name, const LogicSignal& signal, LogicContext& context) override;
  void write_state(ObjectComponent& component) const override;

  bool on() const { return on_.value(); }
  void save(ByteRecordWriter& write) const override { on_.save(write); }
  bool restore(ByteRecordReader& read, const LogicLimits&) override { return on_.restore(read); }

 private:
  BooleanLevel on_;
};

}  // namespace tickwire::world

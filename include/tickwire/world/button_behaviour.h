// The button: a pressed latch. A press (a validated Use routed by the host, or wiring) latches it
// and fires onPressed; pressing a pressed button does nothing. With a reset delay it lets go by
// itself after that much game time (firing onReleased); without one it stays pressed until its
// reset input. Bit 0 of its component is the latch.
#pragma once

#include <string_view>

#include "tickwire/clock/time.h"
#include "tickwire/logic/boolean_level.h"
#include "tickwire/world/object_behaviour.h"

namespace tickwire::world {

struct ButtonSettings {
  Duration reset_after;        // game time until it lets go; zero: it stays pressed until reset
  bool start_pressed = false;  // the authored bit 0
};

class ButtonBehaviour final : public ObjectBehaviour {
 public:
  static constexpr std::string_view kPress = "press";
  static constexpr std::string_view kReset = "reset";
  static constexpr std::string_view kOnPressed = "onPressed";
  static constexpr std::string_view kOnReleased = "onReleased";
  static constexpr uint8_t kPressedBit = 1u << 0;

  explicit ButtonBehaviour(const ButtonSettings& settings) : settings_(settings), pressed_(settings.start_pressed) {}
  // A scene edit retuned its reset delay: from its next press (a release already due keeps its time).
  void retune(const ButtonSettings& settings) { settings_.reset_after = settings.reset_after; }

  std::string_view kind() const override { return "button"; }
  LogicInputResult input(std::string_view name, const LogicSignal& signal, LogicContext& context) override;
  void woken(uint32_t tag, LogicContext& context) override;
  std::string_view use_input() const override { return kPress; }
  void write_state(ObjectComponent& component) const override;

  bool pressed() const { return pressed_.value(); }
  // The latch (a release due is a wake in the runtime's queue).
  void save(ByteRecordWriter& write) const override { pressed_.save(write); }
  bool restore(ByteRecordReader& read, const LogicLimits&) override { return pressed_.restore(read); }

 private:
  static constexpr uint32_t kRelease = 0;  // the wake tag of the reset delay
  void release(LogicContext& context);

  ButtonSettings settings_;
  BooleanLevel pressed_;
};

}  // namespace tickwire::world

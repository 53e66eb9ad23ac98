// The pressure plate and the trigger volume: a box that counts the pawns whose feet stand in it.
// The host checks every pawn's feet against the box each tick and delivers startTouch when one
// enters and endTouch when one leaves (the pawn is the run's activator); each fires onStartTouch
// or onEndTouch. It blocks nothing. A plate also shows it is held down (bit 0: anyone on it); a
// trigger volume shows nothing.
#pragma once

#include <cstdint>
#include <string_view>

#include "tickwire/world/object_behaviour.h"
#include "tickwire/world/vec3.h"

namespace tickwire::world {

struct TouchSettings {
  Vec3 half_extents{0.5f, 0.25f, 0.5f};  // the box, centred on the object's position (axis-aligned)
  bool shows_pressed = false;            // a plate: bit 0 while anyone stands on it
};

class TouchBehaviour final : public ObjectBehaviour {
 public:
  static constexpr std::string_view kStartTouch = "startTouch";  // the host's: a pawn entered
  static constexpr std::string_view kEndTouch = "endTouch";      // the host's: a pawn left
  static constexpr std::string_view kOnStartTouch = "onStartTouch";
  static constexpr std::string_view kOnEndTouch = "onEndTouch";
  static constexpr uint8_t kPressedBit = 1u << 0;

  explicit TouchBehaviour(const TouchSettings& settings) : settings_(settings) {}
  // A scene edit resized its box: the next tick's touches are checked against the new one.
  void retune(const TouchSettings& settings) { settings_.half_extents = settings.half_extents; }

  std::string_view kind() const override { return settings_.shows_pressed ? "plate" : "trigger"; }
  // An endTouch with nobody in the box is refused (bad_parameter): the count never goes below zero.
  LogicInputResult input(std::string_view name, const LogicSignal& signal, LogicContext& context) override;
  void write_state(ObjectComponent& component) const override;

  // The volume around `centre`: whether a pawn's feet at `feet` are in it (faces included).
  bool contains(Vec3 centre, Vec3 feet) const;
  uint32_t touching() const { return touching_; }
  // The count (the host keeps who they are); at most kMaxTouching read back.
  static constexpr uint32_t kMaxTouching = 65536;  // the room's entity capacity
  void save(ByteRecordWriter& write) const override;
  bool restore(ByteRecordReader& read, const LogicLimits& limits) override;

 private:
  TouchSettings settings_;
  uint32_t touching_ = 0;
};

}  // namespace tickwire::world

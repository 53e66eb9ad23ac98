// The touch volume's count: each enter and leave is an event with its pawn as the activator; the
// plate's bit follows the count's edge between empty and occupied.
#include "tickwire/world/touch_behaviour.h"

#include <cmath>

#include "tickwire/core/byte_record.h"
#include "tickwire/logic/logic_context.h"

namespace tickwire::world {

LogicInputResult TouchBehaviour::input(std::string_view name, const LogicSignal&, LogicContext& context) {
  if (name == kStartTouch) {
    if (++touching_ == 1 && settings_.shows_pressed) context.state_changed();
    context.fire(kOnStartTouch);
  } else if (name == kEndTouch) {
    if (touching_ == 0) return LogicInputResult::bad_parameter;
    if (--touching_ == 0 && settings_.shows_pressed) context.state_changed();
    context.fire(kOnEndTouch);
  } else {
    return LogicInputResult::not_an_input;
  }
  return LogicInputResult::handled;
}

void TouchBehaviour::save(ByteRecordWriter& write) const { write.u32(touching_); }

bool TouchBehaviour::restore(ByteRecordReader& read, const LogicLimits&) {
  const uint32_t touching = read.u32();
  if (!read.ok() || touching > kMaxTouching) return false;
  touching_ = touching;
  return true;
}

bool TouchBehaviour::contains(Vec3 centre, Vec3 feet) const {
  const Vec3 d = feet - centre;
  return std::fabs(d.x) <= settings_.half_extents.x && std::fabs(d.y) <= settings_.half_extents.y &&
         std::fabs(d.z) <= settings_.half_extents.z;
}

void TouchBehaviour::write_state(ObjectComponent& component) const {
  if (!settings_.shows_pressed) return;
  component.bits = static_cast<uint8_t>(touching_ > 0 ? component.bits | kPressedBit : component.bits & ~kPressedBit);
}

}  // namespace tickwire::world

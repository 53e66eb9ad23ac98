// The mover's slide from its settings: the axis turned into world space by the object's rotation
// and made unit (an authored [1, 1, 0] slides along the diagonal, not 1.41 times as far).
#include "tickwire/world/mover_pose.h"

#include "tickwire/world/logic_components.h"
#include "tickwire/world/quat_math.h"

namespace tickwire::world {

std::optional<MoverSlide> mover_slide(const MapObject& object) {
  for (const ObjectComponent& c : object.components) {
    if (c.name != "mover") continue;
    const std::array<float, kMaxSettingValues> axis = setting_values(c, "axis");
    Vec3 direction = rotate(object.rotation.value_or(Quat{}), Vec3{axis[0], axis[1], axis[2]});
    const float length = direction.length();
    direction = length > 0 ? direction * (1.0f / length) : Vec3{1, 0, 0};  // the loader refuses a zero axis
    return MoverSlide{direction, setting_number(c, "distance_m")};
  }
  return std::nullopt;
}

Vec3 mover_offset(const MoverSlide& slide, double fraction) {
  return slide.direction * static_cast<float>(static_cast<double>(slide.distance_m) * fraction);
}

}  // namespace tickwire::world

// The body table's rules, in priority order: a physics prop's solver wins over everything, a touch
// volume is a sensor whatever else it carries, a collider makes the rest solid (kinematic when a
// mover carries it), or a sensor when it is authored not solid.
#include "tickwire/world/logic_bodies.h"

#include <array>
#include <cmath>

#include "tickwire/world/logic_components.h"
#include "tickwire/world/quat_math.h"

namespace tickwire::world {
namespace {

const ObjectComponent* find(const MapObject& object, std::string_view name) {
  for (const ObjectComponent& c : object.components)
    if (c.name == name) return &c;
  return nullptr;
}

Vec3 vector_setting(const ObjectComponent& c, std::string_view name, float scale) {
  const std::array<float, kMaxSettingValues> v = setting_values(c, name);
  return Vec3{v[0], v[1], v[2]} * scale;
}

Vec3 scaled(const MapObject& object, Vec3 half) {
  return object.scale ? Vec3{half.x * object.scale->x, half.y * object.scale->y, half.z * object.scale->z} : half;
}

// The authored box, before the object's own scale and rotation (a touch volume takes neither).
LogicBody authored_body(const MapObject& object) {
  if (const ObjectComponent* prop = find(object, "physics_prop")) return {BodyKind::dynamic, vector_setting(*prop, "size", 0.5f)};
  for (std::string_view volume : {"plate", "trigger"}) {
    if (const ObjectComponent* c = find(object, volume)) return {BodyKind::sensor, vector_setting(*c, "half_extents", 1.0f)};
  }
  const ObjectComponent* collider = find(object, "collider");
  if (collider == nullptr) return {};
  const Vec3 half = vector_setting(*collider, "half_extents", 1.0f);
  if (!setting_flag(*collider, "solid")) return {BodyKind::sensor, half};
  return {find(object, "mover") != nullptr ? BodyKind::kinematic : BodyKind::fixed, half};
}

}  // namespace

std::string_view body_kind_name(BodyKind kind) {
  switch (kind) {
    case BodyKind::none: return "none";
    case BodyKind::fixed: return "static";
    case BodyKind::sensor: return "sensor";
    case BodyKind::kinematic: return "kinematic";
    case BodyKind::dynamic: break;
  }
  return "dynamic";
}

LogicBody logic_body_of(const MapObject& object) {
  LogicBody body = authored_body(object);
  // A touch volume's box is world-aligned and unscaled as authored (docs/map-format.md), the box
  // its behaviour tests pawns against.
  if (body.kind == BodyKind::none || find(object, "plate") != nullptr || find(object, "trigger") != nullptr) return body;
  body.half_extents = scaled(object, body.half_extents);
  if (object.rotation) body.half_extents = enclosing_half_extents(*object.rotation, body.half_extents);
  return body;
}

// |R| h, row by row.
Vec3 enclosing_half_extents(const Quat& rotation, Vec3 half) {
  const Vec3 ex = rotate(rotation, Vec3{half.x, 0, 0});
  const Vec3 ey = rotate(rotation, Vec3{0, half.y, 0});
  const Vec3 ez = rotate(rotation, Vec3{0, 0, half.z});
  return {std::fabs(ex.x) + std::fabs(ey.x) + std::fabs(ez.x), std::fabs(ex.y) + std::fabs(ey.y) + std::fabs(ez.y),
          std::fabs(ex.z) + std::fabs(ey.z) + std::fabs(ez.z)};
}

Vec3 prop_half_extents(const MapObject& object) {
  const ObjectComponent* prop = find(object, "physics_prop");
  return prop != nullptr ? scaled(object, vector_setting(*prop, "size", 0.5f)) : Vec3{};
}

Aabb body_box(const LogicBody& body, Vec3 centre) { return Aabb{centre - body.half_extents, centre + body.half_extents}; }

}  // namespace tickwire::world

// A client's own props, stepped with the box sweep the mover uses: shove, fall, slide, rest.
#include "tickwire/world/client_props.h"

#include <algorithm>
#include <cmath>

#include "tickwire/world/box_sweep.h"
#include "tickwire/world/logic_bodies.h"
#include "tickwire/world/logic_components.h"

namespace tickwire::world {
namespace {

constexpr std::size_t kClientSim = 1;  // kPropSims[1]: "client"

// Whether something in `others` holds `box` up (a floor within the contact skin under it).
bool supported(const Aabb& box, std::span<const Aabb> others) {
  return sweep_axis(box, Axis::y, -2 * kContactSkinM, others).blocked;
}

}  // namespace

bool client_simulated_prop(const MapObject& object) {
  const ObjectComponent* prop = object.component("physics_prop");
  return prop != nullptr && static_cast<std::size_t>(setting_values(*prop, "sim")[0]) == kClientSim;
}

ClientProps ClientProps::build(const Map& map, const ClientPropSettings& settings, const PropPushSettings& push) {
  ClientProps out;
  out.settings_ = settings;
  out.push_ = push;
  const auto objects = map.objects();
  for (uint32_t index = 0; index < objects.size(); ++index) {
    if (!client_simulated_prop(objects[index])) continue;
    const ObjectComponent* prop = objects[index].component("physics_prop");
    ClientProp p;
    p.object_index = index;
    p.half_extents = prop_half_extents(objects[index]);
    p.position = objects[index].position;
    p.mass_kg = setting_values(*prop, "mass")[0];
    p.asleep = (prop->bits & 1u) != 0;
    out.authored_.push_back(p);
  }
  float lowest = 0;
  for (const Aabb& box : map.boxes()) lowest = std::min(lowest, box.min.y);
  out.fall_out_y_ = lowest - settings.fall_out_m;
  out.props_ = out.authored_;
  return out;
}

void ClientProps::reset() { props_ = authored_; }

std::size_t ClientProps::awake() const {
  return static_cast<std::size_t>(std::count_if(props_.begin(), props_.end(), [](const ClientProp& p) { return !p.asleep; }));
}

void ClientProps::step(const Aabb& pawn, const Vec3& pawn_velocity_mps, std::span<const Aabb> statics, float dt_s) {
  const Vec3 wish{pawn_velocity_mps.x, 0, pawn_velocity_mps.z};
  for (std::size_t i = 0; i < props_.size(); ++i) {
    ClientProp& p = props_[i];
    if (const auto direction = push_direction(pawn, wish, p.box(), push_)) {
      const Vec3 impulse = push_impulse(p.velocity_mps, p.mass_kg, wish, *direction, push_);
      if (impulse != Vec3{}) {
        p.velocity_mps += impulse * (1.0f / p.mass_kg);
        p.asleep = false;
        ++counts_.pushes;
      }
    }
    if (p.asleep) continue;
    // What it slides against: the statics, every other prop where it stands now, and the pawn.
    others_.assign(statics.begin(), statics.end());
    for (std::size_t j = 0; j < props_.size(); ++j)
      if (j != i) others_.push_back(props_[j].box());
    others_.push_back(pawn);
    p.velocity_mps.y = std::max(p.velocity_mps.y - settings_.gravity_mps2 * dt_s, -settings_.max_fall_mps);
    if (supported(p.box(), others_)) {  // friction on the ground
      const float speed = std::sqrt(p.velocity_mps.x * p.velocity_mps.x + p.velocity_mps.z * p.velocity_mps.z);
      const float kept = speed > 0 ? std::max(0.0f, speed - settings_.friction_mps2 * dt_s) / speed : 0.0f;
      p.velocity_mps.x *= kept;
      p.velocity_mps.z *= kept;
    }
    for (const Axis axis : {Axis::y, Axis::x, Axis::z}) {
      const SweepResult moved = sweep_axis(p.box(), axis, component(p.velocity_mps, axis) * dt_s, others_);
      component(p.position, axis) += moved.moved_m;
      if (moved.blocked) component(p.velocity_mps, axis) = 0;
    }
    if (p.position.y < fall_out_y_) {
      p = authored_[i];
      ++counts_.respawns;
      continue;
    }
    if (p.velocity_mps.length() < settings_.sleep_speed_mps && supported(p.box(), others_)) {
      p.velocity_mps = {};
      p.asleep = true;
    }
  }
}

}  // namespace tickwire::world

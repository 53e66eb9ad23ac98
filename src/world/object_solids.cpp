// The solids table built once per map: each object's body (LogicBodies) sorted into the static
// boxes and the kinematic tracks; the per-tick moving box is the mover's slide at the state's
// fraction and at that fraction plus its rate.
#include "tickwire/world/object_solids.h"

#include <algorithm>

namespace tickwire::world {

MoverState mover_state(const ObjectComponent& mover) {
  return MoverState{mover.channel_count > 0 ? mover.channels[0] : 0.0, mover.channel_count > 1 ? mover.channels[1] : 0.0};
}

MovingBox moving_box(const KinematicTrack& track, const MoverState& state, uint32_t ticks_ahead) {
  const auto at = [&](uint32_t ticks) {
    return std::clamp(state.fraction + state.rate * static_cast<double>(ticks), 0.0, 1.0);
  };
  const uint32_t ahead = std::max<uint32_t>(ticks_ahead, 1);
  const Vec3 from = mover_offset(track.slide, at(ahead - 1));
  const Vec3 to = mover_offset(track.slide, at(ahead));
  return MovingBox{body_box(track.body, track.position + from), to - from};
}

ObjectSolids ObjectSolids::build(const Map& map) {
  ObjectSolids solids;
  const std::span<const MapObject> objects = map.objects();
  for (uint32_t index = 0; index < objects.size(); ++index) {
    const MapObject& object = objects[index];
    const LogicBody body = logic_body_of(object);
    if (body.kind == BodyKind::fixed) {
      solids.statics_.push_back(StaticSolid{index, body_box(body, object.position)});
    } else if (body.kind == BodyKind::kinematic) {
      KinematicTrack track{index, object.position, body, *mover_slide(object), 0};
      for (std::size_t c = 0; c < object.components.size(); ++c)
        if (object.components[c].name == "mover") track.mover_component = c;
      solids.tracks_.push_back(track);
    }
  }
  return solids;
}

std::vector<Aabb> map_solid_boxes(const Map& map) {
  std::vector<Aabb> boxes;
  ObjectSolids::build(map).collect_statics(map, [](uint32_t) { return true; }, boxes);
  return boxes;
}

}  // namespace tickwire::world

// The solids table built once per map: each object's body (LogicBodies) sorted into the static
// boxes and the kinematic tracks; the per-tick moving box is the mover's slide at the state's
// fraction and at that fraction plus its rate.
#include "tickwire/world/object_solids.h"

#include <algorithm>
#include <variant>

#include "tickwire/world/object_hierarchy.h"
#include "tickwire/world/reference_vocabulary.h"

namespace tickwire::world {

MoverState mover_state(const ObjectComponent& mover) {
  return MoverState{mover.channel_count > 0 ? mover.channels[0] : 0.0, mover.channel_count > 1 ? mover.channels[1] : 0.0};
}

MoverState mover_state(const protocol::ObjectRecord& record, const MoverState& authored) {
  MoverState state = authored;
  for (const protocol::ComponentSection& section : record.sections) {
    if (section.wire_id != static_cast<uint8_t>(ComponentWireId::mover)) continue;
    if ((section.dirty & 1u) != 0) state.fraction = section.channel[0];
    if ((section.dirty & 2u) != 0) state.rate = section.channel[1];
  }
  return state;
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
  const ObjectHierarchy hierarchy = ObjectHierarchy::build(map);
  const std::span<const MapObject> objects = map.objects();
  solids.driver_slot_by_object_.assign(objects.size(), -1);
  for (uint32_t index = 0; index < objects.size(); ++index) {
    const MapObject& object = objects[index];
    const LogicBody body = logic_body_of(object);
    if (body.kind == BodyKind::none || body.kind == BodyKind::dynamic) continue;
    const std::optional<uint32_t> driver = hierarchy.driver(index);
    if (!driver) {
      if (body.kind == BodyKind::fixed) solids.statics_.push_back(StaticSolid{index, body_box(body, object.position)});
      continue;  // an unmoved sensor is its behaviour's touch box, where the map puts it
    }
    const MapObject& mover = objects[*driver];
    KinematicTrack track{index, *driver, 0, object.position, body, *mover_slide(mover), 0, {}};
    for (std::size_t c = 0; c < mover.components.size(); ++c)
      if (mover.components[c].name == "mover") track.mover_component = c;
    track.authored = mover_state(mover.components[track.mover_component]);
    int32_t& slot = solids.driver_slot_by_object_[*driver];
    if (slot < 0) {
      slot = static_cast<int32_t>(solids.authored_drivers_.size());
      solids.authored_drivers_.push_back(track.authored);
    }
    track.driver_slot = static_cast<uint32_t>(slot);
    solids.tracks_.push_back(track);
  }
  return solids;
}

void ObjectSolids::driver_states(const protocol::Snapshot& snapshot, std::vector<MoverState>& out) const {
  out = authored_drivers_;
  if (out.empty()) return;
  for (const protocol::Record& record : snapshot.records) {
    const auto* object = std::get_if<protocol::ObjectRecord>(&record.body);
    if (object == nullptr || object->object_index >= driver_slot_by_object_.size()) continue;
    const int32_t slot = driver_slot_by_object_[object->object_index];
    if (slot >= 0) out[static_cast<std::size_t>(slot)] = mover_state(*object, authored_drivers_[static_cast<std::size_t>(slot)]);
  }
}

void ObjectSolids::moving_boxes(std::span<const MoverState> driver_states, uint32_t ticks_ahead,
                                std::vector<MovingBox>& out) const {
  out.clear();
  for (const KinematicTrack& track : tracks_)
    if (track.body.blocks()) out.push_back(moving_box(track, driver_states[track.driver_slot], ticks_ahead));
}

std::vector<Aabb> map_solid_boxes(const Map& map) {
  std::vector<Aabb> boxes;
  ObjectSolids::build(map).collect_statics(map, [](uint32_t) { return true; }, boxes);
  return boxes;
}

}  // namespace tickwire::world

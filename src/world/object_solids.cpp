// The solids table built once per map: each object's body (LogicBodies) sorted into the static
// boxes and the kinematic tracks; the per-tick moving box is the mover's slide at the state's
// fraction and at that fraction plus its rate.
#include "tickwire/world/object_solids.h"

#include <algorithm>
#include <variant>

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
  const std::span<const MapObject> objects = map.objects();
  for (uint32_t index = 0; index < objects.size(); ++index) {
    const MapObject& object = objects[index];
    const LogicBody body = logic_body_of(object);
    if (body.kind == BodyKind::fixed) {
      solids.statics_.push_back(StaticSolid{index, body_box(body, object.position)});
    } else if (body.kind == BodyKind::kinematic) {
      KinematicTrack track{index, object.position, body, *mover_slide(object), 0, {}};
      for (std::size_t c = 0; c < object.components.size(); ++c)
        if (object.components[c].name == "mover") track.mover_component = c;
      track.authored = mover_state(object.components[track.mover_component]);
      solids.track_by_object_.resize(objects.size(), -1);
      solids.track_by_object_[index] = static_cast<int32_t>(solids.tracks_.size());
      solids.tracks_.push_back(track);
    }
  }
  return solids;
}

const KinematicTrack* ObjectSolids::track_of(uint32_t object_index) const {
  if (object_index >= track_by_object_.size() || track_by_object_[object_index] < 0) return nullptr;
  return &tracks_[static_cast<std::size_t>(track_by_object_[object_index])];
}

void ObjectSolids::moving_boxes_after(const protocol::Snapshot& snapshot, uint32_t ticks_ahead,
                                      std::vector<MovingBox>& out) const {
  out.clear();
  if (tracks_.empty()) return;
  for (const KinematicTrack& track : tracks_) out.push_back(moving_box(track, track.authored, ticks_ahead));
  for (const protocol::Record& record : snapshot.records) {
    const auto* object = std::get_if<protocol::ObjectRecord>(&record.body);
    if (object == nullptr) continue;
    const KinematicTrack* track = track_of(object->object_index);
    if (track == nullptr) continue;
    out[static_cast<std::size_t>(track - tracks_.data())] = moving_box(*track, mover_state(*object, track->authored), ticks_ahead);
  }
}

std::vector<Aabb> map_solid_boxes(const Map& map) {
  std::vector<Aabb> boxes;
  ObjectSolids::build(map).collect_statics(map, [](uint32_t) { return true; }, boxes);
  return boxes;
}

}  // namespace tickwire::world

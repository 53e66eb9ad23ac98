// The solids table built once per map: each object's body (LogicBodies) sorted into the static
// boxes and the kinematic tracks; the per-tick moving box is the mover's slide at the state's
// fraction and at that fraction plus its rate.
#include "tickwire/world/object_solids.h"

#include <algorithm>
#include <variant>

#include "tickwire/world/logic_components.h"
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

TurnedBox prop_box(const PropSolid& prop, Vec3 position, const Quat& rotation) {
  return TurnedBox::of(position, prop.half_extents, rotation);
}

namespace {

// The prop an object's physics_prop makes, when the server simulates it.
std::optional<PropSolid> server_prop(const MapObject& object, uint32_t index) {
  const ObjectComponent* prop = object.component("physics_prop");
  if (prop == nullptr || setting_values(*prop, "sim")[0] != 0) return std::nullopt;
  return PropSolid{index, prop_half_extents(object), object.position, object.rotation.value_or(Quat{}),
                   setting_values(*prop, "mass")[0], static_cast<uint8_t>(setting_values(*prop, "material")[0]),
                   (prop->bits & 1u) != 0};
}

}  // namespace

ObjectSolids ObjectSolids::build(const Map& map) {
  ObjectSolids solids;
  const ObjectHierarchy hierarchy = ObjectHierarchy::build(map);
  const std::span<const MapObject> objects = map.objects();
  solids.driver_slot_by_object_.assign(objects.size(), -1);
  solids.prop_slot_by_object_.assign(objects.size(), -1);
  for (uint32_t index = 0; index < objects.size(); ++index) {
    const MapObject& object = objects[index];
    const LogicBody body = logic_body_of(object);
    if (body.kind == BodyKind::dynamic) {
      if (const std::optional<PropSolid> prop = server_prop(object, index)) {
        solids.prop_slot_by_object_[index] = static_cast<int32_t>(solids.props_.size());
        solids.props_.push_back(*prop);
      }
      continue;
    }
    if (body.kind == BodyKind::none) continue;
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

bool ObjectSolids::placed_by_motion(uint32_t object_index) const {
  if (prop_slot(object_index) >= 0) return true;
  for (const KinematicTrack& track : tracks_)
    if (track.object_index == object_index || track.driver_index == object_index) return true;
  return false;
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

namespace {

// Each prop's pose as `snapshot` states it (authored where it states none), by slot.
template <class Visit>
void visit_prop_poses(const ObjectSolids& solids, const protocol::Snapshot& snapshot, Visit visit) {
  for (const protocol::Record& record : snapshot.records) {
    const auto* object = std::get_if<protocol::ObjectRecord>(&record.body);
    if (object == nullptr || !object->transform) continue;
    const int32_t slot = solids.prop_slot(object->object_index);
    if (slot < 0) continue;
    const PropSolid& prop = solids.props()[static_cast<std::size_t>(slot)];
    const protocol::ObjectTransform& t = *object->transform;
    const Quat rotation = t.rotation ? Quat{t.rotation->q.x, t.rotation->q.y, t.rotation->q.z, t.rotation->q.w} : prop.rotation;
    visit(static_cast<std::size_t>(slot), Vec3::from_wire(t.position), rotation);
  }
}

Vec3 capped(Vec3 step) {
  const float length = step.length();
  return length > kMaxPropTrajectoryMPerTick ? Vec3{} : step;
}

}  // namespace

void ObjectSolids::prop_tracks(const protocol::Snapshot* snapshot, const protocol::Snapshot* previous,
                               std::vector<PropTrack>& out) const {
  out.clear();
  for (const PropSolid& prop : props_) out.push_back(PropTrack{prop.position, prop.rotation, {}});
  if (snapshot == nullptr || props_.empty()) return;
  visit_prop_poses(*this, *snapshot, [&](std::size_t slot, Vec3 position, const Quat& rotation) {
    out[slot].position = position;
    out[slot].rotation = rotation;
  });
  if (previous == nullptr || previous->tick >= snapshot->tick) return;
  const float ticks = static_cast<float>(snapshot->tick - previous->tick);
  thread_local std::vector<Vec3> before;
  before.clear();
  for (const PropSolid& prop : props_) before.push_back(prop.position);
  visit_prop_poses(*this, *previous, [&](std::size_t slot, Vec3 position, const Quat&) { before[slot] = position; });
  for (std::size_t slot = 0; slot < out.size(); ++slot) out[slot].per_tick = capped((out[slot].position - before[slot]) * (1.0f / ticks));
}

void ObjectSolids::prop_boxes_ahead(std::span<const PropTrack> tracks, uint32_t ticks_ahead, std::vector<TurnedBox>& out,
                                    const Aabb* pawn) const {
  const uint32_t ahead = std::max<uint32_t>(ticks_ahead, 1) - 1;
  for (std::size_t slot = 0; slot < tracks.size() && slot < props_.size(); ++slot) {
    const PropTrack& t = tracks[slot];
    const auto at = [&](uint32_t ticks) {
      return prop_box(props_[slot], t.position + t.per_tick * static_cast<float>(ticks), t.rotation);
    };
    TurnedBox box = at(ahead);
    for (uint32_t back = ahead; pawn != nullptr && back > 0 && overlaps(*pawn, box);) box = at(--back);
    out.push_back(box);
  }
}

uint64_t ObjectSolids::prop_revision(const protocol::Snapshot& snapshot) const {
  if (props_.empty()) return 0;
  uint64_t hash = 0xcbf29ce484222325ull;  // FNV-1a over each stated prop's slot and position
  const auto mix = [&hash](const void* data, std::size_t size) {
    const auto* bytes = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < size; ++i) hash = (hash ^ bytes[i]) * 0x100000001b3ull;
  };
  visit_prop_poses(*this, snapshot, [&](std::size_t slot, Vec3 position, const Quat& rotation) {
    const uint64_t slot_id = slot;
    const float at[7] = {position.x, position.y, position.z, rotation.x, rotation.y, rotation.z, rotation.w};
    mix(&slot_id, sizeof slot_id);
    mix(at, sizeof at);
  });
  return hash;
}

std::vector<Aabb> map_solid_boxes(const Map& map) {
  std::vector<Aabb> boxes;
  ObjectSolids::build(map).collect_statics(map, [](uint32_t) { return true; }, boxes);
  return boxes;
}

}  // namespace tickwire::world

// The scene overlay: one reading of an object's standing edits for both ends.
#include "tickwire/world/scene_overlay.h"

#include <algorithm>

#include "tickwire/world/edit_vocabulary.h"
#include "tickwire/world/scene_edit_set.h"
#include "tickwire/world/scene_wiring.h"

namespace tickwire::world {
namespace {

inline constexpr uint8_t kAddedLightBits = 1;  // a light's bit 0: enabled

void set_setting(ObjectComponent& component, ComponentSetting setting) {
  auto& list = component.settings;
  const auto at = std::lower_bound(list.begin(), list.end(), setting.name,
                                   [](const ComponentSetting& s, const std::string& name) { return s.name < name; });
  if (at != list.end() && at->name == setting.name) {
    *at = std::move(setting);
  } else {
    list.insert(at, std::move(setting));
  }
}

}  // namespace

std::optional<ComponentSetting> edited_setting(const MapObject& authored, const protocol::ObjectNodeState& edits,
                                               const protocol::FieldState& field) {
  const FieldCheck check = SceneEditRules::check_field(worn_components(authored, &edits), field.component, field.key, field.value);
  if (check.refusal) return std::nullopt;
  ComponentSetting setting;
  setting.name = std::string(check.write.field->name);
  setting.values = check.write.values;
  setting.count = check.write.field->count;
  return setting;
}

MapObject edited_object(const MapObject& authored, const protocol::ObjectNodeState* edits) {
  MapObject object = authored;
  if (edits == nullptr) return object;
  if (edits->transform) {
    const protocol::EditTransform& t = *edits->transform;
    object.position = Vec3{t.position.x, t.position.y, t.position.z};
    if (t.rotation) object.rotation = Quat{t.rotation->x, t.rotation->y, t.rotation->z, t.rotation->w};
  }
  for (const protocol::ComponentState& c : edits->components) {
    const EditComponent* described = edit_component(c.component);
    if (described == nullptr) continue;
    if (c.change == protocol::ComponentChange::removed) {
      std::erase_if(object.components, [&](const ObjectComponent& o) { return o.name == described->name; });
    } else {
      ObjectComponent added;
      added.name = std::string(described->name);
      if (described->name == "light") added.bits = kAddedLightBits;
      object.components.push_back(std::move(added));
    }
  }
  for (const protocol::FieldState& field : edits->field_states) {
    const EditComponent* described = edit_component(field.component);
    const std::optional<ComponentSetting> setting = edited_setting(authored, *edits, field);
    if (described == nullptr || !setting) continue;
    for (ObjectComponent& c : object.components)
      if (c.name == described->name) set_setting(c, *setting);
  }
  if (!edits->outputs.empty()) object.outputs = wired_outputs(authored.outputs, edits->outputs);
  return object;
}

LogicBody edited_body(const MapObject& authored, const protocol::ObjectNodeState* edits) {
  if (edits != nullptr && edits->hidden) return LogicBody{};
  return logic_body_of(edited_object(authored, edits));
}

}  // namespace tickwire::world

namespace tickwire::world {

std::optional<Aabb> edited_static_box(const MapObject& authored, const protocol::ObjectNodeState& edits) {
  if (edits.hidden) return std::nullopt;
  const MapObject edited = edited_object(authored, &edits);
  const LogicBody body = logic_body_of(edited);
  if (body.kind != BodyKind::fixed) return std::nullopt;
  return body_box(body, edited.position);
}

void scene_solid_boxes(const Map& map, const ObjectSolids& solids, const protocol::SceneNodeState* state,
                       std::vector<Aabb>& out) {
  // Whether the state names the object (its objects ascend by index: a server's always do; a hostile
  // state out of order only loses its unordered entries here, never reads past them).
  const auto edited = [&](uint32_t index) {
    if (state == nullptr) return false;
    const auto at = std::lower_bound(state->objects.begin(), state->objects.end(), index,
                                     [](const protocol::ObjectNodeState& o, uint32_t i) { return o.object < i; });
    return at != state->objects.end() && at->object == index;
  };
  solids.collect_statics(map, [&](uint32_t index) { return !edited(index); }, out);
  if (state == nullptr) return;
  std::vector<StaticSolid> edited_solids;
  edited_static_solids(map, solids, *state, edited_solids);
  for (const StaticSolid& s : edited_solids) out.push_back(s.box);
}

void edited_static_solids(const Map& map, const ObjectSolids& solids, const protocol::SceneNodeState& state,
                          std::vector<StaticSolid>& out) {
  out.clear();
  for (const protocol::ObjectNodeState& o : state.objects) {
    if (o.object >= map.objects().size() || solids.placed_by_motion(o.object)) continue;
    if (const std::optional<Aabb> box = edited_static_box(map.objects()[o.object], o))
      out.push_back(StaticSolid{o.object, *box});
  }
}

}  // namespace tickwire::world

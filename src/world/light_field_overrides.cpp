// The light patches a client's renderer lays over the authored lights.
#include "tickwire/world/light_field_overrides.h"

#include "tickwire/world/edit_vocabulary.h"
#include "tickwire/world/logic_components.h"
#include "tickwire/world/scene_overlay.h"

namespace tickwire::world {

std::vector<LightOverride> light_overrides(const Map& map, const protocol::SceneNodeState& state) {
  const uint8_t light = edit_component("light")->id;
  std::vector<LightOverride> out;
  for (const protocol::ObjectNodeState& o : state.objects) {
    if (o.object >= map.objects().size()) continue;
    const MapObject& authored = map.objects()[o.object];
    LightOverride patch;
    patch.object_index = o.object;
    for (const protocol::ComponentState& c : o.components) {
      if (c.component != light) continue;
      patch.removed = c.change == protocol::ComponentChange::removed;
      patch.added = c.change == protocol::ComponentChange::added;
    }
    bool touched = patch.removed || patch.added;
    for (const protocol::FieldState& f : o.field_states) {
      if (f.component != light) continue;
      const std::optional<ComponentSetting> s = edited_setting(authored, o, f);
      if (!s) continue;
      touched = true;
      if (s->name == "color") patch.color = std::array<float, 3>{s->values[0], s->values[1], s->values[2]};
      if (s->name == "intensity") patch.intensity = s->values[0];
      if (s->name == "range_m") patch.range_m = s->values[0];
      if (s->name == "shadows") patch.shadows = kLightShadows[static_cast<std::size_t>(s->values[0])];
      if (s->name == "layers") patch.layers = static_cast<uint32_t>(s->values[0]);
    }
    if (touched) out.push_back(patch);
  }
  return out;
}

}  // namespace tickwire::world

// Fuzzes a client's side of scene edits (a sceneNodeState is untrusted input to a client: a
// hostile or newer server's): a body decoded as the client decodes it, then laid over the reference
// map the way a client lays it (every object's edited record and body, the light patches, the
// prediction world's statics). Objects past the map, field states the rules refuse and transforms
// at the float limits must be skipped or carried, never trusted: any crash or sanitizer report, a
// light patch for an object the state does not name, or statics fewer than the map's own boxes traps.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "interaction_script.h"  // script_world(): the reference map loaded once
#include "tickwire/protocol/scene_node_state.h"
#include "tickwire/wire/codec.h"
#include "tickwire/world/light_field_overrides.h"
#include "tickwire/world/object_solids.h"
#include "tickwire/world/scene_overlay.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  using namespace tickwire;
  static const world::ObjectSolids solids = world::ObjectSolids::build(world::scripts::script_world().map);
  const world::Map& map = world::scripts::script_world().map;
  protocol::SceneNodeState state;
  if (!wire::decode(std::span<const uint8_t>(data, size), state).ok()) return 0;
  for (const protocol::ObjectNodeState& o : state.objects) {
    if (o.object >= map.objects().size()) continue;  // what every reader of the state skips
    const world::MapObject edited = world::edited_object(map.objects()[o.object], &o);
    (void)world::edited_body(map.objects()[o.object], &o);
    (void)world::edited_static_box(map.objects()[o.object], o);
    if (edited.components.size() > map.objects()[o.object].components.size() + o.components.size()) __builtin_trap();
  }
  for (const world::LightOverride& patch : world::light_overrides(map, state)) {
    bool named = false;
    for (const protocol::ObjectNodeState& o : state.objects) named = named || o.object == patch.object_index;
    if (!named || patch.object_index >= map.objects().size()) __builtin_trap();
  }
  std::vector<world::Aabb> statics;
  world::scene_solid_boxes(map, solids, &state, statics);
  if (statics.size() < map.boxes().size()) __builtin_trap();
  return 0;
}

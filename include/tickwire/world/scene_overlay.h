// SceneOverlay (seed 000, "Scene edits"): what a sceneNodeState does to a map object, read the same
// way by the server (its live objects, its bodies) and by every client (its drawing, its prediction
// world): the components the object wears with their edited settings, where it stands, whether it is
// hidden, and the static body that leaves (none when hidden: hide drops the body, move moves it).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "tickwire/protocol/scene_node_state.h"
#include "tickwire/world/logic_bodies.h"
#include "tickwire/world/map.h"
#include "tickwire/world/map_object.h"
#include "tickwire/world/object_solids.h"

namespace tickwire::world {

// The numbers a field state's value leaves in its setting (the value passed the rules when it was
// applied; nullopt when it does not fit the field any more: a state from another build).
std::optional<ComponentSetting> edited_setting(const MapObject& authored, const protocol::ObjectNodeState& edits,
                                               const protocol::FieldState& field);

// The object as its standing edits leave it: moved, its removed components left out, its added ones
// appended (an added light on), every component's edited settings laid over its own, its rewired
// outputs over its map's (wired_outputs). `edits` null: the authored object.
MapObject edited_object(const MapObject& authored, const protocol::ObjectNodeState* edits);

// The static body the object makes under its edits (kind none when it is hidden or makes none).
LogicBody edited_body(const MapObject& authored, const protocol::ObjectNodeState* edits);
// The fixed box an edited object stands in (nullopt: hidden, or no fixed body). An object whose
// mover or solver places it is never moved by an edit (the rules refuse it): its box is its track's.
std::optional<Aabb> edited_static_box(const MapObject& authored, const protocol::ObjectNodeState& edits);

// The static solids the edited objects make under `state` (none for a hidden object, or one whose
// mover or solver places it): what both ends lay over ObjectSolids::statics() in place of those
// objects' authored bodies.
void edited_static_solids(const Map& map, const ObjectSolids& solids, const protocol::SceneNodeState& state,
                          std::vector<StaticSolid>& out);

// What a client predicts against under the edit set: the map's boxes and every object's static body,
// an edited object's where its edits leave it (the server's statics, every object spawned).
void scene_solid_boxes(const Map& map, const ObjectSolids& solids, const protocol::SceneNodeState* state,
                       std::vector<Aabb>& out);

}  // namespace tickwire::world

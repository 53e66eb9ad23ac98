// Wiring edits (seed 000, "Scene edits"): the rule an output's new action list must meet, run by the
// editor before it sends and by the server when the edit arrives (the same function, as
// SceneEditRules is for fields), and the one reading of an object's rewired outputs both the
// server's logic and an editor's view lay over the map. A list is judged by the map's own checks of
// an action (identifiers, a delay within [0, 86400] s, a number finite and within +-1e6), and each
// call must name an object of the map: a typo is refused by name instead of wiring a call that
// would be dropped in silence at every firing.
#pragma once

#include <functional>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "tickwire/protocol/scene_edit_refused.h"
#include "tickwire/protocol/scene_wiring.h"
#include "tickwire/world/map_object.h"

namespace tickwire::world {

// Whether some object of the map has this key (what a call's target must name).
using ObjectNamed = std::function<bool(std::string_view key)>;

// A wiring edit of an object with its map record `authored` and its standing rewired outputs
// (`standing`, ascending by name): nullopt when it passes.
//   not_logic         the object is no node of the map's logic (runs_logic)
//   bad_action        the output or a name is no identifier, a delay or a number out of bounds
//   unknown_target    a call names no object of the map
//   not_edited        a revert with nothing of that output standing
//   too_many_outputs  the object would wire more outputs than a map may give one object
std::optional<protocol::EditRefusal> check_wiring(const MapObject& authored, std::span<const protocol::OutputState> standing,
                                                  const protocol::WiringEdit& edit, const ObjectNamed& named);

// An action as the map states one.
MapAction map_action(const protocol::WiringAction& action);
// An output's list as a wiring edit states it (what an editor starts a rewire from).
std::vector<protocol::WiringAction> wiring_actions(std::span<const MapAction> actions);

// The object's outputs with its standing rewiring laid over them: a rewired output's list replaces
// the map's (or adds an output the map does not wire), an empty one leaves it out; sorted by name.
std::vector<MapOutput> wired_outputs(std::span<const MapOutput> authored, std::span<const protocol::OutputState> standing);

}  // namespace tickwire::world

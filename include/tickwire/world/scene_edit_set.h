// SceneEditSet (seed 000, "Scene edits"): everything a room's editing sessions have changed, held as
// the sceneNodeState it is sent as: per object, hidden or not, where it was moved, its name, its
// component edits, its field edits and its rewired outputs, under a revision that moves with every
// gesture that changed anything. A gesture's writes are each checked through SceneEditRules (and a
// wiring edit through check_wiring); those that pass are applied,
// those that fail are refused by name (for the sender alone); a gesture that would grow the set past
// what one message carries is refused whole and changes nothing.
#pragma once

#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "tickwire/protocol/scene_edit.h"
#include "tickwire/protocol/scene_edit_refused.h"
#include "tickwire/protocol/scene_node_state.h"
#include "tickwire/world/map_object.h"
#include "tickwire/world/scene_edit_rules.h"
#include "tickwire/world/scene_wiring.h"

namespace tickwire::world {

// What the set needs to know of an object an edit names: its map record (null: no such object, or
// not spawned) and whether an edit may move it (a door, a carried body or a prop is placed by its
// logic or the solver).
struct EditTarget {
  const MapObject* authored = nullptr;
  bool movable = true;
};
using EditTargets = std::function<EditTarget(uint32_t object_index)>;

struct EditOutcome {
  bool changed = false;                                // the revision moved
  std::vector<protocol::SceneEditRefused> refusals;    // for the sender alone
  std::vector<uint32_t> touched;                       // objects whose standing edits changed, ascending
};

class SceneEditSet {
 public:
  // `named` says which keys a wiring edit's calls may name (null: none, so every call is refused).
  EditOutcome apply(const protocol::SceneEdit& gesture, const EditTargets& targets, const ObjectNamed& named = {});
  // Forgets every edit (a map switch: they were the old map's); the revision moves if any stood.
  void clear();
  // Holds `state` as its own (an editor's copy of the set the server last sent).
  void adopt(protocol::SceneNodeState state) { state_ = std::move(state); }

  const protocol::SceneNodeState& state() const { return state_; }
  uint32_t revision() const { return state_.revision; }
  // The object's standing edits, or null.
  const protocol::ObjectNodeState* object(uint32_t object_index) const;

 private:
  protocol::SceneNodeState state_;
};

// What the object wears under its standing edits (null: none stand).
WornComponents worn_components(const MapObject& authored, const protocol::ObjectNodeState* edits);

}  // namespace tickwire::world

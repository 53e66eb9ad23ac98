// SceneEditor (seed 000, "Scene edits": "the editor checks a field write against its description
// before it sends it"): an editing client's side of SceneEditRules. A gesture is judged write by
// write against the client's own map and the edit set it last heard (Client::scene_state), through
// the same edit set the server applies, so a write the server would refuse is refused here first, by
// the same name, and only the writes that pass are sent. The server still checks everything.
#pragma once

#include <vector>

#include "tickwire/protocol/scene_edit.h"
#include "tickwire/protocol/scene_edit_refused.h"
#include "tickwire/protocol/scene_node_state.h"
#include "tickwire/world/map.h"
#include "tickwire/world/object_solids.h"

namespace tickwire::world {

struct CheckedGesture {
  protocol::SceneEdit gesture;                       // the writes that pass, in the order given
  std::vector<protocol::SceneEditRefused> refusals;  // the rest, by name, as the server would send them
  std::vector<protocol::ObjectNodeState> after;      // the edit set's objects once the server applies it
};

class SceneEditor {
 public:
  // `map` and `solids` are the client's (ObjectSolids::build of the same map) and must outlive it.
  SceneEditor(const Map& map, const ObjectSolids& solids) : map_(map), solids_(solids) {}

  // `state`: the edit set the client holds (null: none heard yet).
  CheckedGesture check(const protocol::SceneEdit& gesture, const protocol::SceneNodeState* state) const;

 private:
  const Map& map_;
  const ObjectSolids& solids_;
};

}  // namespace tickwire::world

// The editor's check: each write of a gesture applied alone, in the server's order, to a copy of the
// edit set the client holds.
#include "tickwire/world/scene_editor.h"

#include "tickwire/world/scene_edit_set.h"

namespace tickwire::world {

CheckedGesture SceneEditor::check(const protocol::SceneEdit& gesture, const protocol::SceneNodeState* state) const {
  SceneEditSet working;
  if (state != nullptr) working.adopt(*state);
  const EditTargets targets = [this](uint32_t index) {
    if (index >= map_.objects().size()) return EditTarget{};
    return EditTarget{&map_.objects()[index], !solids_.placed_by_motion(index)};
  };
  const ObjectNamed named = [this](std::string_view key) { return map_.object_index(key).has_value(); };
  CheckedGesture out;
  out.gesture.gesture = gesture.gesture;
  // One write at a time, objects, components, fields, then wiring (the order the server applies them).
  const auto judge = [&](protocol::SceneEdit one, auto& kept, const auto& write) {
    one.gesture = gesture.gesture;
    EditOutcome outcome = working.apply(one, targets, named);
    if (outcome.refusals.empty()) {
      kept.push_back(write);
    } else {
      out.refusals.insert(out.refusals.end(), outcome.refusals.begin(), outcome.refusals.end());
    }
  };
  for (const protocol::ObjectEdit& e : gesture.object_edits) {
    protocol::SceneEdit one;
    one.object_edits = {e};
    judge(std::move(one), out.gesture.object_edits, e);
  }
  for (const protocol::ComponentEdit& e : gesture.component_edits) {
    protocol::SceneEdit one;
    one.component_edits = {e};
    judge(std::move(one), out.gesture.component_edits, e);
  }
  for (const protocol::FieldEdit& e : gesture.field_edits) {
    protocol::SceneEdit one;
    one.field_edits = {e};
    judge(std::move(one), out.gesture.field_edits, e);
  }
  for (const protocol::WiringEdit& e : gesture.wiring_edits) {
    protocol::SceneEdit one;
    one.wiring_edits = {e};
    judge(std::move(one), out.gesture.wiring_edits, e);
  }
  out.after = working.state().objects;
  return out;
}

}  // namespace tickwire::world

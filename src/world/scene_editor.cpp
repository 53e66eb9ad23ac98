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
  const auto judge_each = [&](auto writes) {
    for (const auto& write : gesture.*writes) {
      protocol::SceneEdit one;
      one.gesture = gesture.gesture;
      (one.*writes).assign(1, write);
      EditOutcome outcome = working.apply(one, targets, named);
      if (outcome.refusals.empty()) {
        (out.gesture.*writes).push_back(write);
      } else {
        out.refusals.insert(out.refusals.end(), outcome.refusals.begin(), outcome.refusals.end());
      }
    }
  };
  judge_each(&protocol::SceneEdit::object_edits);
  judge_each(&protocol::SceneEdit::component_edits);
  judge_each(&protocol::SceneEdit::field_edits);
  judge_each(&protocol::SceneEdit::wiring_edits);
  out.after = working.state().objects;
  return out;
}

}  // namespace tickwire::world

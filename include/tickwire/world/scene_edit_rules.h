// SceneEditRules (seed 000, "Scene edits"): the one check of a scene edit's write, run by the editor
// before it sends and by the server when the write arrives, so the two can never judge a write
// differently. A field write must name a component the object wears (its map's own, less what an
// edit removed, plus what an edit added), a key that names a field of it, and a value of that field's
// form and among its choices; a number outside the field's range is clamped to the end. A component
// edit may add a component the vocabulary lets an edit add, take off one the object's map gives it,
// or revert either. The result of a write is the setting it leaves (or the refusal, by name).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "tickwire/protocol/edit_value.h"
#include "tickwire/protocol/scene_edit.h"
#include "tickwire/protocol/scene_edit_refused.h"
#include "tickwire/protocol/scene_node_state.h"
#include "tickwire/world/edit_vocabulary.h"
#include "tickwire/world/map_object.h"

namespace tickwire::world {

// What an object wears as the rules see it: its map's components and its standing component edits.
struct WornComponents {
  std::span<const ObjectComponent> authored;      // the object's map record
  std::span<const protocol::ComponentState> edits;  // its standing component edits

  // Whether it wears the component of that type id now.
  bool wears(uint8_t component) const;
  bool authored_wears(uint8_t component) const;
  // Components it wears now, counted as the wire's sections count them.
  std::size_t count() const;
};

// A field write that passed: the field and the numbers it leaves in the setting.
struct CheckedField {
  const EditComponent* component = nullptr;
  const SettingSpec* field = nullptr;
  std::array<float, kMaxSettingValues> values{};
  bool clamped = false;  // a number stood outside the field's range
};

struct FieldCheck {
  std::optional<protocol::EditRefusal> refusal;
  CheckedField write;
};

class SceneEditRules {
 public:
  // A write of `value` into the field `key` of the component `component` of an object wearing `worn`.
  static FieldCheck check_field(const WornComponents& worn, uint8_t component, std::string_view key,
                                const protocol::EditValue& value);
  // A revert of that field: the same checks of the component and the key (the value is the map's).
  static FieldCheck check_field_revert(const WornComponents& worn, uint8_t component, std::string_view key);
  // A component edit (the object's standing edits are in `worn`).
  static std::optional<protocol::EditRefusal> check_component(const WornComponents& worn, const protocol::ComponentEdit& edit);
  // A move's transform: finite, a rotation of some length.
  static std::optional<protocol::EditRefusal> check_transform(const std::optional<protocol::EditTransform>& transform);
};

// The numbers a checked write leaves, as its field's edit value (what the state message states).
protocol::EditValue checked_value(const CheckedField& write);

}  // namespace tickwire::world

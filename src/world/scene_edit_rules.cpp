// The scene edit rules: one judgement of a write for the editor and the server alike.
#include "tickwire/world/scene_edit_rules.h"

#include <algorithm>
#include <cmath>

namespace tickwire::world {
namespace {

using protocol::EditRefusal;

FieldCheck refused(EditRefusal reason) {
  FieldCheck check;
  check.refusal = reason;
  return check;
}

const SettingSpec* field_of(const EditComponent& component, std::string_view key) {
  if (component.spec == nullptr) return nullptr;
  for (const SettingSpec& field : component.spec->settings)
    if (field.name == key) return &field;
  return nullptr;
}

// The component and the key, before any value: both a write and a revert pass here.
FieldCheck check_target(const WornComponents& worn, uint8_t component, std::string_view key) {
  const EditComponent* described = edit_component(component);
  if (described == nullptr || !worn.wears(component)) return refused(EditRefusal::component_not_worn);
  const SettingSpec* field = field_of(*described, key);
  if (field == nullptr) return refused(EditRefusal::unknown_key);
  FieldCheck check;
  check.write.component = described;
  check.write.field = field;
  check.write.values = field->fallback;
  return check;
}

std::optional<uint32_t> choice_of(const SettingSpec& field, std::string_view word) {
  for (std::size_t i = 0; i < field.choices.size(); ++i)
    if (field.choices[i] == word) return static_cast<uint32_t>(i);
  return std::nullopt;
}

std::optional<EditRefusal> write_numbers(const protocol::EditNumbers& numbers, CheckedField& write) {
  const SettingSpec& field = *write.field;
  if (numbers.values.size() != field.count) return EditRefusal::wrong_count;
  bool any_nonzero = false;
  for (std::size_t i = 0; i < numbers.values.size(); ++i) {
    float v = numbers.values[i].value;
    if (!std::isfinite(v)) return EditRefusal::not_finite;
    if (field.shape == SettingShape::index) v = std::round(v);  // a row is a whole number
    const float clamped = std::clamp(v, field.min, field.max);
    write.clamped = write.clamped || clamped != numbers.values[i].value;
    write.values[i] = clamped;
    any_nonzero = any_nonzero || clamped != 0.0f;
  }
  for (std::size_t i = numbers.values.size(); i < write.values.size(); ++i) write.values[i] = 0;
  if (field.shape == SettingShape::vector && !any_nonzero) return EditRefusal::zero_axis;
  return std::nullopt;
}

std::optional<EditRefusal> write_value(const protocol::EditValue& value, CheckedField& write) {
  if (edit_form(value) != edit_form(*write.field)) return EditRefusal::wrong_form;
  write.values = {};
  if (const auto* numbers = std::get_if<protocol::EditNumbers>(&value.form)) return write_numbers(*numbers, write);
  if (const auto* flag = std::get_if<protocol::EditSwitch>(&value.form)) {
    write.values[0] = flag->on ? 1.0f : 0.0f;
    return std::nullopt;
  }
  if (const auto* word = std::get_if<protocol::EditWord>(&value.form)) {
    const auto row = choice_of(*write.field, word->word);
    if (!row) return EditRefusal::not_a_choice;
    write.values[0] = static_cast<float>(*row);
    return std::nullopt;
  }
  uint32_t mask = 0;
  for (const protocol::EditWord& word : std::get<protocol::EditWords>(value.form).words) {
    const auto bit = choice_of(*write.field, word.word);
    if (!bit) return EditRefusal::not_a_choice;
    mask |= 1u << *bit;
  }
  write.values[0] = static_cast<float>(mask);
  return std::nullopt;
}

bool finite(const protocol::Vec3& v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

}  // namespace

bool WornComponents::authored_wears(uint8_t component) const {
  const EditComponent* described = edit_component(component);
  if (described == nullptr) return false;
  return std::any_of(authored.begin(), authored.end(), [&](const ObjectComponent& c) { return c.name == described->name; });
}

bool WornComponents::wears(uint8_t component) const {
  for (const protocol::ComponentState& e : edits)
    if (e.component == component) return e.change == protocol::ComponentChange::added;
  return authored_wears(component);
}

std::size_t WornComponents::count() const {
  std::size_t n = authored.size();
  for (const protocol::ComponentState& e : edits) n = e.change == protocol::ComponentChange::added ? n + 1 : n - 1;
  return n;
}

FieldCheck SceneEditRules::check_field(const WornComponents& worn, uint8_t component, std::string_view key,
                                       const protocol::EditValue& value) {
  FieldCheck check = check_target(worn, component, key);
  if (!check.refusal) check.refusal = write_value(value, check.write);
  return check;
}

FieldCheck SceneEditRules::check_field_revert(const WornComponents& worn, uint8_t component, std::string_view key) {
  return check_target(worn, component, key);
}

std::optional<EditRefusal> SceneEditRules::check_component(const WornComponents& worn, const protocol::ComponentEdit& edit) {
  const EditComponent* described = edit_component(edit.component);
  const bool standing = std::any_of(worn.edits.begin(), worn.edits.end(),
                                    [&](const protocol::ComponentState& e) { return e.component == edit.component; });
  switch (edit.op) {
    case protocol::ComponentOp::add:
      if (described == nullptr || !described->addable) return EditRefusal::not_addable;
      if (worn.wears(edit.component)) return EditRefusal::already_worn;
      if (!standing && worn.count() >= kMaxObjectComponents) return EditRefusal::not_addable;
      return std::nullopt;
    case protocol::ComponentOp::remove:
      if (!worn.authored_wears(edit.component)) return EditRefusal::not_inherited;
      if (!described->removable) return EditRefusal::not_removable;
      if (!worn.wears(edit.component)) return EditRefusal::component_not_worn;
      return std::nullopt;
    case protocol::ComponentOp::revert:
      return standing ? std::nullopt : std::optional(EditRefusal::not_edited);
  }
  return EditRefusal::not_addable;
}

std::optional<EditRefusal> SceneEditRules::check_transform(const std::optional<protocol::EditTransform>& transform) {
  if (!transform || !finite(transform->position)) return EditRefusal::bad_transform;
  if (!transform->rotation) return std::nullopt;
  const protocol::EditRotation& q = *transform->rotation;
  if (!std::isfinite(q.x) || !std::isfinite(q.y) || !std::isfinite(q.z) || !std::isfinite(q.w)) return EditRefusal::bad_transform;
  if (q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w < 1e-6f) return EditRefusal::bad_transform;
  return std::nullopt;
}

protocol::EditValue checked_value(const CheckedField& write) {
  return edit_value_of(*write.field, std::span<const float>(write.values.data(), write.field->count));
}

}  // namespace tickwire::world

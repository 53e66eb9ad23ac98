// The described components an edit names, and the settings <-> edit value conversion.
#include "tickwire/world/edit_vocabulary.h"

#include <algorithm>
#include <cmath>

#include "tickwire/world/reference_vocabulary.h"

namespace tickwire::world {
namespace {

constexpr uint8_t wire(ComponentWireId id) { return static_cast<uint8_t>(id); }

// Ids 1..9 are the components' wire ids; the components the records never carry (or carry as
// `other`) are numbered from 16 on, only ever appended.
const EditComponent kComponents[] = {
    {wire(ComponentWireId::light), "light", nullptr, true, true},
    {wire(ComponentWireId::mover), "mover", nullptr, false, false},
    {wire(ComponentWireId::button), "button", nullptr, false, false},
    {wire(ComponentWireId::pressure_plate), "plate", nullptr, false, false},
    {wire(ComponentWireId::physics_prop), "physics_prop", nullptr, false, false},
    {wire(ComponentWireId::voxel_volume), "voxel_volume", nullptr, false, false},
    {wire(ComponentWireId::trigger_volume), "trigger", nullptr, false, false},
    {16, "collider", nullptr, true, true},
    {17, "relay", nullptr, false, false},
    {18, "timer", nullptr, false, false},
    {19, "counter", nullptr, false, false},
    {20, "gate", nullptr, false, false},
    {21, "voxel_block", nullptr, false, false},
    {22, "water", nullptr, false, false},
};

struct Table {
  EditComponent rows[std::size(kComponents)];
  Table() {
    for (std::size_t i = 0; i < std::size(kComponents); ++i) {
      rows[i] = kComponents[i];
      rows[i].spec = component_settings_spec(rows[i].name);
    }
  }
};

const Table& table() {
  static const Table t;
  return t;
}

}  // namespace

std::span<const EditComponent> edit_components() { return table().rows; }

const EditComponent* edit_component(uint8_t id) {
  for (const EditComponent& c : edit_components())
    if (c.id == id) return &c;
  return nullptr;
}

const EditComponent* edit_component(std::string_view name) {
  for (const EditComponent& c : edit_components())
    if (c.name == name) return &c;
  return nullptr;
}

EditForm edit_form(const SettingSpec& field) {
  switch (field.shape) {
    case SettingShape::flag: return EditForm::switch_;
    case SettingShape::index: return field.choices.empty() ? EditForm::numbers : EditForm::word;
    case SettingShape::choice_set: return EditForm::words;
    case SettingShape::number:
    case SettingShape::vector: break;
  }
  return EditForm::numbers;
}

EditForm edit_form(const protocol::EditValue& value) { return static_cast<EditForm>(value.form.index()); }

protocol::EditValue edit_value_of(const SettingSpec& field, std::span<const float> values) {
  const float first = values.empty() ? 0.0f : values[0];
  switch (edit_form(field)) {
    case EditForm::switch_: return protocol::edit_switch(first != 0.0f);
    case EditForm::word: {
      const auto row = static_cast<std::size_t>(std::clamp(first, 0.0f, float(field.choices.size() - 1)));
      return protocol::edit_word(std::string(field.choices[row]));
    }
    case EditForm::words: {
      protocol::EditWords set;
      const auto mask = static_cast<uint32_t>(std::max(first, 0.0f));
      for (std::size_t bit = 0; bit < field.choices.size(); ++bit)
        if ((mask >> bit) & 1u) set.words.push_back(protocol::EditWord{std::string(field.choices[bit])});
      return protocol::EditValue{std::move(set)};
    }
    case EditForm::numbers: break;
  }
  protocol::EditNumbers numbers;
  for (float v : values) numbers.values.push_back(protocol::EditNumber{v});
  return protocol::EditValue{std::move(numbers)};
}

}  // namespace tickwire::world

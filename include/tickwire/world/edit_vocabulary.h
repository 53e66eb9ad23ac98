// The scene edit vocabulary (seed 000, "Scene edits"): every described field of every described
// component is one entry, named by the key its settings table spells (logic_components.h), never by
// a card's row; a component is named by its type id. A field's value takes one of the four forms by
// its shape: numbers (a number or a vector), a switch (a flag), a word (an index with named rows) or
// a list of words (a choice set); an index with no names (a voxel grid) is a number. Both ends turn
// a setting into its edit value and back through here, so the editor, the server and the applier
// never disagree on a form.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "tickwire/protocol/edit_value.h"
#include "tickwire/world/logic_components.h"
#include "tickwire/world/map_object.h"

namespace tickwire::world {

// A described component as an edit names it.
struct EditComponent {
  uint8_t id = 0;               // its type id: the component's wire id where it has one, else appended
  std::string_view name;        // its name in the map ("light", "collider")
  const LogicComponentSpec* spec = nullptr;  // its settings: the fields an edit may write
  bool addable = false;         // an edit may add it to an object that does not wear it
  bool removable = false;       // an edit may take it off an object whose map gives it
};

// Every described component, ascending type id.
std::span<const EditComponent> edit_components();
const EditComponent* edit_component(uint8_t id);
const EditComponent* edit_component(std::string_view name);

// The form (an index into protocol::kEditValueFormNames) a field's value takes.
enum class EditForm : uint8_t { numbers = 0, switch_ = 1, word = 2, words = 3 };
EditForm edit_form(const SettingSpec& field);
EditForm edit_form(const protocol::EditValue& value);

// A setting's numbers (as a ComponentSetting holds them) as an edit value of its field's form.
protocol::EditValue edit_value_of(const SettingSpec& field, std::span<const float> values);

}  // namespace tickwire::world

// EditValue (seed 000, "Scene edits"): the one value a scene edit writes into a described field, in
// one of four forms: numbers (a setting's numbers: a speed, an axis, a colour), a switch (a flag), a
// word (one of the field's named choices: a material, a shadow mode) or a list of words (a set of the
// field's choices: a light's layers). In an edit request no value means revert; in the state message
// a value is always present.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "tickwire/wire/describe_walker.h"
#include "tickwire/wire/types.h"

namespace tickwire::protocol {

inline constexpr std::size_t kMaxEditNumbers = 4;      // a setting's numbers (world's kMaxSettingValues)
inline constexpr std::size_t kMaxEditWordBytes = 32;   // one choice's name
inline constexpr std::size_t kMaxEditWords = 16;       // a set of choices
inline constexpr std::size_t kMaxEditKeyBytes = 32;    // a description key ("intensity", "distance_m")

struct EditNumber {
  static constexpr std::string_view wire_name = "EditNumber";
  float value = 0;
  friend bool operator==(const EditNumber&, const EditNumber&) = default;
  template <class W>
  void fields(W& w) {
    w.f32("value", value);
  }
};

struct EditNumbers {
  static constexpr std::string_view wire_name = "EditNumbers";
  std::vector<EditNumber> values;
  friend bool operator==(const EditNumbers&, const EditNumbers&) = default;
  template <class W>
  void fields(W& w) {
    w.list8("values", values, 1, kMaxEditNumbers);
  }
};

struct EditSwitch {
  static constexpr std::string_view wire_name = "EditSwitch";
  bool on = false;
  friend bool operator==(const EditSwitch&, const EditSwitch&) = default;
  template <class W>
  void fields(W& w) {
    w.boolean("on", on);
  }
};

struct EditWord {
  static constexpr std::string_view wire_name = "EditWord";
  std::string word;
  friend bool operator==(const EditWord&, const EditWord&) = default;
  template <class W>
  void fields(W& w) {
    w.str8("word", word, kMaxEditWordBytes);
  }
};

struct EditWords {
  static constexpr std::string_view wire_name = "EditWords";
  std::vector<EditWord> words;
  friend bool operator==(const EditWords&, const EditWords&) = default;
  template <class W>
  void fields(W& w) {
    w.list8("words", words, 0, kMaxEditWords);
  }
};

inline constexpr wire::UnionCase kEditValueCases[] = {{1, "numbers"}, {2, "switch"}, {3, "word"}, {4, "words"}};
inline constexpr wire::UnionDef kEditValueDef{"EditValueForm", kEditValueCases};

struct EditValue {
  static constexpr std::string_view wire_name = "EditValue";
  std::variant<EditNumbers, EditSwitch, EditWord, EditWords> form;
  friend bool operator==(const EditValue&, const EditValue&) = default;
  template <class W>
  void fields(W& w) {
    w.variant("form", form, kEditValueDef);
  }
};

// The four forms by name, in the variant's order: what a refusal for the wrong form names.
inline constexpr std::string_view kEditValueFormNames[] = {"numbers", "switch", "word", "words"};

inline EditValue edit_numbers(std::initializer_list<float> values) {
  EditNumbers numbers;
  for (float v : values) numbers.values.push_back(EditNumber{v});
  return EditValue{std::move(numbers)};
}
inline EditValue edit_switch(bool on) { return EditValue{EditSwitch{on}}; }
inline EditValue edit_word(std::string word) { return EditValue{EditWord{std::move(word)}}; }
inline EditValue edit_words(const std::vector<std::string_view>& words) {
  EditWords list;
  for (std::string_view w : words) list.words.push_back(EditWord{std::string(w)});
  return EditValue{std::move(list)};
}

}  // namespace tickwire::protocol

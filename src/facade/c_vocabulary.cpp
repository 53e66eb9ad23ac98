// Registering a C game's vocabulary. GameVocabulary asserts on a repeated id or name (a C++ game's
// programmer error); a C caller is refused by name instead, so every rule registration asserts is
// checked here first, before the registration that would stop the process.
#include "c_vocabulary.h"

#include <cmath>
#include <memory>
#include <string>
#include <string_view>
#include <vector>


using tickwire::capi::ErrorText;
using tickwire::capi::fail;
using tickwire::capi::guarded;

namespace {

// The name as a view, or empty when it is missing or too long.
std::string_view checked_name(const char* name) {
  if (name == nullptr) return {};
  const std::string_view view(name);
  return view.size() <= tickwire::kVocabularyMaxNameBytes ? view : std::string_view{};
}

template <class Def>
bool name_taken(const std::vector<Def>& defs, std::string_view name) {
  for (const Def& d : defs) {
    if (d.name == name) return true;
  }
  return false;
}

template <class Def>
bool bit_taken(const std::vector<Def>& defs, uint8_t bit) {
  for (const Def& d : defs) {
    if (d.bit == bit) return true;
  }
  return false;
}

// The refusal for a flag or button bit and its name in `defs`, or null when they may be added.
template <class Def>
const char* bit_refusal(const std::vector<Def>& defs, uint8_t bit, std::string_view name) {
  if (bit >= tickwire::kVocabularyFlagBits) return "bit_out_of_range: a flag or button is bit 0..7";
  if (name.empty()) return "name_invalid: a name is 1..32 bytes";
  if (bit_taken(defs, bit)) return "bit_taken: this bit is registered already";
  if (name_taken(defs, name)) return "name_taken: this name is registered already";
  return nullptr;
}

const char* kind_refusal(const tickwire::GameVocabulary& v, const tw_kind_def& def, std::string_view name) {
  if (def.id == 0) return "kind_id_zero: kind 0 means no kind";
  if (name.empty()) return "name_invalid: a name is 1..32 bytes";
  if (v.find_kind(def.id) != nullptr) return "kind_id_taken: this kind id is registered already";
  if (name_taken(v.kinds, name)) return "name_taken: this name is registered already";
  if (!std::isfinite(def.position_quantum_m) || def.position_quantum_m <= 0.0f) {
    return "position_quantum_invalid: a position quantum is finite and above 0";
  }
  if (def.rotation_bits < tickwire::kVocabularyMinRotationBits || def.rotation_bits > tickwire::kVocabularyMaxRotationBits) {
    return "rotation_bits_out_of_range: rotation bits are 9..15";
  }
  if (def.profile != TW_INTERP_STANDARD && def.profile != TW_INTERP_HUG_NEWEST && def.profile != TW_INTERP_DOUBLED) {
    return "profile_unknown: not a tw_interp_profile";
  }
  return nullptr;
}

tickwire::InterpProfile to_engine(tw_interp_profile profile) {
  switch (profile) {
    case TW_INTERP_HUG_NEWEST: return tickwire::InterpProfile::hug_newest;
    case TW_INTERP_DOUBLED: return tickwire::InterpProfile::doubled;
    case TW_INTERP_STANDARD: break;
  }
  return tickwire::InterpProfile::standard;
}

// Runs `add` after the null checks every registration shares.
template <class Add>
tw_result registration(tw_vocabulary* v, Add&& add) {
  if (v == nullptr) return TW_ERR_INVALID_ARGUMENT;
  v->error.clear();
  return guarded(v->error, [&]() -> tw_result {
    if (const char* refusal = add(v->vocabulary)) return fail(v->error, TW_ERR_INVALID_ARGUMENT, refusal);
    return TW_OK;
  });
}

// Registers a named bit of `list` (entity flags, object flags, buttons) through `add(v, name)`,
// once the bit rules let it.
template <class Def, class Add>
tw_result bit_registration(tw_vocabulary* vocabulary, std::vector<Def> tickwire::GameVocabulary::*list, uint8_t bit,
                           const char* name, Add&& add) {
  return registration(vocabulary, [&](tickwire::GameVocabulary& v) -> const char* {
    const std::string_view checked = checked_name(name);
    if (const char* refusal = bit_refusal(v.*list, bit, checked)) return refusal;
    add(v, checked);
    return nullptr;
  });
}

}  // namespace

extern "C" {

void tw_kind_def_init(tw_kind_def* def) {
  if (def == nullptr) return;
  const tickwire::KindDef defaults;
  *def = tw_kind_def{};
  def->position_quantum_m = defaults.precision.position_quantum_m;
  def->rotation_bits = defaults.precision.rotation_bits;
  def->profile = defaults.profile == tickwire::InterpProfile::hug_newest ? TW_INTERP_HUG_NEWEST
                 : defaults.profile == tickwire::InterpProfile::doubled  ? TW_INTERP_DOUBLED
                                                                         : TW_INTERP_STANDARD;
  def->important = defaults.important;
}

tw_result tw_vocabulary_create(tw_vocabulary** out) {
  if (out == nullptr) return TW_ERR_INVALID_ARGUMENT;
  *out = nullptr;
  try {
    *out = new tw_vocabulary();
    return TW_OK;
  } catch (...) {
    return TW_ERR_OUT_OF_MEMORY;
  }
}

void tw_vocabulary_destroy(tw_vocabulary* vocabulary) { delete vocabulary; }

const char* tw_vocabulary_last_error(const tw_vocabulary* vocabulary) {
  return vocabulary != nullptr ? vocabulary->error.c_str() : "null vocabulary";
}

tw_result tw_vocabulary_add_kind(tw_vocabulary* vocabulary, const tw_kind_def* def) {
  return registration(vocabulary, [&](tickwire::GameVocabulary& v) -> const char* {
    if (def == nullptr) return "kind_missing: a null tw_kind_def";
    const std::string_view name = checked_name(def->name);
    if (const char* refusal = kind_refusal(v, *def, name)) return refusal;
    tickwire::KindPrecision precision;
    precision.position_quantum_m = def->position_quantum_m;
    precision.rotation_bits = def->rotation_bits;
    v.kind(def->id, name, precision, to_engine(def->profile), def->important);
    return nullptr;
  });
}

tw_result tw_vocabulary_add_entity_flag(tw_vocabulary* vocabulary, uint8_t bit, const char* name, bool claimable) {
  return bit_registration(vocabulary, &tickwire::GameVocabulary::entity_flags, bit, name,
                          [&](tickwire::GameVocabulary& v, std::string_view n) { v.entity_flag(bit, n, claimable); });
}

tw_result tw_vocabulary_add_object_flag(tw_vocabulary* vocabulary, uint8_t bit, const char* name) {
  return bit_registration(vocabulary, &tickwire::GameVocabulary::object_flags, bit, name,
                          [&](tickwire::GameVocabulary& v, std::string_view n) { v.object_flag(bit, n); });
}

tw_result tw_vocabulary_add_component(tw_vocabulary* vocabulary, uint8_t wire_id, const char* name, uint8_t channels) {
  return registration(vocabulary, [&](tickwire::GameVocabulary& v) -> const char* {
    const std::string_view checked = checked_name(name);
    if (wire_id == 0) return "component_id_zero: wire id 0 is not a component";
    if (channels > TW_MAX_KIND_CHANNELS) return "channels_out_of_range: a section carries 0..4 channels";
    if (checked.empty()) return "name_invalid: a name is 1..32 bytes";
    if (v.find_component(wire_id) != nullptr) return "component_id_taken: this wire id is registered already";
    if (name_taken(v.components, checked)) return "name_taken: this name is registered already";
    v.component(wire_id, checked, channels);
    return nullptr;
  });
}

tw_result tw_vocabulary_add_pawn_value(tw_vocabulary* vocabulary, const char* name) {
  return registration(vocabulary, [&](tickwire::GameVocabulary& v) -> const char* {
    const std::string_view checked = checked_name(name);
    if (checked.empty()) return "name_invalid: a name is 1..32 bytes";
    if (v.pawn_values.size() >= tickwire::kVocabularyMaxPawnValues) return "pawn_values_full: at most 4 pawn values";
    if (v.pawn_value_index(checked)) return "name_taken: this name is registered already";
    v.pawn_value(checked);
    return nullptr;
  });
}

tw_result tw_vocabulary_add_button(tw_vocabulary* vocabulary, uint8_t bit, const char* name, bool posture) {
  return bit_registration(vocabulary, &tickwire::GameVocabulary::buttons, bit, name,
                          [&](tickwire::GameVocabulary& v, std::string_view n) { v.button(bit, n, posture); });
}

}  // extern "C"

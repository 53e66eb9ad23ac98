// Registering the game's vocabulary, and the masks and lookups the engine asks of it.
#include "tickwire/protocol/vocabulary.h"

#include <algorithm>

#include "tickwire/core/assert.h"

namespace tickwire {
namespace {

void check_name(std::string_view name) {
  TW_ASSERT(!name.empty() && name.size() <= kVocabularyMaxNameBytes, "a vocabulary name is 1..32 bytes");
}

template <class Def, class Key>
void insert_sorted(std::vector<Def>& defs, Def def, Key key) {
  check_name(def.name);
  for (const Def& d : defs) {
    TW_ASSERT(key(d) != key(def), "a vocabulary id or bit is registered once");
    TW_ASSERT(d.name != def.name, "a vocabulary name is registered once per list");
  }
  const auto at = std::find_if(defs.begin(), defs.end(), [&](const Def& d) { return key(d) > key(def); });
  defs.insert(at, std::move(def));
}

template <class Def>
uint8_t mask_of(const std::vector<Def>& defs, bool (*keep)(const Def&)) {
  uint8_t mask = 0;
  for (const Def& d : defs) {
    if (keep(d)) mask = static_cast<uint8_t>(mask | (1u << d.bit));
  }
  return mask;
}

}  // namespace

std::string_view interp_profile_name(InterpProfile profile) {
  switch (profile) {
    case InterpProfile::hug_newest: return "hug_newest";
    case InterpProfile::standard: return "standard";
    case InterpProfile::doubled: return "doubled";
    case InterpProfile::count_: break;
  }
  return "unknown";
}

GameVocabulary& GameVocabulary::kind(uint8_t id, std::string_view name, const KindPrecision& precision,
                                     InterpProfile profile, bool important) {
  TW_ASSERT(id != 0, "kind 0 means no kind");
  TW_ASSERT(profile < InterpProfile::count_, "a kind's profile must be one the client knows");
  insert_sorted(kinds, KindDef{id, std::string(name), precision, profile, important},
                [](const KindDef& d) { return d.id; });
  return *this;
}

GameVocabulary& GameVocabulary::entity_flag(uint8_t bit, std::string_view name, bool claimable) {
  TW_ASSERT(bit < kVocabularyFlagBits, "a flag is one of eight bits");
  insert_sorted(entity_flags, FlagDef{bit, std::string(name), claimable}, [](const FlagDef& d) { return d.bit; });
  return *this;
}

GameVocabulary& GameVocabulary::object_flag(uint8_t bit, std::string_view name) {
  TW_ASSERT(bit < kVocabularyFlagBits, "a flag is one of eight bits");
  insert_sorted(object_flags, FlagDef{bit, std::string(name), false}, [](const FlagDef& d) { return d.bit; });
  return *this;
}

GameVocabulary& GameVocabulary::component(uint8_t wire_id, std::string_view name, uint8_t channels) {
  TW_ASSERT(wire_id != 0, "component wire id 0 is not a component");
  TW_ASSERT(channels <= protocol::MaxKindChannels, "a component section carries at most four channels");
  insert_sorted(components, ComponentDef{wire_id, std::string(name), channels},
                [](const ComponentDef& d) { return d.wire_id; });
  return *this;
}

GameVocabulary& GameVocabulary::pawn_value(std::string_view name) {
  check_name(name);
  TW_ASSERT(pawn_values.size() < kVocabularyMaxPawnValues, "at most four pawn values");
  TW_ASSERT(!pawn_value_index(name), "a pawn value is registered once");
  pawn_values.push_back(PawnValueDef{std::string(name)});
  return *this;
}

GameVocabulary& GameVocabulary::button(uint8_t bit, std::string_view name, bool posture) {
  TW_ASSERT(bit < kVocabularyFlagBits, "a button is one of eight bits");
  insert_sorted(buttons, ButtonDef{bit, std::string(name), posture}, [](const ButtonDef& d) { return d.bit; });
  return *this;
}

const KindDef* GameVocabulary::find_kind(uint8_t id) const {
  for (const KindDef& k : kinds) {
    if (k.id == id) return &k;
  }
  return nullptr;
}

const ComponentDef* GameVocabulary::find_component(uint8_t wire_id) const {
  for (const ComponentDef& c : components) {
    if (c.wire_id == wire_id) return &c;
  }
  return nullptr;
}

std::optional<std::size_t> GameVocabulary::pawn_value_index(std::string_view name) const {
  for (std::size_t i = 0; i < pawn_values.size(); ++i) {
    if (pawn_values[i].name == name) return i;
  }
  return std::nullopt;
}

uint8_t GameVocabulary::entity_flag_mask() const {
  return mask_of<FlagDef>(entity_flags, [](const FlagDef&) { return true; });
}
uint8_t GameVocabulary::claimable_flag_mask() const {
  return mask_of<FlagDef>(entity_flags, [](const FlagDef& d) { return d.claimable; });
}
uint8_t GameVocabulary::object_flag_mask() const {
  return mask_of<FlagDef>(object_flags, [](const FlagDef&) { return true; });
}
uint8_t GameVocabulary::button_mask() const {
  return mask_of<ButtonDef>(buttons, [](const ButtonDef&) { return true; });
}
uint8_t GameVocabulary::posture_button_mask() const {
  return mask_of<ButtonDef>(buttons, [](const ButtonDef& d) { return d.posture; });
}

}  // namespace tickwire

// GameVocabulary: what the game's values on the wire mean. The engine's shapes carry a kind as a
// byte, flags as bit sets, component sections by wire id, the owner's pawn values as a short list
// of floats and eight button bits; which kinds, bits, ids and values exist, their names and each
// kind's precision and interpolation profile are the game's, registered here on both ends. The
// vocabulary is part of the netcode contract (hashed), so a second game changes the contract hash,
// never the schema hash, and a client built for another vocabulary refuses the room.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tickwire/protocol/constants.h"
#include "tickwire/protocol/contract_fields.h"
#include "tickwire/wire/types.h"

namespace tickwire {

inline constexpr std::size_t kVocabularyMaxNameBytes = 32;
inline constexpr std::size_t kVocabularyMaxKinds = 255;       // ids 1..255 (0 means "no kind")
inline constexpr std::size_t kVocabularyMaxComponents = 255;  // wire ids 1..255
inline constexpr std::size_t kVocabularyFlagBits = 8;         // entity flags, object flags, buttons
inline constexpr std::size_t kVocabularyMaxPawnValues = protocol::MaxPawnValues;
inline constexpr double kVocabularyMinQuantumM = std::numeric_limits<float>::denorm_min();  // the least float > 0
inline constexpr double kVocabularyMaxQuantumM = std::numeric_limits<float>::max();
inline constexpr uint8_t kVocabularyMinRotationBits = 9;
inline constexpr uint8_t kVocabularyMaxRotationBits = 15;
inline constexpr uint16_t kVocabularyMinRotationSteps = 255;  // when set (0: rotation_bits decides)
inline constexpr uint16_t kVocabularyMaxRotationSteps = 16383;

// How far behind the newest snapshot an entity is drawn (seed 003's per-entity profiles).
enum class InterpProfile : uint8_t {
  hug_newest = 0,  // the margin tick alone: freshest pose, holds first when the link hiccups
  standard = 1,    // ceil(interp) + 1: the render clock's own timeline
  doubled = 2,     // 2 x ceil(interp) + 1: a doubled buffer for perfectly fluid slow movers
  count_,
};
std::string_view interp_profile_name(InterpProfile profile);
inline constexpr wire::NamedValue kInterpProfileMembers[] = {{"hugNewest", 0}, {"standard", 1}, {"doubled", 2}};
inline constexpr wire::EnumDef kInterpProfileDef{"InterpProfile", kInterpProfileMembers};

// A kind's wire precision: positions in quanta, rotations on a smallest-three grid.
struct KindPrecision {
  float position_quantum_m = 1.0f / 512.0f;  // decoded positions lie within half of it of the truth
  uint8_t rotation_bits = 9;                  // smallest-three bits per component (9..15)
  // When set, the smallest-three grid's max step M itself (255..16383), overriding rotation_bits.
  uint16_t rotation_steps = 0;
  // The kind moves smoothly (physics bodies on curved paths, projectiles): its records' prediction
  // is fitted over every frame the client holds.
  bool fit_history = false;
  friend bool operator==(const KindPrecision&, const KindPrecision&) = default;

  static constexpr std::string_view wire_name = "KindPrecision";
  template <class W>
  void fields(W& w) {
    contract_f32(w, "positionQuantumM", position_quantum_m, kVocabularyMinQuantumM, kVocabularyMaxQuantumM);
    contract_u8(w, "rotationBits", rotation_bits, kVocabularyMinRotationBits, kVocabularyMaxRotationBits);
    // 0, or kVocabularyMinRotationSteps.. (contract rules)
    contract_u16(w, "rotationSteps", rotation_steps, 0, kVocabularyMaxRotationSteps);
    w.boolean("fitHistory", fit_history);
  }
};

struct KindDef {
  uint8_t id = 0;  // 1..255
  std::string name;
  KindPrecision precision;
  InterpProfile profile = InterpProfile::standard;  // how its remote entities are drawn
  bool important = false;  // rides the pose lane at any distance
  friend bool operator==(const KindDef&, const KindDef&) = default;

  static constexpr std::string_view wire_name = "KindDef";
  template <class W>
  void fields(W& w) {
    contract_u8(w, "id", id, 1, kVocabularyMaxKinds);
    contract_str8(w, "name", name, kVocabularyMaxNameBytes, Presence::required);
    w.shape("precision", precision);
    w.enum8("profile", profile, kInterpProfileDef);
    w.boolean("important", important);
  }
};

// One named bit of a flag byte. `claimable`: a client's forgiveness claim may carry it (entity
// flags only); every other bit is the server's alone.
struct FlagDef {
  uint8_t bit = 0;  // 0..7
  std::string name;
  bool claimable = false;
  friend bool operator==(const FlagDef&, const FlagDef&) = default;

  static constexpr std::string_view wire_name = "FlagDef";
  template <class W>
  void fields(W& w) {
    contract_u8(w, "bit", bit, 0, kVocabularyFlagBits - 1);
    contract_str8(w, "name", name, kVocabularyMaxNameBytes, Presence::required);
    w.boolean("claimable", claimable);
  }
};

struct ComponentDef {
  uint8_t wire_id = 0;  // 1..255
  std::string name;
  uint8_t channels = 0;  // float channels its section carries (<= MaxKindChannels)
  friend bool operator==(const ComponentDef&, const ComponentDef&) = default;

  static constexpr std::string_view wire_name = "ComponentDef";
  template <class W>
  void fields(W& w) {
    contract_u8(w, "wireId", wire_id, 1, kVocabularyMaxComponents);
    contract_str8(w, "name", name, kVocabularyMaxNameBytes, Presence::required);
    contract_u8(w, "channels", channels, 0, protocol::MaxKindChannels);
  }
};

// A float the owner detail and a claim carry beside position and velocity (a stance height, an
// eye height), in registration order.
struct PawnValueDef {
  std::string name;
  friend bool operator==(const PawnValueDef&, const PawnValueDef&) = default;

  static constexpr std::string_view wire_name = "PawnValueDef";
  template <class W>
  void fields(W& w) {
    contract_str8(w, "name", name, kVocabularyMaxNameBytes, Presence::required);
  }
};

struct ButtonDef {
  uint8_t bit = 0;  // 0..7 of InputCmd::buttons
  std::string name;
  // A posture, not an action: held through a starved run's zeroed ticks, so a dead link never
  // changes a held stance the game simulates.
  bool posture = false;
  friend bool operator==(const ButtonDef&, const ButtonDef&) = default;

  static constexpr std::string_view wire_name = "ButtonDef";
  template <class W>
  void fields(W& w) {
    contract_u8(w, "bit", bit, 0, kVocabularyFlagBits - 1);
    contract_str8(w, "name", name, kVocabularyMaxNameBytes, Presence::required);
    w.boolean("posture", posture);
  }
};

struct GameVocabulary {
  std::vector<KindDef> kinds;  // ascending id
  KindPrecision objects;       // map objects' precision (object form)
  std::vector<FlagDef> entity_flags;
  std::vector<FlagDef> object_flags;
  std::vector<ComponentDef> components;
  std::vector<PawnValueDef> pawn_values;
  std::vector<ButtonDef> buttons;

  // Registration (kept sorted by id or bit; a duplicate id, bit or name is a programmer error).
  GameVocabulary& kind(uint8_t id, std::string_view name, const KindPrecision& precision = {},
                       InterpProfile profile = InterpProfile::standard, bool important = false);
  GameVocabulary& entity_flag(uint8_t bit, std::string_view name, bool claimable = false);
  GameVocabulary& object_flag(uint8_t bit, std::string_view name);
  GameVocabulary& component(uint8_t wire_id, std::string_view name, uint8_t channels);
  GameVocabulary& pawn_value(std::string_view name);
  GameVocabulary& button(uint8_t bit, std::string_view name, bool posture = false);

  const KindDef* find_kind(uint8_t id) const;
  const ComponentDef* find_component(uint8_t wire_id) const;
  // Index of a pawn value by name, for the game's own code (nullopt: not registered).
  std::optional<std::size_t> pawn_value_index(std::string_view name) const;
  uint8_t entity_flag_mask() const;
  uint8_t claimable_flag_mask() const;
  uint8_t object_flag_mask() const;
  uint8_t button_mask() const;
  uint8_t posture_button_mask() const;

  friend bool operator==(const GameVocabulary&, const GameVocabulary&) = default;

  // Part of the netcode contract: ids and bits ascending and unique, names unique per list
  // (contract rules).
  static constexpr std::string_view wire_name = "GameVocabulary";
  template <class W>
  void fields(W& w) {
    contract_list8(w, "kinds", kinds, kVocabularyMaxKinds);
    w.shape("objects", objects);
    contract_list8(w, "entityFlags", entity_flags, kVocabularyFlagBits);
    contract_list8(w, "objectFlags", object_flags, kVocabularyFlagBits);
    contract_list8(w, "components", components, kVocabularyMaxComponents);
    contract_list8(w, "pawnValues", pawn_values, kVocabularyMaxPawnValues);
    contract_list8(w, "buttons", buttons, kVocabularyFlagBits);
  }
};

// `claimed` with only the claimable bits kept, and every other bit taken from `server`: what a
// pawn's flags become when a claim (or a client's own prediction) may set only the claimable ones.
constexpr uint8_t merge_claimed_flags(uint8_t server, uint8_t claimed, uint8_t claimable) {
  return static_cast<uint8_t>((server & ~claimable) | (claimed & claimable));
}

}  // namespace tickwire

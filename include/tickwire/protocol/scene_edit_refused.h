// SceneEditRefused (seed 000, "Scene edits"): the server's answer to the sender alone for each write
// of a gesture it refused, by name: the gesture, the object, the component and the key it named (the
// key empty for a component or object edit, the output's name for a wiring edit, everything zero for
// a gesture refused whole).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "tickwire/core/reasons.h"
#include "tickwire/protocol/edit_value.h"
#include "tickwire/protocol/scene_wiring.h"
#include "tickwire/wire/describe_walker.h"

namespace tickwire::protocol {

// Why a write (or a whole gesture) was refused. Nothing it names changed.
TW_REASONS(EditRefusal,
           not_authority,       // the session was not admitted with world authority: the gesture refused whole
           rate_limited,        // past the session's edits per second (the contract's limits): refused whole
           edit_set_full,       // the edit set would outgrow kMaxSceneNodeStateBytes: refused whole
           unknown_object,      // no spawned map object at that index
           component_not_worn,  // the object does not wear that component (and it is not one it can hold)
           unknown_key,         // the component has no field of that key
           wrong_form,          // the value is not in the field's form (numbers, switch, word, words)
           wrong_count,         // numbers: not as many as the field holds
           not_finite,          // numbers: a NaN or an infinity
           not_a_choice,        // a word (or one of the words) is none of the field's choices
           zero_axis,           // numbers: an axis of no length (a direction cannot be clamped into one)
           already_worn,        // add: the object wears it already
           not_addable,         // add: a component no edit can add (a logic behaviour), or no room left
           not_removable,       // remove: a component no edit can take off (a logic behaviour)
           not_inherited,       // remove: the object's map does not give it that component
           not_edited,          // revert: nothing stands to revert
           bad_transform,       // move: no transform, a non-finite one or a rotation of no length
           not_movable,         // move: its logic or the solver places it (a door, a carried body, a prop)
           not_logic,           // wiring: the object runs no logic (no node of it fires an output)
           unknown_target,      // wiring: a call names no object of the map
           bad_action,          // wiring: a name not an identifier, a delay outside [0, 86400] s, a number not finite or past +-1e6
           too_many_outputs)    // wiring: the object would wire more outputs than a map may give one
inline constexpr wire::NamedValue kEditRefusalMembers[] = {
    {"notAuthority", 0}, {"rateLimited", 1},   {"editSetFull", 2},   {"unknownObject", 3}, {"componentNotWorn", 4},
    {"unknownKey", 5},   {"wrongForm", 6},     {"wrongCount", 7},    {"notFinite", 8},     {"notAChoice", 9},
    {"zeroAxis", 10},    {"alreadyWorn", 11},  {"notAddable", 12},   {"notRemovable", 13}, {"notInherited", 14},
    {"notEdited", 15},   {"badTransform", 16}, {"notMovable", 17}, {"notLogic", 18},       {"unknownTarget", 19},
    {"badAction", 20},   {"tooManyOutputs", 21}};
inline constexpr wire::EnumDef kEditRefusalDef{"EditRefusal", kEditRefusalMembers};

struct SceneEditRefused {
  static constexpr std::string_view wire_name = "SceneEditRefused";
  static constexpr std::string_view message_name = "sceneEditRefused";
  static constexpr uint8_t wire_id = 27;
  static constexpr wire::Direction wire_direction = wire::Direction::server_to_client;

  uint32_t gesture = 0;
  uint32_t object = 0;
  uint8_t component = 0;
  std::string key;
  EditRefusal reason = EditRefusal::not_authority;
  friend bool operator==(const SceneEditRefused&, const SceneEditRefused&) = default;

  template <class W>
  void fields(W& w) {
    w.varu32("gesture", gesture);
    w.varu32("object", object);
    w.u8("component", component);
    w.str8("key", key, kMaxWiringNameBytes);  // a field key or an output name
    w.enum8("reason", reason, kEditRefusalDef);
  }
};

}  // namespace tickwire::protocol

// SceneEdit (seed 000, "Scene edits"): one editing gesture of a session with world authority, sent
// reliably to the server. Field edits name a described field of a component an object wears (the
// object's index, the component's type id, the field's description key) and a value in one of the
// four forms, or none for a revert; component edits add a component or remove an inherited one (or
// revert either); object edits hide, show, move, put back or rename the object; wiring edits give an
// output of a logic object a new action list or revert it (scene_wiring.h). The server checks
// every write through the same rules the editor checked it with before sending, applies what passes
// and tells the sender alone what it refused, by name.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tickwire/protocol/edit_value.h"
#include "tickwire/protocol/scene_wiring.h"
#include "tickwire/protocol/vec3.h"
#include "tickwire/wire/describe_walker.h"
#include "tickwire/wire/types.h"

namespace tickwire::protocol {

inline constexpr std::size_t kMaxGestureFieldEdits = 64;
inline constexpr std::size_t kMaxGestureComponentEdits = 16;
inline constexpr std::size_t kMaxGestureObjectEdits = 16;
inline constexpr std::size_t kMaxObjectNameBytes = 64;

struct FieldEdit {
  static constexpr std::string_view wire_name = "FieldEdit";
  uint32_t object = 0;              // the map object's index
  uint8_t component = 0;            // the component's type id (the game's edit vocabulary)
  std::string key;                  // the field's description key
  std::optional<EditValue> value;   // none: revert to what the map authors
  friend bool operator==(const FieldEdit&, const FieldEdit&) = default;
  template <class W>
  void fields(W& w) {
    w.varu32("object", object);
    w.u8("component", component);
    w.str8("key", key, kMaxEditKeyBytes);
    w.optional("value", value);
  }
};

// A component edit: add a component the object does not wear, remove one it inherits, or revert
// either (the object wears what its map says again).
enum class ComponentOp : uint8_t { add = 1, remove = 2, revert = 3 };
inline constexpr wire::NamedValue kComponentOpMembers[] = {{"add", 1}, {"remove", 2}, {"revert", 3}};
inline constexpr wire::EnumDef kComponentOpDef{"ComponentOp", kComponentOpMembers};

struct ComponentEdit {
  static constexpr std::string_view wire_name = "ComponentEdit";
  uint32_t object = 0;
  uint8_t component = 0;
  ComponentOp op = ComponentOp::add;
  friend bool operator==(const ComponentEdit&, const ComponentEdit&) = default;
  template <class W>
  void fields(W& w) {
    w.varu32("object", object);
    w.u8("component", component);
    w.enum8("op", op, kComponentOpDef);
  }
};

// An object edit (the edit verbs): hide drops its body and its drawing, show brings them back, move
// stands it (and its body) at a transform, unmove puts it back where its map puts it, rename names
// it (an empty name: its authored key again).
enum class ObjectVerb : uint8_t { hide = 1, show = 2, move = 3, unmove = 4, rename = 5 };
inline constexpr wire::NamedValue kObjectVerbMembers[] = {
    {"hide", 1}, {"show", 2}, {"move", 3}, {"unmove", 4}, {"rename", 5}};
inline constexpr wire::EnumDef kObjectVerbDef{"ObjectVerb", kObjectVerbMembers};

// Where an edit stands an object: a position and, when it turns it, a unit quaternion (x, y, z, w),
// full floats (an editor's placement is exact; the records quantize what they carry).
struct EditRotation {
  static constexpr std::string_view wire_name = "EditRotation";
  float x = 0, y = 0, z = 0, w = 1;
  friend bool operator==(const EditRotation&, const EditRotation&) = default;
  template <class W>
  void fields(W& wk) {
    wk.f32("x", x);
    wk.f32("y", y);
    wk.f32("z", z);
    wk.f32("w", w);
  }
};

struct EditTransform {
  static constexpr std::string_view wire_name = "EditTransform";
  Vec3 position;
  std::optional<EditRotation> rotation;
  friend bool operator==(const EditTransform&, const EditTransform&) = default;
  template <class W>
  void fields(W& w) {
    w.shape("position", position);
    w.optional("rotation", rotation);
  }
};

struct ObjectEdit {
  static constexpr std::string_view wire_name = "ObjectEdit";
  uint32_t object = 0;
  ObjectVerb verb = ObjectVerb::hide;
  std::optional<EditTransform> transform;  // move only
  std::string name;                          // rename only
  friend bool operator==(const ObjectEdit&, const ObjectEdit&) = default;
  template <class W>
  void fields(W& w) {
    w.varu32("object", object);
    w.enum8("verb", verb, kObjectVerbDef);
    w.optional("transform", transform);
    w.str8("name", name, kMaxObjectNameBytes);
  }
};

struct SceneEdit {
  static constexpr std::string_view wire_name = "SceneEdit";
  static constexpr std::string_view message_name = "sceneEdit";
  static constexpr uint8_t wire_id = 25;
  static constexpr wire::Direction wire_direction = wire::Direction::client_to_server;

  uint32_t gesture = 0;  // the editor's own counter, echoed in every refusal of this gesture
  std::vector<FieldEdit> field_edits;
  std::vector<ComponentEdit> component_edits;
  std::vector<ObjectEdit> object_edits;
  std::vector<WiringEdit> wiring_edits;
  friend bool operator==(const SceneEdit&, const SceneEdit&) = default;

  template <class W>
  void fields(W& w) {
    w.varu32("gesture", gesture);
    w.list16("fieldEdits", field_edits, 0, kMaxGestureFieldEdits);
    w.list8("componentEdits", component_edits, 0, kMaxGestureComponentEdits);
    w.list8("objectEdits", object_edits, 0, kMaxGestureObjectEdits);
    w.tail();  // an editor that predates wiring edits ends its gesture here
    w.list8("wiringEdits", wiring_edits, 0, kMaxGestureWiringEdits);
  }
};

}  // namespace tickwire::protocol

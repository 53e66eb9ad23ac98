// SceneNodeState (seed 000, "Scene edits"): the whole edit set of a room under a revision, sent
// reliably to every client whenever an accepted gesture changes it, and to each client that joins
// (so a lamp brightened an hour ago reaches a client that connected a moment ago). Full state, never
// a delta: a client that holds it knows everything that stands, keyed by object index: whether the
// object is hidden, where it was moved, its name, its field edits (a value always present), its
// component edits and its rewired outputs. A client lays it over its own copy of the map.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tickwire/protocol/edit_value.h"
#include "tickwire/protocol/scene_edit.h"
#include "tickwire/protocol/scene_wiring.h"
#include "tickwire/wire/describe_walker.h"
#include "tickwire/wire/types.h"

namespace tickwire::protocol {

inline constexpr std::size_t kMaxEditedObjects = 1024;       // objects in one edit set
inline constexpr std::size_t kMaxObjectFieldEdits = 64;      // field edits standing on one object
inline constexpr std::size_t kMaxObjectComponentEdits = 8;   // component edits standing on one object
// The edit set's encoded size is held under this (a gesture that would pass it is refused whole):
// it travels as one reliable block (kSessionMaxBlockBytes) with room to spare.
inline constexpr std::size_t kMaxSceneNodeStateBytes = 60 * 1024;

struct FieldState {
  static constexpr std::string_view wire_name = "FieldState";
  uint8_t component = 0;
  std::string key;
  EditValue value;
  friend bool operator==(const FieldState&, const FieldState&) = default;
  template <class W>
  void fields(W& w) {
    w.u8("component", component);
    w.str8("key", key, kMaxEditKeyBytes);
    w.shape("value", value);
  }
};

// A component edit that stands: added (the object wears it though its map does not say so) or
// removed (its map gives it, through an inherited kind, but it is taken off).
enum class ComponentChange : uint8_t { added = 1, removed = 2 };
inline constexpr wire::NamedValue kComponentChangeMembers[] = {{"added", 1}, {"removed", 2}};
inline constexpr wire::EnumDef kComponentChangeDef{"ComponentChange", kComponentChangeMembers};

struct ComponentState {
  static constexpr std::string_view wire_name = "ComponentState";
  uint8_t component = 0;
  ComponentChange change = ComponentChange::added;
  friend bool operator==(const ComponentState&, const ComponentState&) = default;
  template <class W>
  void fields(W& w) {
    w.u8("component", component);
    w.enum8("change", change, kComponentChangeDef);
  }
};

struct ObjectNodeState {
  static constexpr std::string_view wire_name = "ObjectNodeState";
  uint32_t object = 0;
  bool hidden = false;
  std::optional<EditTransform> transform;  // absent: where the map puts it
  std::string name;                        // empty: its authored key
  std::vector<ComponentState> components;  // ascending component id
  std::vector<FieldState> field_states;    // ascending (component id, key)
  std::vector<OutputState> outputs;        // rewired outputs, ascending output name
  friend bool operator==(const ObjectNodeState&, const ObjectNodeState&) = default;
  template <class W>
  void fields(W& w) {
    w.varu32("object", object);
    w.boolean("hidden", hidden);
    w.optional("transform", transform);
    w.str8("name", name, kMaxObjectNameBytes);
    w.list8("components", components, 0, kMaxObjectComponentEdits);
    w.list8("fieldStates", field_states, 0, kMaxObjectFieldEdits);
    w.list8("outputs", outputs, 0, kMaxWiredOutputs);
  }
};

struct SceneNodeState {
  static constexpr std::string_view wire_name = "SceneNodeState";
  static constexpr std::string_view message_name = "sceneNodeState";
  static constexpr uint8_t wire_id = 26;
  static constexpr wire::Direction wire_direction = wire::Direction::server_to_client;

  uint32_t revision = 0;               // moves with every accepted gesture; 0: nothing ever edited
  std::vector<ObjectNodeState> objects;  // ascending object index, each object at most once
  friend bool operator==(const SceneNodeState&, const SceneNodeState&) = default;

  template <class W>
  void fields(W& w) {
    w.varu32("revision", revision);
    w.list16("objects", objects, 0, kMaxEditedObjects);
  }
};

}  // namespace tickwire::protocol

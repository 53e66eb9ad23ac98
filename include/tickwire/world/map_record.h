// A record as a version 3 map authors it: a source it names plus one layer of overrides. The same
// shape fills three slots (a source definition's `inherits`, a carried child in another record's
// `objects`, a map's instance placement), so a variant, a carried child and a placed crate are one
// construct. MapContent keeps these layers as written; the loader resolves them into flat objects.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "tickwire/world/map_object.h"

namespace tickwire::world {

// A setting as a layer states it: its values (replacing the source's), or "removed".
struct SettingOverride {
  ComponentSetting setting;  // setting.name always; values only when not removed
  bool removed = false;
  friend bool operator==(const SettingOverride&, const SettingOverride&) = default;
};

// A component as a layer states it, every field optional: `channels` replaces the whole list when
// stated, `bits` when stated, `settings` merge by name. `removed` drops an inherited component.
struct ComponentOverride {
  std::string name;
  bool removed = false;
  std::optional<std::vector<float>> channels;  // at most kMaxComponentChannels
  std::optional<uint8_t> bits;
  std::vector<SettingOverride> settings;  // sorted by name, names unique

  friend bool operator==(const ComponentOverride&, const ComponentOverride&) = default;
};

// An output as a layer states it: a whole new action list, or "removed".
struct OutputOverride {
  std::string name;
  bool removed = false;
  std::vector<MapAction> actions;
  friend bool operator==(const OutputOverride&, const OutputOverride&) = default;
};

// One record: `source` names what it lays its fields over (empty: nothing, a plain object); every
// field it leaves unstated inherits. `removed` (a carried child only) drops an inherited child.
struct ObjectRecord {
  std::string key;     // a placement's map key, a carried child's key within its parent; empty in a source
  std::string source;  // a source's name (`inherits` in a source, `source` elsewhere); empty: none
  bool removed = false;
  std::optional<std::string> kind;
  std::optional<Vec3> position;  // a source's: its default; a child's: relative to its parent
  std::optional<Quat> rotation;
  std::optional<Vec3> scale;
  std::vector<ComponentOverride> components;  // at most kMaxObjectComponents, names unique
  std::vector<OutputOverride> outputs;        // at most kMaxObjectOutputs, sorted by name, unique
  std::vector<ObjectRecord> objects;          // carried children, at most kMaxCarriedChildren, keys unique

  friend bool operator==(const ObjectRecord&, const ObjectRecord&) = default;
};

// A named object definition of the map's `sources` section.
struct SourceDefinition {
  std::string name;
  ObjectRecord record;
  friend bool operator==(const SourceDefinition&, const SourceDefinition&) = default;
};

}  // namespace tickwire::world

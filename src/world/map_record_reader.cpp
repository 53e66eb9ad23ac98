// Reads a version 3 record (a source definition, a carried child or a placement: one grammar in
// three slots) field by field. Every field is optional in a layer; what it states is read exactly
// as the flat format reads it, and "removed": true stands alone.
#include "map_record_reader.h"

#include <span>

#include "map_json_fields.h"
#include "map_validate.h"

namespace tickwire::world::detail {
namespace {

// Where a record sits decides which of its fields exist: only a source `inherits`, only a carried
// child may be `removed`, and a source has no key (its name is its key in `sources`).
enum class RecordSlot { source, child, placement };

Found fail(MapErrorCode code, std::string path, std::string message) {
  return MapError{code, std::move(path), std::move(message)};
}

// `"removed": true`, the only removal; false is refused (leave the part out to inherit it).
Found read_removed(const json& j, const std::string& path) {
  if (!j.is_boolean()) return fail(MapErrorCode::wrong_type, path, "expected true");
  if (!j.get<bool>()) return fail(MapErrorCode::out_of_range, path, "only true: leave a part out to inherit it");
  return std::nullopt;
}

// A removal states what it removes and nothing else.
Found removal_only(const json& j, const std::string& at, std::string_view identity) {
  for (const auto& [key, value] : j.items())
    if (key != identity && key != "removed")
      return fail(MapErrorCode::unknown_field, path_field(at, printable_key(key)), "a removal states nothing else");
  return read_removed(j["removed"], path_field(at, "removed"));
}

bool states_removal(const json& j) { return j.is_object() && member(j, "removed") != nullptr; }

// An object of named entries of a layer, each a value or {"removed": true}, in name order.
template <class Entry, class ReadValue>
Found read_named_overrides(const json& j, const std::string& at, std::size_t cap, std::string_view what,
                           std::vector<Entry>& out, ReadValue read_value) {
  if (!j.is_object()) return fail(MapErrorCode::wrong_type, at, "expected an object of named " + std::string(what));
  if (auto e = check_count(j.size(), cap, at)) return e;
  out.resize(j.size());
  std::size_t i = 0;
  for (const auto& [name, value] : j.items()) {
    const std::string path = path_field(at, printable_key(name));
    Entry& entry = out[i++];
    if (states_removal(value)) {
      if (auto e = removal_only(value, path, "")) return e;
      entry.removed = true;
    }
    if (auto e = read_value(name, value, path, entry)) return e;
  }
  return std::nullopt;
}

Found read_setting_override(const std::string& name, const json& j, const std::string& at, SettingOverride& out) {
  out.setting.name = name;
  return out.removed ? std::nullopt : read_setting(j, at, out.setting);
}

Found read_output_override(const std::string& name, const json& j, const std::string& at, OutputOverride& out) {
  out.name = name;
  if (out.removed) return std::nullopt;
  MapOutput output;
  if (auto e = read_output(j, at, output)) return e;
  out.actions = std::move(output.actions);
  return std::nullopt;
}

Found read_component_override(const json& j, const std::string& at, ComponentOverride& out) {
  if (auto e = expect_object(j, at, {"name", "removed", "channels", "bits", "settings"})) return e;
  const json* field = nullptr;
  if (auto e = require(j, "name", at, field); e || (e = read_string(*field, path_field(at, "name"), out.name))) return e;
  if (member(j, "removed") != nullptr) {
    out.removed = true;
    return removal_only(j, at, "name");
  }
  if (const json* channels = member(j, "channels")) {
    float values[kMaxComponentChannels] = {};
    std::size_t read = 0;
    if (auto e = read_floats(*channels, path_field(at, "channels"), kMaxComponentChannels, false, values, read)) return e;
    out.channels.emplace(values, values + read);
  }
  if (const json* bits = member(j, "bits")) {
    uint8_t value = 0;
    if (auto e = read_bits(*bits, path_field(at, "bits"), value)) return e;
    out.bits = value;
  }
  if (const json* settings = member(j, "settings"))
    return read_named_overrides(*settings, path_field(at, "settings"), kMaxComponentSettings, "settings",
                                out.settings, read_setting_override);
  return std::nullopt;
}

constexpr std::string_view kSourceFields[] = {"inherits", "kind",       "position", "rotation",
                                              "scale",    "components", "outputs",  "objects"};
constexpr std::string_view kChildFields[] = {"key",   "source",     "removed", "kind",   "position",
                                             "rotation", "scale", "components", "outputs", "objects"};
constexpr std::string_view kPlacementFields[] = {"key",   "source",     "kind",    "position", "rotation",
                                                 "scale", "components", "outputs", "objects"};

std::span<const std::string_view> fields_of(RecordSlot slot) {
  switch (slot) {
    case RecordSlot::source: return kSourceFields;
    case RecordSlot::child: return kChildFields;
    case RecordSlot::placement: break;
  }
  return kPlacementFields;
}

Found read_record(const json& j, const std::string& at, RecordSlot slot, ObjectRecord& out);

// The layer's fields past its identity: kind, transform, components, outputs, carried children.
Found read_layer(const json& j, const std::string& at, ObjectRecord& out) {
  if (const json* kind = member(j, "kind")) {
    if (auto e = read_string(*kind, path_field(at, "kind"), out.kind.emplace())) return e;
  }
  if (const json* position = member(j, "position"))
    if (auto e = read_vec3(*position, path_field(at, "position"), out.position.emplace())) return e;
  if (const json* rotation = member(j, "rotation"))
    if (auto e = read_quat(*rotation, path_field(at, "rotation"), out.rotation.emplace())) return e;
  if (const json* scale = member(j, "scale"))
    if (auto e = read_vec3(*scale, path_field(at, "scale"), out.scale.emplace())) return e;
  const json* list = nullptr;
  if (auto e = list_field(j, "components", at, kMaxObjectComponents, list)) return e;
  if (list != nullptr) {
    out.components.resize(list->size());
    for (std::size_t k = 0; k < list->size(); ++k)
      if (auto e = read_component_override((*list)[k], path_index(path_field(at, "components"), k), out.components[k]))
        return e;
  }
  if (const json* outputs = member(j, "outputs"))
    if (auto e = read_named_overrides(*outputs, path_field(at, "outputs"), kMaxObjectOutputs, "outputs", out.outputs,
                                      read_output_override))
      return e;
  if (auto e = list_field(j, "objects", at, kMaxCarriedChildren, list)) return e;
  if (list != nullptr) {
    out.objects.resize(list->size());
    for (std::size_t k = 0; k < list->size(); ++k)
      if (auto e = read_record((*list)[k], path_index(path_field(at, "objects"), k), RecordSlot::child, out.objects[k]))
        return e;
  }
  return std::nullopt;
}

// Recursion is bounded by the parse's own depth cap (kMaxMapJsonDepth): a child is two levels down.
Found read_record(const json& j, const std::string& at, RecordSlot slot, ObjectRecord& out) {
  if (auto e = expect_object(j, at, fields_of(slot))) return e;
  const json* field = nullptr;
  if (slot != RecordSlot::source)
    if (auto e = require(j, "key", at, field); e || (e = read_string(*field, path_field(at, "key"), out.key))) return e;
  if (slot == RecordSlot::child && member(j, "removed") != nullptr) {
    out.removed = true;
    return removal_only(j, at, "key");
  }
  const std::string_view source_field = slot == RecordSlot::source ? "inherits" : "source";
  if (const json* source = member(j, source_field))
    if (auto e = read_string(*source, path_field(at, source_field), out.source)) return e;
  return read_layer(j, at, out);
}

}  // namespace

Found read_map_sources(const json& root, MapContent& content) {
  const json* sources = member(root, "sources");
  if (sources == nullptr) return std::nullopt;
  if (!sources->is_object()) return fail(MapErrorCode::wrong_type, "sources", "expected an object of named sources");
  if (auto e = check_count(sources->size(), kMaxMapSources, "sources")) return e;
  content.sources.resize(sources->size());
  std::size_t i = 0;
  for (const auto& [name, value] : sources->items()) {
    SourceDefinition& definition = content.sources[i++];
    definition.name = name;
    if (auto e = read_record(value, path_field("sources", printable_key(name)), RecordSlot::source, definition.record))
      return e;
  }
  return std::nullopt;
}

Found read_map_placement(const json& j, const std::string& at, MapContent& content) {
  ObjectRecord placement;
  if (auto e = read_record(j, at, RecordSlot::placement, placement)) return e;
  content.placements.push_back(std::move(placement));
  return std::nullopt;
}

}  // namespace tickwire::world::detail

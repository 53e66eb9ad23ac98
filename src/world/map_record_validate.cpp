// The rules of a version 3 map's records as authored (docs/map-format.md, "Records and overrides"),
// checked at the path each value was written at: identifiers, numbers, caps, and one override per
// part (a component, setting, output or carried child named twice in one layer is refused).
// Whether a layer fits its source (an unknown source, a cycle, removing the absent) is the
// resolver's to say.
#include <algorithm>
#include <cmath>

#include "map_validate.h"

namespace tickwire::world::detail {
namespace {

using Found = std::optional<MapError>;

Found fail(MapErrorCode code, std::string path, std::string message) {
  return MapError{code, std::move(path), std::move(message)};
}

// The entry of `list` at `index` is named like an earlier one (`name_of` gives each name).
template <class List, class NameOf>
std::optional<std::size_t> earlier_twin(const List& list, std::size_t index, NameOf name_of) {
  for (std::size_t j = 0; j < index; ++j)
    if (name_of(list[j]) == name_of(list[index])) return j;
  return std::nullopt;
}

Found check_setting_overrides(const ComponentOverride& comp, const std::string& at) {
  if (auto e = check_count(comp.settings.size(), kMaxComponentSettings, at)) return e;
  for (std::size_t i = 0; i < comp.settings.size(); ++i) {
    const ComponentSetting& setting = comp.settings[i].setting;
    if (auto e = check_identifier(setting.name, at)) return e;
    if (earlier_twin(comp.settings, i, [](const SettingOverride& s) -> const std::string& { return s.setting.name; }))
      return fail(MapErrorCode::duplicate_override, path_field(at, setting.name), "one override per setting");
    if (comp.settings[i].removed) continue;
    if (auto e = check_component_setting(comp.name, setting, at)) return e;
  }
  return std::nullopt;
}

Found check_component_overrides(const ObjectRecord& r, const std::string& at) {
  const std::string list = path_field(at, "components");
  if (auto e = check_count(r.components.size(), kMaxObjectComponents, list)) return e;
  for (std::size_t k = 0; k < r.components.size(); ++k) {
    const ComponentOverride& comp = r.components[k];
    const std::string path = path_index(list, k);
    if (auto e = check_identifier(comp.name, path_field(path, "name"))) return e;
    if (auto twin = earlier_twin(r.components, k, [](const ComponentOverride& c) -> const std::string& { return c.name; }))
      return fail(MapErrorCode::duplicate_override, path_field(path, "name"),
                  "component \"" + comp.name + "\" also at " + path_index(list, *twin) + ": one override per component");
    if (comp.channels) {
      const std::string channels = path_field(path, "channels");
      if (auto e = check_count(comp.channels->size(), kMaxComponentChannels, channels)) return e;
      for (float v : *comp.channels)
        if (!std::isfinite(v)) return fail(MapErrorCode::not_finite, channels, "expected finite numbers");
    }
    if (auto e = check_setting_overrides(comp, path_field(path, "settings"))) return e;
  }
  return std::nullopt;
}

Found check_output_overrides(const ObjectRecord& r, const std::string& object_at) {
  const std::string at = path_field(object_at, "outputs");
  if (auto e = check_count(r.outputs.size(), kMaxObjectOutputs, at)) return e;
  for (std::size_t i = 0; i < r.outputs.size(); ++i) {
    const OutputOverride& output = r.outputs[i];
    if (auto e = check_identifier(output.name, at)) return e;
    if (earlier_twin(r.outputs, i, [](const OutputOverride& o) -> const std::string& { return o.name; }))
      return fail(MapErrorCode::duplicate_override, path_field(at, output.name), "one override per output");
    const std::string list = path_field(at, output.name);
    if (auto e = check_count(output.actions.size(), kMaxOutputActions, list)) return e;
    for (std::size_t a = 0; a < output.actions.size(); ++a)
      if (auto e = check_action(output.actions[a], path_index(list, a))) return e;
  }
  return std::nullopt;
}

// One record in any slot; `source_field` is how this slot spells its source ("inherits" or
// "source"). A carried child recurses: nesting is bounded by the parse's depth cap.
Found check_record(const ObjectRecord& r, const std::string& at, std::string_view source_field, bool keyed) {
  if (keyed)
    if (auto e = check_identifier(r.key, path_field(at, "key"))) return e;
  if (r.removed) return std::nullopt;
  if (!r.source.empty())
    if (auto e = check_identifier(r.source, path_field(at, source_field))) return e;
  if (r.kind)
    if (auto e = check_identifier(*r.kind, path_field(at, "kind"))) return e;
  if (r.position)
    if (auto e = check_point(*r.position, path_field(at, "position"))) return e;
  if (r.rotation)
    if (auto e = check_rotation(*r.rotation, path_field(at, "rotation"))) return e;
  if (r.scale)
    if (auto e = check_scale(*r.scale, path_field(at, "scale"))) return e;
  if (auto e = check_component_overrides(r, at)) return e;
  if (auto e = check_output_overrides(r, at)) return e;
  const std::string children = path_field(at, "objects");
  if (auto e = check_count(r.objects.size(), kMaxCarriedChildren, children)) return e;
  for (std::size_t k = 0; k < r.objects.size(); ++k) {
    const std::string path = path_index(children, k);
    if (auto e = check_record(r.objects[k], path, "source", true)) return e;
    if (auto twin = earlier_twin(r.objects, k, [](const ObjectRecord& c) -> const std::string& { return c.key; }))
      return fail(MapErrorCode::duplicate_override, path_field(path, "key"),
                  "child \"" + r.objects[k].key + "\" also at " + path_index(children, *twin) + ": one override per child");
  }
  return std::nullopt;
}

}  // namespace

Found check_map_records(const MapContent& content) {
  if (auto e = check_count(content.sources.size(), kMaxMapSources, "sources")) return e;
  for (std::size_t i = 0; i < content.sources.size(); ++i) {
    const SourceDefinition& source = content.sources[i];
    // A bad name is reported at the section: the name itself may not be printable.
    if (auto e = check_identifier(source.name, "sources")) return e;
    const std::string at = path_field("sources", source.name);
    if (i > 0 && content.sources[i - 1].name == source.name)
      return fail(MapErrorCode::duplicate_key, at, "source \"" + source.name + "\" defined twice");
    if (source.record.removed || !source.record.key.empty())
      return fail(MapErrorCode::unknown_field, at, "a source has no key and removes nothing");
    if (auto e = check_record(source.record, at, "inherits", false)) return e;
  }
  if (auto e = check_count(content.placements.size(), kMaxMapObjects, "objects")) return e;
  for (std::size_t i = 0; i < content.placements.size(); ++i) {
    const std::string at = path_index("objects", i);
    if (content.placements[i].removed) return fail(MapErrorCode::unknown_field, path_field(at, "removed"), "a placement removes nothing");
    if (auto e = check_record(content.placements[i], at, "source", true)) return e;
  }
  return std::nullopt;
}

}  // namespace tickwire::world::detail

// The canonical map text. Member order is fixed, lists hold one entry per line, and a number is
// the shortest fixed-point decimal that reads back (through a double, as the loader reads it) as
// the same float; where the shortest float text would not survive that path, the double's own
// shortest text is written instead. No exponents, no "-0".
#include "tickwire/world/map_writer.h"

#include <charconv>
#include <cmath>

namespace tickwire::world {
namespace {

constexpr std::size_t kNumberTextBytes = 128;  // the longest fixed float or double text fits

void append_string(std::string& out, std::string_view value) {
  out.push_back('"');
  for (char c : value) {
    if (c == '"' || c == '\\') out.push_back('\\');
    out.push_back(c);
  }
  out.push_back('"');
}

void append_number(std::string& out, float value) { out.append(canonical_map_number(value)); }

void append_floats(std::string& out, std::span<const float> values) {
  out.push_back('[');
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out.append(", ");
    append_number(out, values[i]);
  }
  out.push_back(']');
}

void append_vec3(std::string& out, Vec3 v) {
  const float values[] = {v.x, v.y, v.z};
  append_floats(out, values);
}

void append_member(std::string& out, std::string_view key, bool first) {
  if (!first) out.append(", ");
  append_string(out, key);
  out.append(": ");
}

void append_box(std::string& out, const Aabb& box, const BoxSurface& surface) {
  out.push_back('{');
  append_member(out, "tag", true);
  append_string(out, surface.tag);
  append_member(out, "material", false);
  append_string(out, surface.material);
  append_member(out, "min", false);
  append_vec3(out, box.min);
  append_member(out, "max", false);
  append_vec3(out, box.max);
  out.push_back('}');
}

void append_spawn(std::string& out, const SpawnPoint& spawn) {
  out.push_back('{');
  append_member(out, "position", true);
  append_vec3(out, spawn.position);
  append_member(out, "yaw_deg", false);
  append_number(out, spawn.yaw_deg);
  out.push_back('}');
}

// A setting of one number is written as the number, of several as an array.
void append_settings(std::string& out, const std::vector<ComponentSetting>& settings) {
  out.push_back('{');
  for (std::size_t i = 0; i < settings.size(); ++i) {
    append_member(out, settings[i].name, i == 0);
    if (settings[i].count == 1) {
      append_number(out, settings[i].values[0]);
    } else {
      append_floats(out, settings[i].active_values());
    }
  }
  out.push_back('}');
}

void append_component(std::string& out, const ObjectComponent& c) {
  out.push_back('{');
  append_member(out, "name", true);
  append_string(out, c.name);
  append_member(out, "channels", false);
  append_floats(out, c.active_channels());
  append_member(out, "bits", false);
  out.append(std::to_string(unsigned{c.bits}));
  if (!c.settings.empty()) {
    append_member(out, "settings", false);
    append_settings(out, c.settings);
  }
  out.push_back('}');
}

void append_action(std::string& out, const MapAction& action) {
  out.push_back('{');
  if (const auto* delay = std::get_if<MapDelay>(&action)) {
    append_member(out, "delay", true);
    append_number(out, delay->seconds);
  } else {
    const MapCall& call = std::get<MapCall>(action);
    append_member(out, "target", true);
    append_string(out, call.target);
    append_member(out, "input", false);
    append_string(out, call.input);
    if (call.parameter) {
      append_member(out, "param", false);
      append_number(out, *call.parameter);
    }
  }
  out.push_back('}');
}

void append_actions(std::string& out, const std::vector<MapAction>& actions) {
  out.push_back('[');
  for (std::size_t a = 0; a < actions.size(); ++a) {
    if (a > 0) out.append(", ");
    append_action(out, actions[a]);
  }
  out.push_back(']');
}

void append_outputs(std::string& out, const std::vector<MapOutput>& outputs) {
  out.push_back('{');
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    append_member(out, outputs[i].name, i == 0);
    append_actions(out, outputs[i].actions);
  }
  out.push_back('}');
}

void append_object(std::string& out, const MapObject& o) {
  out.push_back('{');
  append_member(out, "key", true);
  append_string(out, o.key);
  append_member(out, "kind", false);
  append_string(out, o.kind);
  append_member(out, "position", false);
  append_vec3(out, o.position);
  if (o.rotation) {
    append_member(out, "rotation", false);
    const float q[] = {o.rotation->x, o.rotation->y, o.rotation->z, o.rotation->w};
    append_floats(out, q);
  }
  if (o.scale) {
    append_member(out, "scale", false);
    append_vec3(out, *o.scale);
  }
  append_member(out, "components", false);
  out.push_back('[');
  for (std::size_t i = 0; i < o.components.size(); ++i) {
    if (i > 0) out.append(", ");
    append_component(out, o.components[i]);
  }
  out.push_back(']');
  if (!o.outputs.empty()) {
    append_member(out, "outputs", false);
    append_outputs(out, o.outputs);
  }
  out.push_back('}');
}

void append_cell(std::string& out, const VoxelCell& cell) {
  out.append("[").append(std::to_string(cell[0])).append(", ").append(std::to_string(cell[1]));
  out.append(", ").append(std::to_string(cell[2])).append("]");
}

// A grid on one line: every member always, integers as integers, `solid` always stated.
void append_voxel_grid(std::string& out, const VoxelGridDef& g) {
  out.push_back('{');
  append_member(out, "name", true);
  append_string(out, g.name);
  append_member(out, "size", false);
  append_cell(out, g.size);
  append_member(out, "cellM", false);
  append_number(out, g.cell_m);
  append_member(out, "chunkEdge", false);
  out.append(std::to_string(unsigned{g.chunk_edge}));
  append_member(out, "blocks", false);
  out.push_back('[');
  for (std::size_t b = 0; b < g.blocks.size(); ++b) {
    if (b > 0) out.append(", ");
    out.push_back('{');
    append_member(out, "name", true);
    append_string(out, g.blocks[b].name);
    append_member(out, "solid", false);
    out.append(g.blocks[b].solid ? "true" : "false");
    out.push_back('}');
  }
  out.push_back(']');
  append_member(out, "fills", false);
  out.push_back('[');
  for (std::size_t f = 0; f < g.fills.size(); ++f) {
    if (f > 0) out.append(", ");
    out.push_back('{');
    append_member(out, "min", true);
    append_cell(out, g.fills[f].min);
    append_member(out, "max", false);
    append_cell(out, g.fills[f].max);
    append_member(out, "block", false);
    out.append(std::to_string(unsigned{g.fills[f].block}));
    out.push_back('}');
  }
  out.append("]}");
}

// Version 3 records: the same member order as an object, each part only when the layer states it.
constexpr std::string_view kRemoved = "{\"removed\": true}";

void append_setting_overrides(std::string& out, const std::vector<SettingOverride>& settings) {
  out.push_back('{');
  for (std::size_t i = 0; i < settings.size(); ++i) {
    const ComponentSetting& s = settings[i].setting;
    append_member(out, s.name, i == 0);
    if (settings[i].removed) {
      out.append(kRemoved);
    } else if (s.count == 1) {
      append_number(out, s.values[0]);
    } else {
      append_floats(out, s.active_values());
    }
  }
  out.push_back('}');
}

void append_component_override(std::string& out, const ComponentOverride& c) {
  out.push_back('{');
  append_member(out, "name", true);
  append_string(out, c.name);
  if (c.removed) {
    append_member(out, "removed", false);
    out.append("true}");
    return;
  }
  if (c.channels) {
    append_member(out, "channels", false);
    append_floats(out, *c.channels);
  }
  if (c.bits) {
    append_member(out, "bits", false);
    out.append(std::to_string(unsigned{*c.bits}));
  }
  if (!c.settings.empty()) {
    append_member(out, "settings", false);
    append_setting_overrides(out, c.settings);
  }
  out.push_back('}');
}

void append_output_overrides(std::string& out, const std::vector<OutputOverride>& outputs) {
  out.push_back('{');
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    append_member(out, outputs[i].name, i == 0);
    if (outputs[i].removed) {
      out.append(kRemoved);
    } else {
      append_actions(out, outputs[i].actions);
    }
  }
  out.push_back('}');
}

// Writes a record's members after whatever came first; `first` says whether any did.
class RecordMembers {
 public:
  RecordMembers(std::string& out, bool first) : out_(out), first_(first) {}
  std::string& operator()(std::string_view key) {
    append_member(out_, key, first_);
    first_ = false;
    return out_;
  }

 private:
  std::string& out_;
  bool first_;
};

void append_record(std::string& out, const ObjectRecord& r, std::string_view source_field, bool keyed) {
  out.push_back('{');
  RecordMembers member(out, true);
  if (keyed) append_string(member("key"), r.key);
  if (!r.source.empty()) append_string(member(source_field), r.source);
  if (r.removed) {
    member("removed").append("true}");
    return;
  }
  if (r.kind) append_string(member("kind"), *r.kind);
  if (r.position) append_vec3(member("position"), *r.position);
  if (r.rotation) {
    const float q[] = {r.rotation->x, r.rotation->y, r.rotation->z, r.rotation->w};
    append_floats(member("rotation"), q);
  }
  if (r.scale) append_vec3(member("scale"), *r.scale);
  if (!r.components.empty()) {
    member("components").push_back('[');
    for (std::size_t i = 0; i < r.components.size(); ++i) {
      if (i > 0) out.append(", ");
      append_component_override(out, r.components[i]);
    }
    out.push_back(']');
  }
  if (!r.outputs.empty()) append_output_overrides(member("outputs"), r.outputs);
  if (!r.objects.empty()) {
    member("objects").push_back('[');
    for (std::size_t i = 0; i < r.objects.size(); ++i) {
      if (i > 0) out.append(", ");
      append_record(out, r.objects[i], "source", true);
    }
    out.push_back(']');
  }
  out.push_back('}');
}

// `"sources": {` + one definition per line + `},`; written only when the map has sources.
void append_sources(std::string& out, const std::vector<SourceDefinition>& sources) {
  if (sources.empty()) return;
  out.append("  \"sources\": {");
  for (std::size_t i = 0; i < sources.size(); ++i) {
    out.append(i == 0 ? "\n    " : ",\n    ");
    append_string(out, sources[i].name);
    out.append(": ");
    append_record(out, sources[i].record, "inherits", false);
  }
  out.append("\n  },\n");
}

// `"key": [` + one entry per line + `]`; an empty list is `[]`.
template <class Entries, class AppendOne>
void append_list(std::string& out, std::string_view key, const Entries& entries, AppendOne append_one, bool last) {
  out.append("  ");
  append_string(out, key);
  out.append(": [");
  for (std::size_t i = 0; i < entries.size(); ++i) {
    out.append(i == 0 ? "\n    " : ",\n    ");
    append_one(i);
  }
  if (!entries.empty()) out.append("\n  ");
  out.append(last ? "]\n" : "],\n");
}

}  // namespace

std::string canonical_map_number(float value) {
  TW_ASSERT(std::isfinite(value), "a map number is finite");
  if (value == 0.0f) return "0";
  char text[kNumberTextBytes];
  auto written = std::to_chars(text, text + sizeof text, value, std::chars_format::fixed);
  TW_ASSERT(written.ec == std::errc{}, "the number text buffer fits any float");
  double back = 0;
  const auto read = std::from_chars(text, written.ptr, back);
  if (read.ec == std::errc{} && static_cast<float>(back) == value) return std::string(text, written.ptr);
  written = std::to_chars(text, text + sizeof text, static_cast<double>(value), std::chars_format::fixed);
  TW_ASSERT(written.ec == std::errc{}, "the number text buffer fits any float as a double");
  return std::string(text, written.ptr);
}

std::string canonical_map_text(const MapContent& c) {
  std::string out = "{\n  \"format\": ";
  append_string(out, kMapFormatMarker);
  out.append(",\n  \"version\": ").append(std::to_string(c.version)).append(",\n  \"name\": ");
  append_string(out, c.name);
  out.append(",\n");
  append_list(out, "boxes", c.boxes, [&](std::size_t i) { append_box(out, c.boxes[i], c.box_surfaces[i]); }, false);
  append_list(out, "spawns", c.spawn_points, [&](std::size_t i) { append_spawn(out, c.spawn_points[i]); }, false);
  if (!c.voxel_grids.empty())  // absent when empty: a map without grids writes (and hashes) as before
    append_list(out, "voxelGrids", c.voxel_grids, [&](std::size_t i) { append_voxel_grid(out, c.voxel_grids[i]); }, false);
  if (c.version >= 3) {  // the records as authored; the resolved objects are never written
    append_sources(out, c.sources);
    append_list(out, "objects", c.placements, [&](std::size_t i) { append_record(out, c.placements[i], "source", true); },
                true);
  } else {
    append_list(out, "objects", c.objects, [&](std::size_t i) { append_object(out, c.objects[i]); }, true);
  }
  out.append("}\n");
  return out;
}

std::string save_map(const Map& map) { return canonical_map_text(map.content()); }

}  // namespace tickwire::world

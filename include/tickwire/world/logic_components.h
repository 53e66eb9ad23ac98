// The reference game's logic components, named once: which component of a map object is a logic
// behaviour (a mover, a button, a light, a plate, a trigger volume, a relay, timer, counter or
// gate), which settings each takes, their ranges and defaults. The map loader checks a file's
// settings against this table (so a typo or an out-of-range speed is refused with its JSON path),
// and the logic host reads the same table when it builds the behaviours, so the two never drift.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

#include "tickwire/world/map.h"

namespace tickwire::world {

// What a setting holds: `count` numbers each in [min, max] (a speed; a colour), a flag (exactly 0
// or 1), a vector of `count` numbers each in [min, max] (an axis: not all zero), an index: a whole
// number in [min, max] naming a row of a table (a physics prop's material, kPropMaterials; a voxel
// volume's grid), or a choice set: a whole number whose bit i says choice i is in the set (a
// light's layers). A setting holds numbers only; an index or a set with `choices` is edited by name
// (a word, a list of words: the scene edit vocabulary), the table being the one place names live.
enum class SettingShape : uint8_t { number, flag, vector, index, choice_set };

struct SettingSpec {
  std::string_view name;
  SettingShape shape = SettingShape::number;
  uint8_t count = 1;  // numbers in the setting (vector: 3)
  float min = 0;
  float max = 0;
  std::array<float, kMaxSettingValues> fallback{};  // the value when the map leaves it out
  std::span<const std::string_view> choices{};      // an index's or a choice set's names, by row or bit
};

struct LogicComponentSpec {
  std::string_view component;  // the component's name in the map ("mover", "button"...)
  std::span<const SettingSpec> settings;
};

// The logic component named `component`, or nullptr (not a logic component: it has no settings).
const LogicComponentSpec* logic_component_spec(std::string_view component);
// Every logic component, in the table's order.
std::span<const LogicComponentSpec> logic_component_specs();
// Whether an object of the map is a node of its logic: it wears a logic component or has wiring of
// its own (what MapLogicHost loads, and what a wiring edit may rewire).
bool runs_logic(const MapObject& object);

// The physics prop's settings (`physics_prop`: mass, size, material): no behaviour runs it, but the
// game's body reads them, so a map is checked against them like a logic component's.
const LogicComponentSpec& physics_prop_spec();
// The materials a physics prop's `material` index names, in index order.
inline constexpr std::string_view kPropMaterials[] = {"wood", "metal", "stone", "rubber"};
// A light's shadow modes (its `shadows` index) and the layers it lights (its `layers` choice set).
inline constexpr std::string_view kLightShadows[] = {"none", "hard", "soft"};
inline constexpr std::string_view kLightLayers[] = {"world", "pawns", "props", "water"};
// Who simulates a physics prop (its `sim` index): the server's solver, its pose on the wire; or each
// client alone, in its prediction world only, never on the wire.
inline constexpr std::string_view kPropSims[] = {"server", "client"};
// The collider's settings (`collider`: half_extents, solid): the box a solid object's body is made
// of (LogicBodies). Map data only: it never replicates (replicated_component).
const LogicComponentSpec& collider_spec();
// The voxel volume's settings (`voxel_volume`: grid, an index into the map's voxelGrids): it places
// that grid axis-aligned and unscaled, cell (0, 0, 0)'s min corner at the object's position. Checked
// like the physics prop's (no behaviour runs it); it replicates, its bit 0 saying solid.
const LogicComponentSpec& voxel_volume_spec();
// The voxel block's settings (`voxel_block`: open_block): an object carried by a voxel volume stands
// for a cell (VoxelClaims); with a mover, the server writes `open_block` into that cell while the
// mover stands open (past half its travel) and the map's block while it is closed, so the volume
// draws it right once the object has gone. Map data only: it never replicates.
const LogicComponentSpec& voxel_block_spec();
// The water's settings (`water`: half_extents, wave_amplitude_m, wave_period_s, wavelength_m): a
// pool (WaterPool) whose basin is centred on the object, axis-aligned and unscaled, its surface at
// rest the basin's top, displaced by a travelling wave. Map data only: it never replicates.
const LogicComponentSpec& water_spec();
// Whether a component travels in the object's records (every component but the collider, the
// voxel block and the water).
bool replicated_component(std::string_view component);
// The settings table of any component that takes settings (a logic component, the physics prop,
// the collider or the voxel volume), or nullptr: that component takes none.
const LogicComponentSpec* component_settings_spec(std::string_view component);

// A setting of `component` as the map states it or, absent, its fallback. Asserts the name is one
// of the component's settings (a host reads only what the table defines).
std::array<float, kMaxSettingValues> setting_values(const ObjectComponent& component, std::string_view name);
float setting_number(const ObjectComponent& component, std::string_view name);
bool setting_flag(const ObjectComponent& component, std::string_view name);

}  // namespace tickwire::world

// The table of the reference game's logic components and their settings (docs/map-format.md).
#include "tickwire/world/logic_components.h"

#include <algorithm>
#include <iterator>

#include "tickwire/core/assert.h"

namespace tickwire::world {
namespace {

constexpr float kMaxSlideM = 100.0f;       // a mover's travel
constexpr float kMaxSlideSpeedMps = 100.0f;
constexpr float kMaxVolumeHalfM = 100.0f;  // a plate's or trigger's half extent on an axis

constexpr SettingSpec kMover[] = {
    {"axis", SettingShape::vector, 3, -1, 1, {1, 0, 0, 0}},  // the slide, in the object's own frame
    {"distance_m", SettingShape::number, 1, 0.01f, kMaxSlideM, {2, 0, 0, 0}},
    {"speed_mps", SettingShape::number, 1, 0.001f, kMaxSlideSpeedMps, {1, 0, 0, 0}},
    {"usable", SettingShape::flag, 1, 0, 1, {0, 0, 0, 0}},  // a Use toggles it
};
constexpr SettingSpec kButton[] = {
    {"reset_s", SettingShape::number, 1, 0, kMaxLogicDelaySeconds, {0, 0, 0, 0}},  // 0: stays pressed
};
constexpr SettingSpec kVolume[] = {
    {"half_extents", SettingShape::vector, 3, 0.01f, kMaxVolumeHalfM, {0.5f, 0.25f, 0.5f, 0}},
};
constexpr SettingSpec kRelay[] = {
    {"start_disabled", SettingShape::flag, 1, 0, 1, {0, 0, 0, 0}},
};
constexpr SettingSpec kTimer[] = {
    {"interval_s", SettingShape::number, 1, 0, kMaxLogicDelaySeconds, {1, 0, 0, 0}},
    {"refire", SettingShape::flag, 1, 0, 1, {1, 0, 0, 0}},
    {"start_on", SettingShape::flag, 1, 0, 1, {0, 0, 0, 0}},
};
constexpr SettingSpec kCounter[] = {
    {"max", SettingShape::number, 1, -kMaxSettingMagnitude, kMaxSettingMagnitude, {1, 0, 0, 0}},
    {"min", SettingShape::number, 1, -kMaxSettingMagnitude, kMaxSettingMagnitude, {0, 0, 0, 0}},
    {"start", SettingShape::number, 1, -kMaxSettingMagnitude, kMaxSettingMagnitude, {0, 0, 0, 0}},
};
constexpr SettingSpec kGate[] = {
    {"initial", SettingShape::flag, 1, 0, 1, {0, 0, 0, 0}},
};

// A light's look: what the renderer lays over the authored light (the scene state applier's
// override on a client). No behaviour reads them; they are edited live like any other field.
constexpr float kMaxLightIntensity = 1000.0f;
constexpr float kMaxLightRangeM = 1000.0f;
constexpr SettingSpec kLight[] = {
    {"color", SettingShape::number, 3, 0, 1, {1, 1, 1, 0}},  // linear red, green, blue
    {"intensity", SettingShape::number, 1, 0, kMaxLightIntensity, {1, 0, 0, 0}},
    {"layers", SettingShape::choice_set, 1, 0, float((1u << std::size(kLightLayers)) - 1), {1, 0, 0, 0}, kLightLayers},
    {"range_m", SettingShape::number, 1, 0.1f, kMaxLightRangeM, {10, 0, 0, 0}},
    {"shadows", SettingShape::index, 1, 0, float(std::size(kLightShadows) - 1), {1, 0, 0, 0}, kLightShadows},
};

constexpr float kMaxPropMassKg = 100000.0f;
constexpr float kMaxPropSizeM = 100.0f;
constexpr SettingSpec kPhysicsProp[] = {
    {"mass", SettingShape::number, 1, 0.01f, kMaxPropMassKg, {10, 0, 0, 0}},  // kilograms
    {"material", SettingShape::index, 1, 0, float(std::size(kPropMaterials) - 1), {0, 0, 0, 0}, kPropMaterials},
    {"sim", SettingShape::index, 1, 0, float(std::size(kPropSims) - 1), {0, 0, 0, 0}, kPropSims},  // who simulates it
    {"size", SettingShape::vector, 3, 0.01f, kMaxPropSizeM, {1, 1, 1, 0}},  // the box's edges, metres
};
constexpr LogicComponentSpec kPhysicsPropSpec{"physics_prop", kPhysicsProp};

constexpr float kMaxColliderHalfM = 100.0f;
constexpr SettingSpec kCollider[] = {
    {"half_extents", SettingShape::vector, 3, 0.01f, kMaxColliderHalfM, {0.5f, 0.5f, 0.5f, 0}},  // centred on the object
    {"solid", SettingShape::flag, 1, 0, 1, {1, 0, 0, 0}},  // 0: a sensor that blocks nothing
};
constexpr LogicComponentSpec kColliderSpec{"collider", kCollider};

constexpr SettingSpec kVoxelVolume[] = {
    {"grid", SettingShape::index, 1, 0, float(kMaxVoxelGrids - 1), {0, 0, 0, 0}},  // the map's voxelGrids[grid]
};
constexpr LogicComponentSpec kVoxelVolumeSpec{"voxel_volume", kVoxelVolume};

constexpr SettingSpec kVoxelBlock[] = {
    {"open_block", SettingShape::index, 1, 0, float(kMaxVoxelBlocks), {0, 0, 0, 0}},  // its cell's block while open
};
constexpr LogicComponentSpec kVoxelBlockSpec{"voxel_block", kVoxelBlock};

constexpr float kMaxWaterHalfM = 100.0f;
constexpr SettingSpec kWater[] = {
    {"half_extents", SettingShape::vector, 3, 0.01f, kMaxWaterHalfM, {2, 1, 2, 0}},  // the basin; its top is the surface at rest
    {"wave_amplitude_m", SettingShape::number, 1, 0, 5, {0.1f, 0, 0, 0}},
    {"wave_period_s", SettingShape::number, 1, 0.1f, 1000, {3, 0, 0, 0}},
    {"wavelength_m", SettingShape::number, 1, 0.1f, 1000, {4, 0, 0, 0}},
};
constexpr LogicComponentSpec kWaterSpec{"water", kWater};

constexpr LogicComponentSpec kSpecs[] = {
    {"mover", kMover},     {"button", kButton}, {"light", kLight},          {"plate", kVolume}, {"trigger", kVolume},
    {"relay", kRelay},     {"timer", kTimer},   {"counter", kCounter}, {"gate", kGate},
};

const SettingSpec& spec_of(const ObjectComponent& component, std::string_view name) {
  const LogicComponentSpec* spec = component_settings_spec(component.name);
  TW_ASSERT(spec != nullptr, "settings are read only from components that take them");
  for (const SettingSpec& s : spec->settings)
    if (s.name == name) return s;
  TW_ASSERT(false, "a setting the component's table does not define");
  return spec->settings.front();
}

}  // namespace

const LogicComponentSpec* logic_component_spec(std::string_view component) {
  for (const LogicComponentSpec& spec : kSpecs)
    if (spec.component == component) return &spec;
  return nullptr;
}

std::span<const LogicComponentSpec> logic_component_specs() { return kSpecs; }

bool runs_logic(const MapObject& object) {
  if (!object.outputs.empty()) return true;
  return std::any_of(object.components.begin(), object.components.end(),
                     [](const ObjectComponent& c) { return logic_component_spec(c.name) != nullptr; });
}

const LogicComponentSpec& physics_prop_spec() { return kPhysicsPropSpec; }

const LogicComponentSpec& collider_spec() { return kColliderSpec; }

const LogicComponentSpec& voxel_volume_spec() { return kVoxelVolumeSpec; }

const LogicComponentSpec& voxel_block_spec() { return kVoxelBlockSpec; }

const LogicComponentSpec& water_spec() { return kWaterSpec; }

const LogicComponentSpec* component_settings_spec(std::string_view component) {
  if (component == kPhysicsPropSpec.component) return &kPhysicsPropSpec;
  if (component == kColliderSpec.component) return &kColliderSpec;
  if (component == kVoxelVolumeSpec.component) return &kVoxelVolumeSpec;
  if (component == kVoxelBlockSpec.component) return &kVoxelBlockSpec;
  if (component == kWaterSpec.component) return &kWaterSpec;
  return logic_component_spec(component);
}

bool replicated_component(std::string_view component) {
  return component != kColliderSpec.component && component != kVoxelBlockSpec.component &&
         component != kWaterSpec.component;
}

std::array<float, kMaxSettingValues> setting_values(const ObjectComponent& component, std::string_view name) {
  const SettingSpec& spec = spec_of(component, name);
  const ComponentSetting* given = component.setting(name);
  return given != nullptr ? given->values : spec.fallback;
}

float setting_number(const ObjectComponent& component, std::string_view name) {
  return setting_values(component, name)[0];
}

bool setting_flag(const ObjectComponent& component, std::string_view name) {
  return setting_number(component, name) != 0.0f;
}

}  // namespace tickwire::world

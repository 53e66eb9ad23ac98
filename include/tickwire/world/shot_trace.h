// The shot trace (seed 000, "Hits"): one ray against everything a shot can strike, resolved into
// the hit events it raises. The nearest solid is the hit (a map box, an object's body, a prop as it
// stands turned, a cooked voxel cell, a pawn); water is never a surface, only a crossing: a ray that
// enters a pool before the solid raises the water crossing first, at the displaced surface, then the
// solid; a ray that strikes nothing raises Nothing at its far end. The scene is gathered by the game
// per shot, pawns and movers already rewound to the shooter's render time.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

#include "tickwire/core/reasons.h"
#include "tickwire/protocol/hit_event.h"
#include "tickwire/world/map.h"
#include "tickwire/world/ray_cast.h"
#include "tickwire/world/rewind_history.h"
#include "tickwire/world/turned_box.h"
#include "tickwire/world/voxel_colliders.h"
#include "tickwire/world/water_pool.h"

namespace tickwire::world {

inline constexpr float kShotRangeM = 500.0f;  // how far a shot reaches

// The impact sets a hit names (the struck material's), beside the map's box materials and the
// props' (kPropMaterials): what a client plays.
inline constexpr std::string_view kImpactDefault = "default";  // a body with no material of its own
inline constexpr std::string_view kImpactFlesh = "flesh";      // a pawn
inline constexpr std::string_view kImpactVoxel = "voxel";      // a voxel cell
inline constexpr std::string_view kImpactWater = "water";      // a pool's surface

// Why the game dropped a shot the room let through (nothing traced, nothing sent back).
TW_REASONS(ShotDrop,
           no_pawn,          // the shooter's pawn is gone
           eye_strayed,      // the claimed eye is past the contract's tolerance from the pawn's own
           events_overflow)  // more hit events than the server drains between two takes

// A body at rest in the world that is not a map box: an object's static body, with its object.
struct ObjectTarget {
  uint32_t object_index = 0;
  Aabb box;
};
// A physics prop as it stands, turned.
struct PropTarget {
  uint32_t object_index = 0;
  TurnedBox box;
  std::string_view impact;  // its material's
};

struct ShotScene {
  std::span<const Aabb> map_boxes;
  std::span<const BoxSurface> map_surfaces;  // one per map box: its material names the impact
  std::span<const ObjectTarget> objects;     // the spawned objects' static bodies
  std::span<const RewoundBox> rewound;       // pawns (by entity id) and movers (by object index), as the shooter saw them
  std::span<const PropTarget> props;
  const VoxelColliders* voxels = nullptr;    // its cooked chunks (null: none)
  std::span<const WaterPool> pools;
  double water_time_s = 0;                   // the world time the pools' waves stand at
  uint32_t shooter_id = 0;                   // the shooter's pawn: never struck by its own shot
};

struct ShotOutcome {
  std::array<protocol::HitEvent, 2> events;  // the water crossing (if any) first
  std::array<float, 2> distances_m{};        // each event's distance from the eye
  uint8_t count = 0;
};

// The events `ray` raises within `range_m` (shooter_id and shot copied into each).
ShotOutcome trace_shot(const Ray& ray, float range_m, const ShotScene& scene, uint32_t shot);

}  // namespace tickwire::world

// Every cap the map loader enforces, named once. A map file is hostile input (a server operator's
// typo, a modded client's file), so each list, string and number has a bound before anything is
// allocated for it; docs/map-format.md quotes these values.
#pragma once

#include <cstddef>
#include <cstdint>

namespace tickwire::world {

// The one format version this build reads and writes ("version" in the file).
inline constexpr uint32_t kMapFormatVersion = 1;
// The "format" marker every map file carries, so a stray JSON file is refused by name.
inline constexpr const char* kMapFormatMarker = "tickwire-map";

inline constexpr std::size_t kMaxMapFileBytes = 4u << 20;  // 4 MiB of JSON text
inline constexpr std::size_t kMaxMapJsonDepth = 8;          // deepest legal value sits at depth 6
inline constexpr std::size_t kMaxMapJsonValues = 1u << 20;  // every JSON value, key and container
inline constexpr std::size_t kMaxMapBoxes = 4096;
inline constexpr std::size_t kMaxMapSpawnPoints = 256;
inline constexpr std::size_t kMaxMapObjects = 16384;     // object indices fit a 2-byte varu32
inline constexpr std::size_t kMaxObjectComponents = 4;   // the wire's component sections per object
inline constexpr std::size_t kMaxComponentChannels = 4;  // a KindPayload's float channels
inline constexpr std::size_t kMaxMapStringBytes = 64;    // any name, key, kind, tag or material

// Positions and box corners lie within this distance of the origin on every axis.
inline constexpr float kMaxMapCoordinateMetres = 100000.0f;
// A scale factor on any axis lies in (0, kMaxObjectScale].
inline constexpr float kMaxObjectScale = 1000.0f;
// A rotation quaternion's length may differ from 1 by at most this much.
inline constexpr float kRotationUnitTolerance = 1e-3f;
// A spawn point's yaw lies in [0, kFullTurnDegrees).
inline constexpr float kFullTurnDegrees = 360.0f;

inline constexpr std::size_t kMapHashBytes = 16;  // BLAKE2b-128 of the canonical text

}  // namespace tickwire::world

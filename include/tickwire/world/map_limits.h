// Every cap the map loader enforces, named once. A map file is hostile input (a server operator's
// typo, a modded client's file), so each list, string and number has a bound before anything is
// allocated for it; docs/map-format.md quotes these values.
#pragma once

#include <cstddef>
#include <cstdint>

namespace tickwire::world {

// The newest format version this build reads and writes ("version" in the file). Version 2 added
// component settings and object outputs (the map's logic wiring); version 3 added records (sources,
// inherits, carried children, placements); versions 1 and 2 still read, and a map is written in
// the version it was read in.
inline constexpr uint32_t kMapFormatVersion = 3;
// The newest version whose objects are authored flat (no records): what hand-built content is.
inline constexpr uint32_t kMapFormatFlatVersion = 2;
inline constexpr uint32_t kMapFormatOldestVersion = 1;
// The "format" marker every map file carries, so a stray JSON file is refused by name.
inline constexpr const char* kMapFormatMarker = "tickwire-map";

inline constexpr std::size_t kMaxMapFileBytes = 16u << 20;  // 16 MiB of JSON text
inline constexpr std::size_t kMaxMapJsonDepth = 10;  // deepest legal value: 6 flat, 8 in a carried child override
inline constexpr std::size_t kMaxMapJsonValues = 4u << 20;  // every JSON value, key and container
inline constexpr std::size_t kMaxMapBoxes = 4096;
inline constexpr std::size_t kMaxMapSpawnPoints = 1024;  // a spawn point for each client owner id (1,023)
inline constexpr std::size_t kMaxMapObjects = 65536;     // indices past 16,383 take a 3-byte varu32
inline constexpr std::size_t kMaxObjectComponents = 4;   // the wire's component sections per object
inline constexpr std::size_t kMaxComponentChannels = 4;  // a KindPayload's float channels
inline constexpr std::size_t kMaxMapStringBytes = 64;    // any name, key, kind, tag or material

// Version 2: the map's logic (docs/map-format.md, "Logic"). Each is within the logic runtime's own
// caps (LogicLimits), so a map that loads also loads into the runtime.
inline constexpr std::size_t kMaxComponentSettings = 8;  // named settings of one component
inline constexpr std::size_t kMaxSettingValues = 4;      // numbers in one setting (an axis takes 3)
inline constexpr std::size_t kMaxObjectOutputs = 16;     // named outputs of one object
inline constexpr std::size_t kMaxOutputActions = 32;     // calls and delays in one output's list
inline constexpr float kMaxLogicDelaySeconds = 86400.0f;  // one delay or interval: 24 h of game time
inline constexpr float kMaxSettingMagnitude = 1000000.0f;  // any setting or call parameter lies within +-1e6

// Version 3: records (docs/map-format.md, "Records and overrides").
inline constexpr std::size_t kMaxMapSources = 1024;     // named definitions in `sources`
inline constexpr std::size_t kMaxCarriedChildren = 16;  // carried children one record states
// Records laid over one another to make one object: a source's inherits chain plus the sources its
// carried children name, walked while resolving (a placement of a variant of an object is 3).
inline constexpr std::size_t kMaxRecordDepth = 8;
// Objects the sources resolve into, counted over every source and every carried child at every
// level, so a few short definitions cannot multiply into an unbounded tree before any is placed.
inline constexpr std::size_t kMaxSourceObjects = 16384;

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

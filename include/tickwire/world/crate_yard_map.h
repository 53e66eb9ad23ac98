// The crate yard: a generated map of the reference game's for physics props at scale. A 60 x 60 m
// walled floor, 200 crates (0.8 m, 10 kg, wood, authored asleep) in a 20 x 10 grid 2.5 m apart in
// its middle, and 16 spawn points between the rows. The props scenario of `tickwire bench` and the
// whole-system props test shove its crates with 16 bots.
#pragma once

#include <cstdint>
#include <string>

namespace tickwire::world {

inline constexpr uint32_t kCrateYardColumns = 20;
inline constexpr uint32_t kCrateYardRows = 10;
inline constexpr uint32_t kCrateYardCrates = kCrateYardColumns * kCrateYardRows;
inline constexpr uint32_t kCrateYardSpawns = 16;
inline constexpr float kCrateYardSpacingM = 2.5f;

// The map's JSON text (format version 2).
std::string crate_yard_map_text();

}  // namespace tickwire::world

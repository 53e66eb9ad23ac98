// The cube scene simulated with a real physics engine (Bullet), seeded and fixed-step: a 2 m player
// cube pushed by forces through a 30 x 30 grid of 1 m cubes, alternately blowing them out and up and
// pulling them in. The result is a trace the bench replays, so the encoder never steers the physics.
#pragma once

#include <cstdint>

#include "cube_trace.h"

namespace tickwire::bench {

struct CubeSceneConfig {
  static constexpr float kDefaultSpacingM = 1.5f;  // SCENARIOS.md (b)
  // The grid's spacing is kept within what the scene allows: the 1 m cubes must not overlap, and
  // the 30 x 30 grid must stand well inside the +-256 m walls.
  static constexpr float kMinSpacingM = 1.0f;
  static constexpr float kMaxSpacingM = 8.0f;

  uint64_t seed = 1;
  uint32_t frames = 900;  // frame 0 is the grid at rest, each later frame one step on
  float hz = 60;
  float spacing_m = kDefaultSpacingM;  // between neighbouring cubes' centres, in [kMinSpacingM, kMaxSpacingM]
};

CubeTrace simulate_cube_scene(const CubeSceneConfig& config);

}  // namespace tickwire::bench

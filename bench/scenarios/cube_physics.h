// The cube scene simulated with a real physics engine (Bullet), SCENARIOS.md (b): a 2 m player cube
// pushed by forces through a 30 x 30 grid of 1 m cubes 1.5 m apart on a floor at z = 0, alternately
// blowing nearby cubes outwards and up and pulling them in, inside x, y in [-256, 256), z in
// [0, 32). Seeded and fixed-step; the result is a trace the bench replays.
#pragma once

#include <cstdint>

#include "cube_trace.h"

namespace tickwire::bench {

struct CubeSceneConfig {
  uint64_t seed = 1;
  uint32_t frames = 900;  // frame 0 is the grid at rest, each later frame one step on
  float hz = 60;
};

CubeTrace simulate_cube_scene(const CubeSceneConfig& config);

}  // namespace tickwire::bench

// Scenario (b), the cube scene: replays a trace (our Bullet run or any TWCUBES1 file) through the
// harness as entity records of kind prop, position and smallest-three orientation at the default
// precision; no rest table, so the first ticks go against nothing.
#pragma once

#include <cstdint>

#include "bandwidth_scenario.h"
#include "cube_trace.h"

namespace tickwire::bench {

class CubesScenario final : public BandwidthScenario {
 public:
  static constexpr uint8_t kCubeKind = 2;  // every cube, the player's included
  // Replays frames 1..ticks of `trace` (frame 0 is where the scene starts; ticks <= frames - 1).
  CubesScenario(const CubeTrace& trace, uint32_t ticks);

  std::string name() const override { return "cubes"; }
  uint32_t tick_hz() const override { return static_cast<uint32_t>(trace_.hz + 0.5f); }
  uint32_t ticks() const override { return ticks_; }
  const GameVocabulary& vocabulary() const override { return vocabulary_; }
  void truth_at(uint32_t tick, TruthFrame& out) override;

  // Uncompressed: every cube's position and quaternion as seven floats every tick (the anchor's
  // 17.37 Mbit/s for 901 cubes at 60 Hz).
  double uncompressed_kbps() const;

 private:
  const CubeTrace& trace_;
  uint32_t ticks_;
  GameVocabulary vocabulary_;
};

}  // namespace tickwire::bench

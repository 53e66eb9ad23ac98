// Scenario (c): 250 bodies always moving at 2-10 m/s on smooth seeded paths (sinusoid sums, always
// turning), spinning about slowly wandering axes at 0.5-3 rad/s; 30 Hz, 60 s. Precision 0.01 m and
// 0.001 rad: the kind is registered at a 0.02 m quantum and enough smallest-three bits.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "bandwidth_scenario.h"
#include "tickwire/core/rng.h"

namespace tickwire::bench {

class BodiesScenario final : public BandwidthScenario {
 public:
  static constexpr uint32_t kBodies = 250;
  static constexpr uint32_t kHz = 30;
  static constexpr uint32_t kDefaultTicks = 60 * kHz;
  static constexpr uint8_t kBodyKind = 7;      // the scenario's one kind
  static constexpr double kMaxAngleErrorRad = 0.001;
  static constexpr double kPositionQuantumM = 0.02;  // within 0.01 m of the truth

  BodiesScenario(uint64_t seed, uint32_t ticks = kDefaultTicks);

  std::string name() const override { return "bodies"; }
  uint32_t tick_hz() const override { return kHz; }
  uint32_t ticks() const override { return ticks_; }
  const GameVocabulary& vocabulary() const override { return vocabulary_; }
  std::optional<double> max_angle_error_rad() const override { return kMaxAngleErrorRad; }
  void truth_at(uint32_t tick, TruthFrame& out) override;

  // The smallest rotation bits whose worst-case smallest-three error is within kMaxAngleErrorRad
  // (the kind itself is registered at the finer-grained max step rotation_steps_for_angle gives).
  static uint8_t rotation_bits_for_bound();
  // Speed of body `index` at time t (for tests of the path's promise: 2-10 m/s).
  double speed_mps(uint32_t index, double t_s) const;

 private:
  struct Path {
    double centre[3];
    double radius_m[2], omega_rps[2], phase[2];  // the planar epicycle's two circles
    double bob_m[2], bob_rps[2], bob_phase[2];   // z: two slow sinusoids
    double spin_rps;                             // 0.5..3 rad/s
    double axis_rps[3], axis_phase[3];           // the spin axis wanders slowly
  };
  static Path make_path(Rng& rng);
  void advance_rotations(uint32_t tick);

  uint32_t ticks_;
  GameVocabulary vocabulary_;
  std::vector<Path> paths_;
  std::vector<std::array<double, 4>> rotations_;  // integrated, x y z w
  uint32_t rotations_tick_ = 0;
};

}  // namespace tickwire::bench

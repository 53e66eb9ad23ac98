// A simulated host for tests and whole-system simulations: a virtual clock whose sleeps take what
// a modelled timer would take (actual = fixed + scale * requested, plus optional seeded jitter),
// e.g. the headless host measured at sleep(1 ms) -> 7.8 ms and sleep(14 ms) -> 83 ms.
#pragma once

#include <cstdint>

#include "tickwire/clock/host_timer.h"
#include "tickwire/core/rng.h"

namespace tickwire {

// How long a sleep really takes on a host: affine in the request, plus jitter in [0, jitter_max].
struct SleepModel {
  Duration fixed;
  double scale = 1.0;
  Duration jitter_max;

  // An exact sleeper (actual == requested).
  static SleepModel exact() { return SleepModel{}; }
  // The affine model through two measured points (request_a != request_b).
  static SleepModel through(Duration request_a, Duration actual_a, Duration request_b, Duration actual_b);
  // The deterministic part of a sleep's length (no jitter).
  Duration actual_for(Duration request) const;
};

class SimHostTimer final : public HostTimer {
 public:
  // `jitter_rng` feeds the model's jitter; it may be null when jitter_max is zero.
  SimHostTimer(MonoTime start, SleepModel model, Duration pause_quantum = Duration::microseconds(20),
               Rng* jitter_rng = nullptr);

  MonoTime now() override { return now_; }
  void sleep(Duration request) override;
  void pause() override;

  // Simulated work: the caller spent `d` of host time.
  void advance(Duration d);

  Duration total_slept() const { return total_slept_; }
  Duration total_paused() const { return total_paused_; }
  uint64_t sleeps() const { return sleeps_; }
  uint64_t pauses() const { return pauses_; }

 private:
  MonoTime now_;
  SleepModel model_;
  Duration pause_quantum_;
  Rng* jitter_rng_;
  Duration total_slept_;
  Duration total_paused_;
  uint64_t sleeps_ = 0;
  uint64_t pauses_ = 0;
};

}  // namespace tickwire

// The host's sleep overshoot, learned: actual / requested as a multiplicative factor that rises at
// once to any larger observation and decays slowly toward smaller ones. A wait divides its budget
// by it, so a host whose sleep(1 ms) takes 7.8 ms is asked for an eighth of what it should give.
#pragma once

#include <cstdint>

#include "tickwire/clock/time.h"

namespace tickwire {

// Requests below this are not learned from: their overshoot is granularity, not a factor.
inline constexpr Duration kSleepFactorMinLearnRequest = Duration::milliseconds(1);
// A ceiling on the factor, so one absurd reading (a suspended VM) cannot make every sleep zero.
inline constexpr double kSleepFactorMax = 64.0;

struct SleepFactorConfig {
  // Fraction of the gap to a smaller observation closed per sample (slow: ~1/64 per sleep).
  double decay_per_sample = 1.0 / 64.0;
  // Off: the factor stays at 1 and the budget is requested as is (the naive sleeper).
  bool learn = true;
};

class SleepFactor {
 public:
  explicit SleepFactor(const SleepFactorConfig& config = {});

  double value() const { return factor_; }
  // What to request from the host so the sleep lasts about `budget`: budget / factor.
  Duration request_for(Duration budget) const;
  // Learns from one sleep that was asked for `requested` and took `actual`.
  void observe(Duration requested, Duration actual);
  uint64_t samples() const { return samples_; }

 private:
  SleepFactorConfig config_;
  double factor_ = 1.0;
  uint64_t samples_ = 0;
};

}  // namespace tickwire

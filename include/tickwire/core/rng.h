// The one source of randomness below apps/: a small seeded generator (xoshiro256**, seeded through
// splitmix64) passed in by whoever owns the run, so every simulation reproduces from its seed.
#pragma once

#include <cstdint>

namespace tickwire {

class Rng {
 public:
  explicit Rng(uint64_t seed);

  uint64_t next_u64();
  uint32_t next_u32() { return static_cast<uint32_t>(next_u64() >> 32); }
  // Uniform in [0, bound) without modulo bias; bound > 0.
  uint64_t below(uint64_t bound);
  // Uniform in [lo, hi] inclusive.
  int64_t between(int64_t lo, int64_t hi);
  // Uniform in [0, 1).
  double unit();
  // True with probability p.
  bool chance(double p) { return unit() < p; }
  // A child generator whose stream is independent of this one's continuation.
  Rng fork();
  uint64_t seed() const { return seed_; }

 private:
  uint64_t seed_;
  uint64_t s_[4];
};

}  // namespace tickwire

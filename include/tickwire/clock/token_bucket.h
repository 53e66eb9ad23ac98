// TokenBucket: a rate limit with a burst, on a time passed in: `per_second` tokens flow in up to
// `burst`, each take() spends one. Relays and interactions per session are limited by it.
#pragma once

#include <algorithm>
#include <cstdint>

#include "tickwire/clock/time.h"

namespace tickwire {

class TokenBucket {
 public:
  TokenBucket() = default;
  // Starts full.
  TokenBucket(double per_second, double burst) : per_second_(per_second), burst_(burst), tokens_(burst) {}

  // Spends one token at `now` if there is one.
  bool take(MonoTime now) { return take(now, 1.0); }
  // Spends `n` tokens at `now` if there are that many; else empties the bucket (a claim past it
  // leaves nothing for the next one) and returns false.
  bool take(MonoTime now, double n) {
    if (started_) {
      const double elapsed_s = std::max(0.0, (now - updated_).seconds_f());
      tokens_ = std::min(burst_, tokens_ + elapsed_s * per_second_);
    }
    started_ = true;
    updated_ = now;
    if (tokens_ < n) {
      if (n > 1.0) tokens_ = 0;
      return false;
    }
    tokens_ -= n;
    return true;
  }

 private:
  double per_second_ = 0;
  double burst_ = 0;
  double tokens_ = 0;
  bool started_ = false;
  MonoTime updated_;
};

}  // namespace tickwire

// RFC 6298 section 2 arithmetic on integer nanoseconds.
#include "tickwire/transport/rtt_estimator.h"

#include <algorithm>

namespace tickwire {
namespace {
constexpr Duration kGranule = Duration::milliseconds(1);
}

RttEstimator::RttEstimator(Duration initial_rto, Duration min_rto, Duration max_rto)
    : initial_rto_(initial_rto), min_rto_(min_rto), max_rto_(max_rto) {}

void RttEstimator::sample(Duration rtt) {
  if (rtt < Duration()) rtt = Duration();
  latest_ = rtt;
  if (!has_sample_) {
    has_sample_ = true;
    srtt_ = rtt;
    rttvar_ = rtt / 2;
    return;
  }
  const Duration error = srtt_ > rtt ? srtt_ - rtt : rtt - srtt_;
  rttvar_ = (rttvar_ * 3 + error) / 4;
  srtt_ = (srtt_ * 7 + rtt) / 8;
}

Duration RttEstimator::rto() const {
  if (!has_sample_) return initial_rto_;
  const Duration rto = srtt_ + std::max(kGranule, rttvar_ * 4);
  return std::clamp(rto, min_rto_, max_rto_);
}

}  // namespace tickwire

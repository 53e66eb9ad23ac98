// Smoothed round-trip time and its variance in the manner of RFC 6298 (alpha 1/8, beta 1/4), and
// the retransmission timeout derived from them: reliable resends are timed from this, so a link
// whose latency or jitter grows resends later rather than flooding it.
#pragma once

#include "tickwire/clock/time.h"

namespace tickwire {

class RttEstimator {
 public:
  RttEstimator(Duration initial_rto, Duration min_rto, Duration max_rto);

  void sample(Duration rtt);
  bool has_sample() const { return has_sample_; }
  Duration srtt() const { return srtt_; }
  Duration rttvar() const { return rttvar_; }
  Duration latest() const { return latest_; }
  // srtt + 4 * rttvar (at least one granule), clamped to [min_rto, max_rto]; initial_rto before a sample.
  Duration rto() const;

 private:
  Duration initial_rto_;
  Duration min_rto_;
  Duration max_rto_;
  Duration srtt_;
  Duration rttvar_;
  Duration latest_;
  bool has_sample_ = false;
};

}  // namespace tickwire

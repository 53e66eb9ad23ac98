// A token bucket over the bytes one connection puts on the wire, filled at the estimated rate: it
// is what makes reliable and unreliable sends share one budget. Unreliable messages always go (the
// app sized them from send_allowance()) and spend tokens, possibly into debt; reliable data goes
// only while the bucket holds tokens, so a reliable burst fills what the snapshots leave.
#pragma once

#include <cstddef>

#include "tickwire/clock/time.h"

namespace tickwire {

class SendPacer {
 public:
  // Tokens saved while idle are capped at `burst` worth of the rate (at least `min_burst_bytes`),
  // which is also the deepest debt: one write may send a tick's worth, never a backlog of them.
  SendPacer(Duration burst, std::size_t min_burst_bytes);

  // Adds rate x the time since the last refill.
  void refill(MonoTime now, double bytes_per_second);
  bool allows() const { return tokens_ > 0.0; }
  void spend(std::size_t bytes);
  double tokens() const { return tokens_; }

 private:
  Duration burst_;
  double min_burst_bytes_;
  double cap_bytes_;
  double tokens_;
  MonoTime last_refill_;
  bool started_ = false;
};

}  // namespace tickwire

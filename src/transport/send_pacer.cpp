// Token bucket arithmetic on the caller's clock (the first refill only starts it).
#include "tickwire/transport/send_pacer.h"

#include <algorithm>

#include "tickwire/core/assert.h"

namespace tickwire {

SendPacer::SendPacer(Duration burst, std::size_t min_burst_bytes)
    : burst_(burst),
      min_burst_bytes_(static_cast<double>(min_burst_bytes)),
      cap_bytes_(static_cast<double>(min_burst_bytes)),
      tokens_(static_cast<double>(min_burst_bytes)) {
  TW_ASSERT(burst > Duration() && min_burst_bytes > 0, "the pacer needs a positive burst");
}

void SendPacer::refill(MonoTime now, double bytes_per_second) {
  cap_bytes_ = std::max(min_burst_bytes_, bytes_per_second * burst_.seconds_f());
  if (!started_) tokens_ = cap_bytes_;  // a fresh connection may send one burst at once
  if (started_ && now > last_refill_) tokens_ += bytes_per_second * (now - last_refill_).seconds_f();
  if (!started_ || now > last_refill_) last_refill_ = now;
  started_ = true;
  tokens_ = std::min(tokens_, cap_bytes_);
}

void SendPacer::spend(std::size_t bytes) { tokens_ = std::max(tokens_ - static_cast<double>(bytes), -cap_bytes_); }

}  // namespace tickwire

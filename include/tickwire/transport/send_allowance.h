// What a connection can send over the next interval, for the layer that decides how much to offer
// (the room's per-client snapshot budget): the link estimate the pacer follows, and the share of it
// left to unreliable messages while reliable data waits. A plain value, read at any time.
#pragma once

#include <cstddef>

namespace tickwire {

struct SendAllowance {
  // Bytes per second the link is estimated to carry (reliability-layer payload bytes): while the
  // estimator is still probing upward, the rate it is allowed to try; after, the measured bottleneck.
  double link_bytes_per_second = 0.0;
  // link_bytes_per_second x the interval asked for.
  std::size_t interval_bytes = 0;
  // Reliable bytes queued and not yet sent, plus resends waiting, over every reliable channel.
  std::size_t reliable_waiting_bytes = 0;
  // What unreliable messages (their entries: payload + 5 bytes each) may take in the interval:
  // interval_bytes less the reliable share while reliable data waits, else all of it.
  std::size_t unreliable_bytes = 0;
};

}  // namespace tickwire

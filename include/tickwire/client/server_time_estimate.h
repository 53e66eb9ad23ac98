// ServerTimeEstimate: a server-time room's client reading the server's clock (seed 002, "server
// timestamps replace frame numbers"), to stamp the inputs its own logic rate samples. A snapshot of
// tick T left the server at T's time and spent about half a round trip on the way, so its arrival
// reads "the server's time is T's time + rtt/2, now". A snapshot held up by jitter reads low, so
// the estimate keeps the highest reading and lets it sag slowly (kServerTimeSagPerSecond): it
// follows the fastest path, and a clock that drifts, without riding the jitter. Pure: time passed in.
#pragma once

#include <cstdint>
#include <optional>

#include "tickwire/clock/time.h"

namespace tickwire {

// How fast the estimate gives up a high reading no later snapshot confirms: 2 ms a second (a
// clock's drift is a few hundredths of that; a path that got longer is followed within seconds).
inline constexpr Duration kServerTimeSagPerSecond = Duration::milliseconds(2);

class ServerTimeEstimate {
 public:
  // A snapshot stamped `server_us` (protocol::server_time_us_of_tick) arrived at `now`, with the
  // connection's smoothed round trip `rtt`.
  void on_snapshot(uint64_t server_us, Duration rtt, MonoTime now);
  bool ready() const { return offset_.has_value(); }
  // The server's time at `now`, in microseconds (0 before the first snapshot).
  uint64_t at(MonoTime now) const;
  void reset() { offset_.reset(); }

 private:
  std::optional<Duration> offset_;  // the server's time minus the local clock's
  MonoTime offset_at_;              // when the offset was last raised or sagged
};

}  // namespace tickwire

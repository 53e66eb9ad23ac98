// The client's interpolation settings (client.interp.*), seeded from the room's netcode contract and
// live-tunable afterwards, and the whole-tick delay law they define: ceil(interp in ticks) + 1 margin
// tick + the earned jitter margin, per interpolation profile, under a ceiling derived from the ring.
#pragma once

#include <cstdint>
#include <string_view>

#include "tickwire/client/render_clock.h"
#include "tickwire/client/snapshot_timeline.h"
#include "tickwire/clock/jitter_margin.h"
#include "tickwire/clock/time.h"
#include "tickwire/protocol/netcode_contract.h"
#include "tickwire/protocol/vocabulary.h"  // InterpProfile

namespace tickwire {

struct InterpSettings {
  double tick_rate_hz = 60.0;           // the room's tick rate: a snapshot at tick t sits at t / rate
  double interp_seconds = 2.0 / 60.0;   // client.interp: two snapshot intervals
  uint32_t buffer_ticks = kContractDefaultInterpBufferTicks;  // client.interp.bufferTicks: read when a session's ring is built
  uint32_t max_entities_per_snapshot = kDefaultMaxEntitiesPerSnapshot;  // read with buffer_ticks
  double margin_growth_ticks = 1.0;     // client.interp.marginGrowth, per held or snapped frame
  double max_margin_ticks = 8.0;        // client.interp.maxMarginTicks
  Duration margin_decay = Duration::seconds(2);  // client.interp.marginDecay: calm time per tick handed back
  bool auto_margin = true;              // client.interp.autoMargin: off, the margin is never earned
  Duration max_extrapolation = Duration::milliseconds(100);  // a stalled lane's extrapolation cap
  RenderClockConfig clock;              // +-5% rate correction
  Duration report_interval = Duration::seconds(5);  // client.interp.reportInterval

  // The contract's interpolation settings for its room (cadence, buffer, margin law, extrapolation).
  static InterpSettings from_contract(const NetcodeContract& contract);

  double seconds_per_tick() const { return 1.0 / tick_rate_hz; }
  double interp_ticks() const { return interp_seconds * tick_rate_hz; }
  double extrapolation_cap_ticks() const { return max_extrapolation.seconds_f() * tick_rate_hz; }
  JitterMarginConfig margin_config() const;
  TimelineConfig timeline_config() const;
};

// False for settings no session can run with (a console typo is refused, not asserted).
bool interp_settings_valid(const InterpSettings& settings);

// A profile's whole-tick delay before the earned margin (1 is the fixed margin tick).
int64_t profile_base_delay_ticks(InterpProfile profile, double interp_ticks);

// The most delay the render clock runs at (and where it is placed, and lands after a snap): what
// the margin law can ask for (the standard profile's base delay, the whole max margin, and one tick
// the clock steers inside), and at most three quarters of the ring. The rest of the ring is the room
// a stall's backlog lands in before the clock, sitting at the delay, falls out of it and snaps: a
// bigger ring buys room, not delay.
int64_t delay_ceiling_ticks(uint32_t buffer_ticks, const InterpSettings& settings);

}  // namespace tickwire

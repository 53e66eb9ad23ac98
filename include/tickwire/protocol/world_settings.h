// WorldSettings: the room's settings that may change while it runs, replicated in every snapshot
// (seed 000): forgiveness (how much of a client's own answer the server takes) and the world time
// scale (world seconds one tick advances, in tick lengths). The contract holds their initial values;
// the default is the authoritative 1.0 at normal speed, so a client that has not yet heard from a
// server claims nothing.
#pragma once

#include <string_view>

#include "tickwire/wire/types.h"

namespace tickwire::protocol {

inline constexpr float kMaxWorldTimeScale = 4.0f;  // a tick advances at most four tick lengths of world time

struct WorldSettings {
  static constexpr std::string_view wire_name = "WorldSettings";
  float forgiveness = 1.0f;  // [0, 1]: 1 the server's answer always stands; 0 a claim is adopted unconditionally
  float time_scale = 1.0f;   // [0, kMaxWorldTimeScale]: 0 the world is paused, 0.5 slow motion

  template <class W>
  void fields(W& w) {
    w.f32("forgiveness", forgiveness);
    w.f32("timeScale", time_scale);
  }
  friend bool operator==(const WorldSettings&, const WorldSettings&) = default;
};

// The world seconds one tick of `tick_s` advances at `time_scale`: the dt every step takes, the
// server's and the client's prediction alike (one formula, so a replay lands where the server did).
inline double world_seconds_per_tick(double tick_s, float time_scale) { return tick_s * static_cast<double>(time_scale); }

// Settings a room may run: both finite and within their ranges.
bool valid_world_settings(const WorldSettings& settings);

}  // namespace tickwire::protocol

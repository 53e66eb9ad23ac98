// What an operator reads of a room's input queues, for `tickwire server`'s and `tickwire host`'s
// lines: every client's depth byte binned, and the starved, fresh and awaiting ticks the queues
// counted (starved / (starved + fresh) is the starved share; awaiting: ticks before a session's first
// input arrived, its join).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include <nlohmann/json.hpp>

#include "tickwire/server.h"

namespace tickwire::cli {

// Depth-byte histogram buckets: -8 (starved 8+) .. 12.
inline constexpr int kDepthMin = -8;
inline constexpr int kDepthMax = 12;

struct InputTally {
  std::vector<uint64_t> depth_histogram = std::vector<uint64_t>(kDepthMax - kDepthMin + 1, 0);
  uint64_t starved_ticks = 0;
  uint64_t fresh_ticks = 0;
  uint64_t awaiting_ticks = 0;

  // Adds depth_min, depth_histogram, starved_ticks, fresh_ticks and awaiting_ticks to `j`.
  void put(nlohmann::json& j) const {
    j["depth_min"] = kDepthMin;
    j["depth_histogram"] = depth_histogram;
    j["starved_ticks"] = starved_ticks;
    j["fresh_ticks"] = fresh_ticks;
    j["awaiting_ticks"] = awaiting_ticks;
  }
};

// One pass over the clients per update: each one's depth byte into the histogram, and the starved
// and fresh ticks its queue counted since the previous pass (a new session starts over).
class InputSources {
 public:
  void add(const std::vector<ClientLink>& clients, InputTally& tally) {
    for (const ClientLink& c : clients) {
      if (!c.admitted) continue;
      if (c.has_depth) {
        const int depth = std::clamp<int>(c.queue_depth, kDepthMin, kDepthMax);
        ++tally.depth_histogram[static_cast<std::size_t>(depth - kDepthMin)];
      }
      Seen& s = seen_[c.owner];
      if (s.admitted_tick != c.admitted_tick) s = Seen{c.admitted_tick, 0, 0, 0};
      const uint64_t starved = c.repeated_ticks + c.zeroed_ticks;
      tally.starved_ticks += starved - s.starved;
      tally.fresh_ticks += c.fresh_ticks - s.fresh;
      tally.awaiting_ticks += c.awaiting_ticks - s.awaiting;
      s.starved = starved;
      s.fresh = c.fresh_ticks;
      s.awaiting = c.awaiting_ticks;
    }
  }

 private:
  struct Seen {
    int64_t admitted_tick = -1;
    uint64_t starved = 0, fresh = 0, awaiting = 0;
  };
  std::array<Seen, kOwnerIdCount> seen_{};  // by owner id
};

}  // namespace tickwire::cli

// SeatRollCall: how the matchmaker learns from the directory alone who claimed the seat it offered and
// who left. Each listing names every room's seated actors (DirectoryRoom::seated); compared with the
// names the previous listing gave, an actor newly named in a room is reported seated there, and one
// the matchmaker holds seated that no listed room names any more is reported gone. Pure, like the
// matchmaker: whoever runs it passes the listing it just observed, and the time.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "tickwire/clock/time.h"
#include "tickwire/durable/fleet_listing.h"
#include "tickwire/fleet/matchmaker.h"

namespace tickwire::fleet {

// What one roll call reported.
struct RollCall {
  uint32_t seated_reports = 0;  // seated() calls (each refusal is counted by the matchmaker, by name)
  uint32_t seated_taken = 0;    // ... that it took
  uint32_t left_reports = 0;    // left() calls: sessions gone from every listed room
};

class SeatRollCall {
 public:
  // Call right after matchmaker.observe(listing, now), with the same listing. An actor is reported
  // seated in a room of a process taking players when the room names it and the previous listing did
  // not name it there, or when the matchmaker still holds an unclaimed offer for it in that room (it
  // reconnected between two listings). An actor named last time and by no room now is reported gone
  // when the matchmaker holds it seated in a listed room (a room that left the listing released its
  // players in observe already). The names held are the listing's own: as bounded as the directory.
  RollCall call(const std::vector<durable::DirectoryProcess>& listing, Matchmaker& matchmaker, MonoTime now);

 private:
  std::unordered_map<ActorId, RoomKey> named_;  // the previous listing's seated actors, by their room
};

}  // namespace tickwire::fleet

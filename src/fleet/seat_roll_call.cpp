// The roll call (fleet/seat_roll_call.h): the seated reports first, so an actor that moved rooms is
// reported where it is now before anyone is reported gone, then the departures.
#include "tickwire/fleet/seat_roll_call.h"

namespace tickwire::fleet {

RollCall SeatRollCall::call(const std::vector<durable::DirectoryProcess>& listing, Matchmaker& matchmaker, MonoTime now) {
  RollCall out;
  std::unordered_map<ActorId, RoomKey> named;
  for (const durable::DirectoryProcess& process : listing) {
    for (const durable::DirectoryRoom& room : process.rooms) {
      for (const uint64_t actor : room.seated) {
        RoomKey key{process.process, room.room};
        if (durable::takes_players(process.state)) {
          const auto before = named_.find(actor);
          const bool new_here = before == named_.end() || before->second != key;
          const auto seat = matchmaker.seat_of(actor);
          const bool offer_here = seat && !seat->claimed && seat->room == key;
          if (new_here || offer_here) {
            ++out.seated_reports;
            if (matchmaker.seated(actor, key, now)) ++out.seated_taken;
          }
        }
        named.emplace(actor, std::move(key));
      }
    }
  }
  for (const auto& [actor, room] : named_) {
    if (named.contains(actor)) continue;
    const auto seat = matchmaker.seat_of(actor);
    if (!seat || !seat->claimed) continue;
    ++out.left_reports;
    (void)matchmaker.left(actor, now);
  }
  named_ = std::move(named);
  return out;
}

}  // namespace tickwire::fleet

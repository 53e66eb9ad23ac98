// The match desk's runner side (match_desk.h): a listing observed and its roll call taken in one
// hold of the lock, so a player never sees the rooms of one listing with the seats of another.
#include "match_desk.h"

#include <utility>

namespace tickwire::cli {

MatchDesk::MatchDesk(const fleet::MatchmakerConfig& config, std::function<MonoTime()> clock)
    : clock_(std::move(clock)), state_(config) {}

fleet::RollCall MatchDesk::take_listing(durable::DirectoryListing listing) {
  return with([&listing](MatchState& state, MonoTime now) {
    state.view = state.matchmaker.observe(listing.processes, now);
    const fleet::RollCall call = state.roll_call.call(listing.processes, state.matchmaker, now);
    state.listing = std::move(listing);
    ++state.listings;
    return call;
  });
}

void MatchDesk::update() {
  with([](MatchState& state, MonoTime now) { state.matchmaker.update(now); });
}

}  // namespace tickwire::cli

// The bots' matchmaker side (bot_match.h).
#include "bot_match.h"

namespace tickwire::cli {

BotMatch::BotMatch(const BotMatchOptions& options, uint32_t count, uint64_t first_actor, MonoTime start)
    : asker_(options.matchmaker, count, options.ask_timeout) {  // a seat has at most one ask out
  seats_.reserve(count);
  for (uint32_t i = 0; i < count; ++i) seats_.emplace_back(i, first_actor + i, options.seat, start);
}

void BotMatch::before_frames(MonoTime now, const OpenClient& open) {
  for (const MatchReply& reply : asker_.take_replies()) {
    BotSeat& seat = seats_[reply.bot];
    if (const auto offer = seat.on_reply(reply, now); offer && !open(reply.bot, *offer)) seat.open_failed(now);
  }
  for (BotSeat& seat : seats_) seat.ask_if_due(asker_, now);  // in bot order: the first asks join the line so
}

nlohmann::json BotMatch::totals() const {
  nlohmann::json totals = nlohmann::json::object();
  for (const BotSeat& seat : seats_) seat.add_to(totals);
  return totals;
}

}  // namespace tickwire::cli

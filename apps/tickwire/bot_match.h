// The matchmaker's side of `tickwire bot --match HOST:PORT`: a BotSeat per bot (bot i asks as actor
// --first-client-id + i) and the process's one MatchAsker, driven from the frame loop. Before the
// bots' frames the replies that came in are applied (an offer opens that bot's client through the
// caller) and the asks now due go out; after a bot's frame its seat follows its client.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bot_seat.h"
#include "match_asker.h"

namespace tickwire::cli {

struct BotMatchOptions {
  std::string matchmaker;  // numeric HOST:PORT of its HTTP API
  BotSeatSettings seat;
  Duration ask_timeout = Duration::seconds(2);  // one ask's connect, send and read
};

class BotMatch {
 public:
  // Opens bot `bot`'s client for `offer` (closing any it had); false when it could not.
  using OpenClient = std::function<bool(uint32_t bot, const SeatOffer& offer)>;

  BotMatch(const BotMatchOptions& options, uint32_t count, uint64_t first_actor, MonoTime start);

  void before_frames(MonoTime now, const OpenClient& open);
  bool runs_client(uint32_t bot) const { return seats_[bot].runs_client(); }
  // After bot `bot`'s frame; true when the caller must close its client (an offer lapsed).
  bool follow(uint32_t bot, const Client& client, MonoTime now) { return seats_[bot].follow(client, now, tally_); }

  // One bot's figures, and the process's (the final line: matched, resumed, resumeFailures,
  // maxPosition, asks, askFailures by reason, refusals and claim failures by reason).
  nlohmann::json bot_json(uint32_t bot) const { return seats_[bot].json(); }
  nlohmann::json totals() const;

 private:
  std::vector<BotSeat> seats_;
  SeatTally tally_;
  MatchAsker asker_;  // last: its worker stops before the seats go
};

}  // namespace tickwire::cli

// One bot's seat through the matchmaker (`tickwire bot --match`): it asks for a seat (/match) and
// refreshes while queued, connects with the token an offer brings, and when its connection is lost
// without its own word (the server timed out or dropped it) while it holds a resume ticket, asks to
// be taken back into its pawn (/resume, the room it was matched into) until offered or out of
// patience. It touches no socket: its asks go out through the process's MatchAsker, and the caller
// opens and runs the Client an offer names. Every refusal and failure is counted by name.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "match_asker.h"
#include "tickwire/client.h"
#include "tickwire/core/reason_counters.h"

namespace tickwire::cli {

TW_REASONS(SeatPhase,
           seeking,     // asking /match (first, refreshing while queued, or after a failure's backoff)
           leaving,     // told "seated" while holding no session: /leave, then seeking again
           claiming,    // connecting with an offer's token
           playing,     // admitted
           resuming,    // lost while holding a ticket: asking /resume
           reclaiming,  // connecting with a resume offer's token
           stopped)     // the room's contract cannot be taken: nothing more to ask

// The matchmaker's refusals, by its reason.
TW_REASONS(MatchRefusal,
           line_full,        // 503 line_full: the line is at its cap
           room_not_listed,  // 404 room_not_listed (/resume): the room is between processes
           refused_other,    // 503 (or 404) with another reason
           bad_request,      // 400: the matchmaker would not read the ask
           stale_seat)       // "seated" while this bot holds no session: a seat of a previous life, left

// Why an offered seat was not taken.
TW_REASONS(ClaimFailure,
           lapsed,       // not admitted within the offer's claimBySeconds
           ended,        // the connection ended before admission (the token refused or expired, the server gone)
           open_failed,  // no client could be opened
           refused)      // the room's contract cannot be taken (the bot stops)

struct BotSeatSettings {
  Duration refresh = Duration::seconds(1);              // between /match asks while queued
  Duration resume_interval = Duration::milliseconds(500);  // between /resume asks
  Duration resume_patience = Duration::seconds(60);     // from the loss to giving the pawn up
};

// What an offer hands the caller to connect with.
struct SeatOffer {
  std::vector<uint8_t> token;  // the whole connect token
  std::string address;         // the room's HOST:PORT (the client's socket family and scope)
};

// Figures the bots of one process share.
struct SeatTally {
  uint64_t matched = 0;  // admissions through /match so far (a matched line's order)
};

class BotSeat {
 public:
  BotSeat(uint32_t bot, uint64_t actor, const BotSeatSettings& settings, MonoTime start);

  // Posts the ask due at `now`, if any (none while one is out, or while a client holds the seat).
  void ask_if_due(MatchAsker& asker, MonoTime now);
  // The reply to this seat's ask: an offer to connect with, or nothing.
  std::optional<SeatOffer> on_reply(const MatchReply& reply, MonoTime now);
  // The caller could not open a client for the offer just given.
  void open_failed(MonoTime now);
  // After the client's frame: follows its admission, its tickets and its loss. True when the
  // caller must close the client (an offer lapsed).
  bool follow(const Client& client, MonoTime now, SeatTally& tally);

  bool runs_client() const;  // claiming, reclaiming or playing: the client is run each frame
  SeatPhase phase() const { return phase_; }
  uint64_t matched() const { return matched_; }
  uint64_t resumed() const { return resumed_; }
  uint64_t resume_failures() const { return resume_failures_; }
  uint64_t max_position() const { return max_position_; }
  uint64_t asks() const { return asks_; }
  // This bot's figures for the final line; `add_to` sums them into the process's.
  nlohmann::json json() const;
  void add_to(nlohmann::json& totals) const;

 private:
  double at_s(MonoTime now) const { return (now - start_).seconds_f(); }
  void retry_later(MonoTime now);
  void seek(MonoTime now);
  void give_up_resuming(MonoTime now, const char* why);
  void count_refusal(const MatchAnswer& answer);
  std::optional<SeatOffer> take_offer(MatchAnswer& answer, SeatPhase next, MonoTime now);
  void claim_not_taken(ClaimFailure why, MonoTime now);
  void on_match_answer(MatchAnswer& answer, MonoTime now);
  void on_resume_answer(const MatchAnswer& answer, MonoTime now);
  bool follow_claim(const Client& client, MonoTime now, SeatTally& tally);
  void follow_play(const Client& client, MonoTime now);

  const uint32_t bot_;
  const uint64_t actor_;
  const BotSeatSettings settings_;
  const MonoTime start_;
  SeatPhase phase_ = SeatPhase::seeking;
  bool asking_ = false;  // an ask of this seat is in the asker
  MonoTime next_ask_at_;
  Duration backoff_;
  MonoTime seek_began_;  // the first /match ask of this search (a matched line's wait)
  uint64_t last_position_ = 0;  // 0: not queued
  std::string room_, process_, address_;
  MonoTime claim_deadline_;
  // What a resumption presents and proves: the newest ticket's token, the pawn it is for.
  std::string ticket_hex_;
  uint64_t pawn_ = 0;
  MonoTime lost_at_, resume_deadline_;
  std::optional<MonoTime> back_playing_at_;  // reclaiming: admitted and its first snapshot applied

  uint64_t matched_ = 0, resumed_ = 0, resume_failures_ = 0, lost_ = 0, max_position_ = 0, asks_ = 0;
  uint64_t queue_full_ = 0;  // asks the process's asker had no room for
  ReasonCounters<fleet::HttpGetFailure> ask_failures_;
  ReasonCounters<MatchAnswerDefect> answer_defects_;
  ReasonCounters<MatchRefusal> refusals_;
  ReasonCounters<ClaimFailure> claim_failures_;
};

}  // namespace tickwire::cli

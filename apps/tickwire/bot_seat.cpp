// A bot's seat through the matchmaker (bot_seat.h). The one rule that shapes it: a seat has at
// most one ask out and changes phase only on that ask's reply or on what its client shows, so a
// reply always finds the phase that asked. Lines are printed (and flushed) as they happen: a test
// or an operator watches them live.
#include "bot_seat.h"

#include <algorithm>
#include <cstdio>

#include <fmt/format.h>

#include "tickwire/client/game_client.h"
#include "tickwire/fleet/http_query_value.h"

namespace tickwire::cli {
namespace {

constexpr Duration kFirstBackoff = Duration::milliseconds(500);
constexpr Duration kMaxBackoff = Duration::seconds(8);
// How long a resumed session waits for its ResumeTicket once playing before it reports without one.
constexpr Duration kTicketWait = Duration::seconds(5);

void print_line(const nlohmann::json& line) {
  std::printf("%s\n", line.dump().c_str());
  std::fflush(stdout);
}

uint64_t pawn_of(const Client& client) {
  const auto& welcome = client.game().session().welcome();
  return welcome ? welcome->pawn_ref : 0;
}

template <class Reason>
void add_names(const ReasonCounters<Reason>& counters, nlohmann::json& into) {
  visit_nonzero(counters, [&](Reason reason, uint64_t count) {
    const std::string name(reason_name(reason));
    into[name] = into.value(name, uint64_t{0}) + count;
  });
}

}  // namespace

BotSeat::BotSeat(uint32_t bot, uint64_t actor, const BotSeatSettings& settings, MonoTime start)
    : bot_(bot), actor_(actor), settings_(settings), start_(start), next_ask_at_(start), backoff_(kFirstBackoff),
      seek_began_(start) {}

bool BotSeat::runs_client() const {
  return phase_ == SeatPhase::claiming || phase_ == SeatPhase::reclaiming || phase_ == SeatPhase::playing;
}

void BotSeat::ask_if_due(MatchAsker& asker, MonoTime now) {
  if (asking_ || now < next_ask_at_) return;
  if (phase_ == SeatPhase::resuming && now >= resume_deadline_) return give_up_resuming(now, "patience");
  MatchAsk ask;
  ask.bot = bot_;
  switch (phase_) {
    case SeatPhase::seeking:
      ask.kind = MatchAskKind::match;
      ask.target = fmt::format("/match?actor={}", actor_);
      break;
    case SeatPhase::leaving:
      ask.kind = MatchAskKind::leave;
      ask.target = fmt::format("/leave?actor={}", actor_);
      break;
    case SeatPhase::resuming:
      ask.kind = MatchAskKind::resume;
      ask.target = fmt::format("/resume?actor={}&room={}&ticket={}", actor_, fleet::encode_query_value(room_),
                               fleet::encode_query_value(ticket_hex_));
      break;
    default:
      return;  // a client holds the seat, or the bot stopped
  }
  if (!asker.post(std::move(ask))) {
    ++queue_full_;
    return retry_later(now);
  }
  asking_ = true;
  ++asks_;
}

void BotSeat::retry_later(MonoTime now) {
  if (phase_ == SeatPhase::resuming) {
    next_ask_at_ = now + settings_.resume_interval;  // resuming keeps its own cadence, bounded by its patience
    return;
  }
  next_ask_at_ = now + backoff_;
  backoff_ = std::min(backoff_ * 2, kMaxBackoff);
}

void BotSeat::seek(MonoTime now) {
  phase_ = SeatPhase::seeking;
  seek_began_ = now;
  next_ask_at_ = now;
  last_position_ = 0;
}

void BotSeat::give_up_resuming(MonoTime now, const char* why) {
  ++resume_failures_;
  print_line({{"type", "resume_failed"}, {"bot", bot_}, {"actor", actor_}, {"room", room_}, {"reason", why},
              {"lostAt", at_s(lost_at_)}, {"t", at_s(now)}});
  ticket_hex_.clear();
  seek(now);  // a fresh seat, wherever the matchmaker has one
}

void BotSeat::count_refusal(const MatchAnswer& answer) {
  if (answer.status == MatchStatus::bad_request) return refusals_.add(MatchRefusal::bad_request);
  if (answer.reason == "line_full") return refusals_.add(MatchRefusal::line_full);
  if (answer.reason == "room_not_listed") return refusals_.add(MatchRefusal::room_not_listed);
  refusals_.add(MatchRefusal::refused_other);
}

std::optional<SeatOffer> BotSeat::take_offer(MatchAnswer& answer, SeatPhase next, MonoTime now) {
  phase_ = next;
  backoff_ = kFirstBackoff;
  if (next == SeatPhase::claiming) room_ = answer.room;  // a resumption stays in the room it holds a pawn in
  process_ = answer.process;
  address_ = answer.address;
  claim_deadline_ = now + Duration::from_seconds(answer.claim_by_s);
  back_playing_at_.reset();
  return SeatOffer{std::move(answer.token), answer.address};
}

std::optional<SeatOffer> BotSeat::on_reply(const MatchReply& reply, MonoTime now) {
  asking_ = false;
  if (reply.failure) {
    ask_failures_.add(*reply.failure);
    retry_later(now);
    return std::nullopt;
  }
  if (!reply.reading.answer) {
    answer_defects_.add(reply.reading.defect);
    retry_later(now);
    return std::nullopt;
  }
  MatchAnswer answer = *reply.reading.answer;
  if (reply.kind == MatchAskKind::leave) {
    if (answer.status != MatchStatus::left && answer.status != MatchStatus::not_held)
      answer_defects_.add(MatchAnswerDefect::unexpected_answer);
    seek(now);  // left or not, the next /match says where this actor stands
    return std::nullopt;
  }
  if (answer.status == MatchStatus::offered) {
    return take_offer(answer, reply.kind == MatchAskKind::resume ? SeatPhase::reclaiming : SeatPhase::claiming, now);
  }
  if (reply.kind == MatchAskKind::resume) on_resume_answer(answer, now);
  else on_match_answer(answer, now);
  return std::nullopt;
}

void BotSeat::on_match_answer(MatchAnswer& answer, MonoTime now) {
  switch (answer.status) {
    case MatchStatus::queued:
      backoff_ = kFirstBackoff;
      max_position_ = std::max(max_position_, answer.position);
      if (answer.position != last_position_) {
        print_line({{"type", "queued"}, {"bot", bot_}, {"actor", actor_}, {"position", answer.position}, {"t", at_s(now)}});
      }
      last_position_ = answer.position;
      next_ask_at_ = now + settings_.refresh;
      return;
    case MatchStatus::seated:  // seated by the matchmaker's book, yet this bot holds no session
      refusals_.add(MatchRefusal::stale_seat);
      phase_ = SeatPhase::leaving;
      next_ask_at_ = now;
      return;
    case MatchStatus::refused:
    case MatchStatus::bad_request:
      count_refusal(answer);
      return retry_later(now);
    default:
      answer_defects_.add(MatchAnswerDefect::unexpected_answer);
      return retry_later(now);
  }
}

void BotSeat::on_resume_answer(const MatchAnswer& answer, MonoTime now) {
  if (answer.status == MatchStatus::bad_request) {  // the ask itself will not get better
    count_refusal(answer);
    return give_up_resuming(now, "bad_request");
  }
  if (answer.status == MatchStatus::refused) count_refusal(answer);  // room_not_listed: the room is moving; ask again
  else answer_defects_.add(MatchAnswerDefect::unexpected_answer);
  retry_later(now);
}

void BotSeat::open_failed(MonoTime now) { claim_not_taken(ClaimFailure::open_failed, now); }

// An offer not taken: a resumption presents its ticket again (the ticket was not used), within its
// patience; a seat is asked for again after the backoff, its wait going on from the first ask.
void BotSeat::claim_not_taken(ClaimFailure why, MonoTime now) {
  claim_failures_.add(why);
  if (phase_ == SeatPhase::reclaiming) {
    phase_ = SeatPhase::resuming;
    next_ask_at_ = now;
    return;
  }
  phase_ = SeatPhase::seeking;
  last_position_ = 0;
  retry_later(now);
}

bool BotSeat::follow(const Client& client, MonoTime now, SeatTally& tally) {
  if (phase_ == SeatPhase::claiming || phase_ == SeatPhase::reclaiming) return follow_claim(client, now, tally);
  if (phase_ == SeatPhase::playing) follow_play(client, now);
  return false;
}

// Claiming a seat: "admitted" is the welcome with the link up (ClientPhase::playing). A resumption
// reports once "playing": admitted and its first snapshot applied, with the ticket that says
// whether the pawn came back (or kTicketWait without one).
bool BotSeat::follow_claim(const Client& client, MonoTime now, SeatTally& tally) {
  const ClientStatus status = client.status();
  if (status.phase == ClientPhase::refused) {
    claim_failures_.add(ClaimFailure::refused);
    phase_ = SeatPhase::stopped;
    return false;
  }
  const bool admitted = status.phase == ClientPhase::playing;
  const bool lapsed = !admitted && now >= claim_deadline_;
  if (status.phase == ClientPhase::disconnected || lapsed) {
    claim_not_taken(lapsed ? ClaimFailure::lapsed : ClaimFailure::ended, now);
    return lapsed;
  }
  if (!admitted) return false;
  if (phase_ == SeatPhase::claiming) {
    ++matched_;
    print_line({{"type", "matched"}, {"bot", bot_}, {"actor", actor_}, {"room", room_}, {"process", process_},
                {"address", address_}, {"waitedSeconds", (now - seek_began_).seconds_f()}, {"order", ++tally.matched},
                {"t", at_s(now)}});
    phase_ = SeatPhase::playing;
    return false;
  }
  if (client.game().counters().snapshots == 0) return false;
  if (!back_playing_at_) back_playing_at_ = now;
  const protocol::ResumeTicket* ticket = client.resume_ticket();
  if (ticket == nullptr && now - *back_playing_at_ < kTicketWait) return false;
  const bool same_pawn = ticket != nullptr && ticket->outcome == protocol::ResumeOutcome::resumed && pawn_of(client) == pawn_;
  nlohmann::json line = {{"type", "resumed"}, {"bot", bot_}, {"actor", actor_}, {"room", room_}, {"address", address_},
                         {"lostAt", at_s(lost_at_)}, {"playingAt", at_s(*back_playing_at_)},
                         {"gapSeconds", (*back_playing_at_ - lost_at_).seconds_f()}, {"samePawn", same_pawn},
                         {"outcome", ticket ? std::string(reason_name(ticket->outcome)) : "no_ticket"}, {"t", at_s(now)}};
  if (ticket != nullptr && ticket->outcome == protocol::ResumeOutcome::refused)
    line["refusal"] = std::string(reason_name(ticket->refusal));
  print_line(line);
  if (same_pawn) ++resumed_;
  else ++resume_failures_;
  phase_ = SeatPhase::playing;
  return false;
}

// Playing: keep the newest ticket and the pawn it is for; a loss the bot did not decide (it never
// disconnects before its end) resumes with that ticket, or without one seeks a fresh seat.
void BotSeat::follow_play(const Client& client, MonoTime now) {
  if (const protocol::ResumeTicket* ticket = client.resume_ticket(); ticket != nullptr && !ticket->token_hex.empty()) {
    ticket_hex_ = ticket->token_hex;
    pawn_ = pawn_of(client);
  }
  const ClientStatus status = client.status();
  if (status.phase == ClientPhase::refused) {
    phase_ = SeatPhase::stopped;
    return;
  }
  if (status.phase != ClientPhase::disconnected) return;
  ++lost_;
  lost_at_ = now;
  if (ticket_hex_.empty()) return seek(now);
  phase_ = SeatPhase::resuming;
  resume_deadline_ = now + settings_.resume_patience;
  next_ask_at_ = now;
}

nlohmann::json BotSeat::json() const {
  nlohmann::json failures = nlohmann::json::object();
  add_names(ask_failures_, failures);
  add_names(answer_defects_, failures);
  if (queue_full_ > 0) failures["queue_full"] = queue_full_;
  nlohmann::json refusals = nlohmann::json::object();
  add_names(refusals_, refusals);
  nlohmann::json claims = nlohmann::json::object();
  add_names(claim_failures_, claims);
  return {{"phase", std::string(reason_name(phase_))}, {"matched", matched_},     {"resumed", resumed_},
          {"resumeFailures", resume_failures_},         {"lost", lost_},           {"maxPosition", max_position_},
          {"asks", asks_},                              {"askFailures", failures}, {"refusals", refusals},
          {"claimFailures", claims}};
}

void BotSeat::add_to(nlohmann::json& totals) const {
  const nlohmann::json mine = json();
  for (const char* count : {"matched", "resumed", "resumeFailures", "lost", "asks"})
    totals[count] = totals.value(count, uint64_t{0}) + mine[count].get<uint64_t>();
  totals["maxPosition"] = std::max(totals.value("maxPosition", uint64_t{0}), max_position_);
  for (const char* map : {"askFailures", "refusals", "claimFailures"}) {
    if (!totals.contains(map)) totals[map] = nlohmann::json::object();
    for (const auto& [name, count] : mine[map].items())
      totals[map][name] = totals[map].value(name, uint64_t{0}) + count.get<uint64_t>();
  }
}

}  // namespace tickwire::cli

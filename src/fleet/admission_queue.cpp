// The admission rules in one place. Every call settles the queue first (silent waiters lapse, then
// unclaimed offers, then free seats go to the front of the line), so no answer counts a place that
// has already lapsed. A place in line is a ticket: a refresh finds the same one, never the back.
#include "tickwire/fleet/admission_queue.h"

#include <algorithm>
#include <limits>

namespace tickwire::fleet {
namespace {

enum class Rounding { down, up };

// Whole milliseconds of `d` (a negative one is 0), saturated to 32 bits.
uint32_t whole_ms(Duration d, Rounding rounding) {
  if (d <= Duration{}) return 0;
  constexpr int64_t kNsPerMs = 1'000'000;
  const int64_t ms = rounding == Rounding::up ? (d.ns() + kNsPerMs - 1) / kNsPerMs : d.ns() / kNsPerMs;
  return static_cast<uint32_t>(std::min<int64_t>(ms, std::numeric_limits<uint32_t>::max()));
}

}  // namespace

AdmissionQueue::AdmissionQueue(const AdmissionQueueConfig& config)
    : capacity_(config.capacity),
      max_line_(config.max_line),
      last_now_(MonoTime::from_ns(std::numeric_limits<int64_t>::min())),
      offers_(config.claim_window),
      waiter_silence_(config.waiter_timeout) {
  TW_ASSERT(config.capacity <= kMaxAdmissionSeats, "capacity within kMaxAdmissionSeats");
  TW_ASSERT(config.max_line <= kMaxAdmissionLine, "max_line within kMaxAdmissionLine");
}

AdmissionAnswer AdmissionQueue::request(ActorId actor, MonoTime now) {
  settle(now);
  if (seats_.contains(actor)) return seat_answer(actor);
  if (tickets_.contains(actor)) {
    waiter_silence_.renew(actor, now);
    return waiting_answer(actor, now);
  }
  if (free_seats() > 0) {
    TW_ASSERT(line_.empty(), "a free seat after settling means nobody waits");
    offer_seat(actor, now);
    ++at_once_;
    return seat_answer(actor);
  }
  if (line_.size() >= max_line_) {
    refusals_.add(protocol::AdmissionRefusal::line_full);
    AdmissionAnswer refused;
    refused.line_length = line_length();
    refused.refusal = protocol::AdmissionRefusal::line_full;
    return refused;
  }
  line_.push_back(Waiter{actor, next_ticket_});
  tickets_.emplace(actor, next_ticket_);
  ++next_ticket_;
  waiter_silence_.renew(actor, now);
  return waiting_answer(actor, now);
}

bool AdmissionQueue::claim(ActorId actor, MonoTime now) {
  settle(now);
  if (!seats_.contains(actor)) {
    refusals_.add(protocol::AdmissionRefusal::no_seat);
    return false;
  }
  if (offers_.forget(actor)) ++claimed_;  // a seat already claimed stays so
  return true;
}

bool AdmissionQueue::release(ActorId actor, MonoTime now) {
  settle(now);
  if (!seats_.contains(actor)) return false;
  if (offers_.contains(actor)) {
    withdraw_offer(actor, PlaceLost::offer_declined);
  } else {
    free_seat(actor);
  }
  promote(now);
  return true;
}

bool AdmissionQueue::leave(ActorId actor, MonoTime now) {
  settle(now);
  if (!tickets_.contains(actor)) return false;
  remove_waiter(actor);
  places_lost_.add(PlaceLost::waiter_left);
  return true;
}

void AdmissionQueue::update(MonoTime now) { settle(now); }

void AdmissionQueue::set_capacity(uint32_t seats, MonoTime now) {
  TW_ASSERT(seats <= kMaxAdmissionSeats, "capacity within kMaxAdmissionSeats");
  capacity_ = seats;
  settle(now);  // at the new capacity: a shrink promotes nobody, a growth the next in line
}

std::vector<Promotion> AdmissionQueue::take_promotions() {
  std::vector<Promotion> taken;
  taken.swap(promotions_);
  return taken;
}

std::optional<AdmissionAnswer> AdmissionQueue::place_of(ActorId actor, MonoTime now) const {
  if (seats_.contains(actor)) return seat_answer(actor);
  if (tickets_.contains(actor)) return waiting_answer(actor, now);
  return std::nullopt;
}

void AdmissionQueue::settle(MonoTime now) {
  TW_ASSERT(now >= last_now_, "an admission queue's time does not go backwards");
  last_now_ = now;
  lapse_silent_waiters(now);  // first, so a seat an offer frees goes to a waiter still there
  lapse_unclaimed_offers(now);
  promote(now);
}

void AdmissionQueue::lapse_silent_waiters(MonoTime now) {
  uint64_t lapsed = 0;
  waiter_silence_.lapse(now, [&](ActorId actor) {
    tickets_.erase(actor);
    ++lapsed;
  });
  if (lapsed == 0) return;
  // One pass over the line however many lapsed at once.
  std::erase_if(line_, [&](const Waiter& waiter) { return !tickets_.contains(waiter.actor); });
  places_lost_.add(PlaceLost::waiter_silent, lapsed);
}

void AdmissionQueue::lapse_unclaimed_offers(MonoTime now) {
  offers_.lapse(now, [&](ActorId actor) { withdraw_offer(actor, PlaceLost::offer_unclaimed); });
}

void AdmissionQueue::promote(MonoTime now) {
  while (free_seats() > 0 && !line_.empty()) {
    const ActorId actor = line_.front().actor;
    line_.pop_front();
    tickets_.erase(actor);
    waiter_silence_.forget(actor);
    promotions_.push_back(Promotion{actor, offer_seat(actor, now)});
    seat_free_rate_.seat_freed(now);
    ++promoted_;
  }
}

MonoTime AdmissionQueue::offer_seat(ActorId actor, MonoTime now) {
  seats_.insert(actor);
  offers_.renew(actor, now);
  return now + offers_.timeout();
}

// The seat is nobody's now: a promotion to it not yet taken goes with it (so every pending promotion
// is to a seat still held, claimed or not).
void AdmissionQueue::free_seat(ActorId actor) {
  seats_.erase(actor);
  std::erase_if(promotions_, [&](const Promotion& p) { return p.actor == actor; });
}

void AdmissionQueue::withdraw_offer(ActorId actor, PlaceLost why) {
  offers_.forget(actor);
  free_seat(actor);
  places_lost_.add(why);
}

void AdmissionQueue::remove_waiter(ActorId actor) {
  line_.erase(find_in_line(actor));
  tickets_.erase(actor);
  waiter_silence_.forget(actor);
}

std::deque<AdmissionQueue::Waiter>::const_iterator AdmissionQueue::find_in_line(ActorId actor) const {
  const uint64_t ticket = tickets_.at(actor);
  const auto found = std::lower_bound(line_.begin(), line_.end(), ticket,
                                      [](const Waiter& waiter, uint64_t t) { return waiter.ticket < t; });
  TW_ASSERT(found != line_.end() && found->actor == actor, "every ticket is a place in line");
  return found;
}

AdmissionAnswer AdmissionQueue::seat_answer(ActorId actor) const {
  AdmissionAnswer answer;
  answer.line_length = line_length();
  const std::optional<MonoTime> claim_by = offers_.deadline(actor);
  answer.standing = claim_by ? protocol::AdmissionStanding::seat_offered : protocol::AdmissionStanding::seated;
  if (claim_by) answer.claim_by = *claim_by;
  return answer;
}

AdmissionAnswer AdmissionQueue::waiting_answer(ActorId actor, MonoTime now) const {
  AdmissionAnswer answer;
  answer.standing = protocol::AdmissionStanding::waiting;
  answer.position = static_cast<uint32_t>(find_in_line(actor) - line_.begin()) + 1;
  answer.line_length = line_length();
  answer.estimated_wait = seat_free_rate_.wait_for(answer.position, now);
  return answer;
}

protocol::AdmissionPlace admission_place(const AdmissionAnswer& answer, MonoTime now) {
  protocol::AdmissionPlace place;
  place.standing = answer.standing;
  place.line_length = answer.line_length;
  place.refusal = answer.refusal;
  if (answer.standing == protocol::AdmissionStanding::waiting) {
    place.position = answer.position;
    if (answer.estimated_wait) place.estimated_wait_ms = std::max<uint32_t>(1, whole_ms(*answer.estimated_wait, Rounding::up));
  } else if (answer.standing == protocol::AdmissionStanding::seat_offered) {
    place.claim_within_ms = whole_ms(answer.claim_by - now, Rounding::down);  // never more time than it has
  }
  return place;
}

}  // namespace tickwire::fleet

// AdmissionQueue (seed 003, "Load ladders": admission is elastic rather than a hard refusal): the
// seats of one deployment (or one room) and the line of players waiting for them. A full deployment
// puts a player in line and promotes it, strictly in order, when a seat frees; a refresh keeps its
// place; a player that stops refreshing, or does not claim the seat it was given, loses it by name.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "tickwire/clock/time.h"
#include "tickwire/core/reason_counters.h"
#include "tickwire/core/reasons.h"
#include "tickwire/fleet/expiry_order.h"
#include "tickwire/fleet/seat_free_rate.h"
#include "tickwire/protocol/admission_place.h"

namespace tickwire::fleet {

// A player as the backend knows it (its account id): stable across reconnects and refreshes.
using ActorId = uint64_t;

inline constexpr uint32_t kMaxAdmissionSeats = 1u << 20;  // capacity at most
inline constexpr uint32_t kMaxAdmissionLine = 1u << 16;   // max_line at most

struct AdmissionQueueConfig {
  uint32_t capacity = 256;                          // seats (set_capacity changes it at run time)
  uint32_t max_line = 1024;                         // waiters at most; the next is refused (line_full)
  Duration waiter_timeout = Duration::seconds(30);  // a waiter silent this long loses its place
  Duration claim_window = Duration::seconds(20);    // a seat given is held this long for its actor to claim
};

// How a place (in line, or a seat given but not claimed) was lost without the actor being seated.
TW_REASONS(PlaceLost,
           waiter_silent,    // a waiter did not refresh within waiter_timeout
           waiter_left,      // a waiter gave up (leave)
           offer_unclaimed,  // a seat given was not claimed within claim_window: it passed on
           offer_declined)   // a seat given was released before it was claimed

// The answer to a request: where the actor stands now.
struct AdmissionAnswer {
  protocol::AdmissionStanding standing = protocol::AdmissionStanding::refused;
  uint32_t position = 0;                   // waiting: 1 + the waiters still ahead of it
  uint32_t line_length = 0;                // the waiters in line
  std::optional<Duration> estimated_wait;  // waiting, once the seat-free rate is measured
  MonoTime claim_by;                       // seat_offered: the seat passes on at this instant
  protocol::AdmissionRefusal refusal = protocol::AdmissionRefusal::line_full;  // refused: why
};

// A waiter promoted to a seat: the caller tells it to claim the seat (connect) before `claim_by`.
struct Promotion {
  ActorId actor = 0;
  MonoTime claim_by;
  friend bool operator==(const Promotion&, const Promotion&) = default;
};

// The seats and the line. Every call takes `now` (never earlier than the previous call's) and first
// settles the queue at it: silent waiters and unclaimed offers lapse, then free seats go to the
// front of the line.
class AdmissionQueue {
 public:
  explicit AdmissionQueue(const AdmissionQueueConfig& config);

  // An actor asks for a seat, or refreshes its place: seated or seat_offered when it holds a seat
  // (nothing changes), waiting at its own place when in line (its silence timer restarts), a seat
  // offered when one is free (then nobody waits), else waiting at the back, or refused (line_full).
  AdmissionAnswer request(ActorId actor, MonoTime now);
  // The actor takes the seat held for it (it connected): true when it holds a claimed seat now; a
  // claim with no seat held is refused (no_seat) and counted.
  bool claim(ActorId actor, MonoTime now);
  // A seat frees (its holder went, or declined the seat offered to it): false when the actor held
  // none. The next in line is promoted.
  bool release(ActorId actor, MonoTime now);
  // A waiter gives up its place: false when it was not in line.
  bool leave(ActorId actor, MonoTime now);
  // Settles the queue at `now` (call it on the caller's cadence so lapses happen without requests).
  void update(MonoTime now);
  // Seats change at run time: a shrink below the seats taken evicts nobody (admissions close until
  // enough are released), a growth promotes the next in line at once.
  void set_capacity(uint32_t seats, MonoTime now);

  // The waiters promoted since the last call, in promotion order, each to a seat it still holds
  // (one whose offer lapsed or was declined, or whose seat was released since, is left out; one
  // that claimed already stays). At most one per seat.
  std::vector<Promotion> take_promotions();
  // Where `actor` stands as of the last call, without refreshing it (nullopt: it holds no seat and
  // is not in line). `now` only ages the wait estimate.
  std::optional<AdmissionAnswer> place_of(ActorId actor, MonoTime now) const;

  uint32_t capacity() const { return capacity_; }
  uint32_t max_line() const { return max_line_; }
  uint32_t seats_taken() const { return static_cast<uint32_t>(seats_.size()); }  // claimed + offered
  uint32_t seats_offered() const { return static_cast<uint32_t>(offers_.size()); }
  uint32_t free_seats() const { return capacity_ > seats_taken() ? capacity_ - seats_taken() : 0; }
  uint32_t line_length() const { return static_cast<uint32_t>(line_.size()); }
  uint64_t promoted() const { return promoted_; }       // seats given to waiters
  uint64_t seated_at_once() const { return at_once_; }  // seats given on request (nobody waiting)
  uint64_t claimed() const { return claimed_; }
  const ReasonCounters<protocol::AdmissionRefusal>& refusals() const { return refusals_; }
  const ReasonCounters<PlaceLost>& places_lost() const { return places_lost_; }

 private:
  struct Waiter {
    ActorId actor = 0;
    uint64_t ticket = 0;  // join order: increasing along the line
  };

  void settle(MonoTime now);
  void lapse_silent_waiters(MonoTime now);
  void lapse_unclaimed_offers(MonoTime now);
  void promote(MonoTime now);
  MonoTime offer_seat(ActorId actor, MonoTime now);
  void free_seat(ActorId actor);
  void withdraw_offer(ActorId actor, PlaceLost why);
  void remove_waiter(ActorId actor);
  std::deque<Waiter>::const_iterator find_in_line(ActorId actor) const;
  AdmissionAnswer seat_answer(ActorId actor) const;
  AdmissionAnswer waiting_answer(ActorId actor, MonoTime now) const;

  uint32_t capacity_;
  uint32_t max_line_;
  MonoTime last_now_;

  std::unordered_set<ActorId> seats_;  // every seat held, by its actor (claimed unless in offers_)
  ExpiryOrder<ActorId> offers_;        // the seats offered and not yet claimed, by claim deadline
  std::vector<Promotion> promotions_;  // not yet taken; every one to a seat still held

  std::deque<Waiter> line_;                        // in join order, the front first
  std::unordered_map<ActorId, uint64_t> tickets_;  // every waiter's ticket
  ExpiryOrder<ActorId> waiter_silence_;            // every waiter, by when its silence lapses it
  uint64_t next_ticket_ = 0;
  SeatFreeRate seat_free_rate_;

  uint64_t promoted_ = 0;
  uint64_t at_once_ = 0;
  uint64_t claimed_ = 0;
  ReasonCounters<protocol::AdmissionRefusal> refusals_;
  ReasonCounters<PlaceLost> places_lost_;
};

// The message a client is sent for `answer` given at `now`: durations in whole milliseconds
// (a wait rounded up, at least 1, so 0 keeps meaning "no estimate"), saturated to 32 bits.
protocol::AdmissionPlace admission_place(const AdmissionAnswer& answer, MonoTime now);

}  // namespace tickwire::fleet

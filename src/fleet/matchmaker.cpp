// The matchmaker's one rule: the queue decides who holds a seat and in what order, the rooms decide
// where, and the two always agree: every seat the queue holds is in exactly one room, and the rooms'
// free seats add up to at least the queue's. So room bookkeeping changes first, then the queue's
// capacity, then the queue's call, and every seat it gives out is placed before returning. A
// resumption's seat is the rooms' alone: it is taken out of the queue's capacity like a seat taken
// by another path.
#include "tickwire/fleet/matchmaker.h"

#include <algorithm>

#include "tickwire/core/assert.h"

namespace tickwire::fleet {
namespace {

AdmissionQueueConfig queue_config(const MatchmakerConfig& config) {
  AdmissionQueueConfig out = config.queue;
  out.capacity = 0;  // no seats until a listing says where they are
  return out;
}

// a's share of free seats below b's (a is fuller): a.free / a.total < b.free / b.total.
bool fuller(uint32_t a_free, uint32_t a_total, uint32_t b_free, uint32_t b_total) {
  return uint64_t{a_free} * b_total < uint64_t{b_free} * a_total;
}

}  // namespace

Matchmaker::Matchmaker(const MatchmakerConfig& config)
    : config_(config), queue_(queue_config(config)), offer_deadlines_(config.queue.claim_window) {
  TW_ASSERT(config.token_expire_seconds > 0, "a token lives a while");
}

Matchmaker::~Matchmaker() { netcode::wipe(config_.private_key); }

ListingView Matchmaker::observe(const std::vector<durable::DirectoryProcess>& listing, MonoTime now) {
  settle(now);
  ListingView view;
  Rooms next;
  for (const durable::DirectoryProcess& process : listing) {
    for (const durable::DirectoryRoom& room : process.rooms) {
      if (!durable::takes_players(process.state)) {
        view.skipped.add(RoomSkip::not_taking_players);
        continue;
      }
      const auto address = Address::parse(room.public_address);
      if (!address || address->port() == 0) {
        view.skipped.add(RoomSkip::bad_address);
        continue;
      }
      if (room.seats_total == 0 || room.seats_total > durable::kMaxDirectoryRoomSeats) {
        view.skipped.add(RoomSkip::bad_seats);
        continue;
      }
      if (next.size() >= kMaxMatchRooms) {
        view.skipped.add(RoomSkip::past_room_cap);
        continue;
      }
      RoomSeats seats;
      seats.address = *address;
      seats.seats_total = room.seats_total;
      seats.listed_taken = std::min(room.seats_taken, room.seats_total);
      next.emplace(RoomKey{process.process, room.room}, std::move(seats));
    }
  }
  // Rooms staying keep their seats; the players of rooms gone are displaced.
  // A resumption's seat goes with its room: it was for the pawn held there.
  std::vector<ActorId> displaced_offers, displaced_seated;
  for (auto it = rooms_.begin(); it != rooms_.end();) {
    auto staying = next.find(it->first);
    if (staying == next.end()) {
      const RoomSeats& gone = it->second;
      displaced_offers.insert(displaced_offers.end(), gone.offered.begin(), gone.offered.end());
      displaced_seated.insert(displaced_seated.end(), gone.seated.begin(), gone.seated.end());
      for (ActorId actor : gone.resume_offered) {
        offer_deadlines_.forget(actor);
        resume_grants_.erase(actor);
      }
      seats_lost_.add(SeatLost::resume_room_gone, gone.resume_offered.size());
      seats_lost_.add(SeatLost::seated_room_gone, gone.resume_seated.size());
      for (const auto* holders : {&gone.offered, &gone.seated, &gone.resume_offered, &gone.resume_seated})
        for (ActorId actor : *holders) seat_room_.erase(actor);
      it = rooms_.erase(it);
      continue;
    }
    it->second.address = staying->second.address;
    it->second.seats_total = staying->second.seats_total;
    it->second.listed_taken = staying->second.listed_taken;
    next.erase(staying);
    ++it;
  }
  rooms_.merge(next);
  // A displaced offer keeps its seat (and its claim deadline) in another room when one is free; the
  // line's order is kept, since it was ahead of everyone waiting.
  std::sort(displaced_offers.begin(), displaced_offers.end());  // a stable order whatever the hashing
  std::vector<ActorId> released;
  for (ActorId actor : displaced_offers) {
    const auto room = choose_room();
    if (room == rooms_.end()) {
      released.push_back(actor);
      seats_lost_.add(SeatLost::offer_room_gone);
      offer_deadlines_.forget(actor);
      continue;
    }
    room->second.offered.insert(actor);
    seat_room_.emplace(actor, room);
    ++view.offers_moved;
  }
  for (ActorId actor : displaced_seated) {
    released.push_back(actor);
    seats_lost_.add(SeatLost::seated_room_gone);
  }
  view.capacity = total_capacity();
  queue_.set_capacity(view.capacity, now);
  for (ActorId actor : released) queue_.release(actor, now);
  place_promotions(now);
  view.rooms = static_cast<uint32_t>(rooms_.size());
  return view;
}

MatchAnswer Matchmaker::match(ActorId actor, MonoTime now, const AdmissionGrants& grants) {
  settle(now);
  if (const auto held = seat_room_.find(actor); held != seat_room_.end() && held->second->second.resumed(actor))
    return resumed_answer(actor, now);
  MatchAnswer answer;
  answer.place = queue_.request(actor, now);
  place_promotions(now);
  const auto standing = answer.place.standing;
  if (standing != protocol::AdmissionStanding::seat_offered && standing != protocol::AdmissionStanding::seated)
    return answer;
  if (!seat_room_.contains(actor)) {  // a seat given at once (nobody waits)
    const auto room = choose_room();
    TW_ASSERT(room != rooms_.end(), "a seat the queue gives has a room");
    offer_in(actor, room, now);
  }
  const auto room = seat_room_.at(actor);
  answer.room = MatchedRoom{room->first, room->second.address};
  if (standing == protocol::AdmissionStanding::seat_offered)
    answer.token = mint_token(actor, room->second.address, now, grants);
  return answer;
}

ResumeAnswer Matchmaker::resume(ActorId actor, std::string_view room_id, MonoTime now, const AdmissionGrants& grants) {
  settle(now);
  ResumeAnswer answer;
  const auto room = resume_room(actor, room_id, answer.refusal);
  if (answer.refusal) {
    resume_refusals_.add(*answer.refusal);
    return answer;
  }
  const auto held = seat_of(actor);
  const bool refresh = held && held->resumed && !held->claimed && held->room == room->first;
  if (!refresh) {
    // The rooms first (its old seat out, the new one in), then the queue: its capacity shrinks
    // before the old seat, if the queue's, is released, so the seat that frees goes to the line only
    // where the rooms have one.
    const bool queue_seat = held && !held->resumed;
    if (!held) (void)queue_.leave(actor, now);  // a place in line given up (false when it had none)
    unassign(actor);
    room->second.resume_offered.insert(actor);
    seat_room_.emplace(actor, room);
    offer_deadlines_.renew(actor, now);
    queue_.set_capacity(total_capacity(), now);
    if (queue_seat) {
      const bool released = queue_.release(actor, now);
      TW_ASSERT(released, "a seat in a room is a seat in the queue");
    }
    place_promotions(now);
    ++resumes_.offered;
  }
  resume_grants_[actor] = grants;
  answer.room = MatchedRoom{room->first, room->second.address};
  answer.token = mint_token(actor, room->second.address, now, grants);
  answer.claim_by = offer_deadlines_.deadline(actor).value();
  return answer;
}

bool Matchmaker::seated(ActorId actor, const RoomKey& room, MonoTime now) {
  settle(now);
  const auto held = seat_room_.find(actor);
  if (held == seat_room_.end()) {
    (void)queue_.claim(actor, now);  // refused there too, and counted
    report_refusals_.add(SeatReportRefusal::no_seat);
    return false;
  }
  if (held->second->first != room) {
    report_refusals_.add(SeatReportRefusal::wrong_room);
    return false;
  }
  RoomSeats& seats = held->second->second;
  if (seats.resumed(actor)) {
    if (seats.resume_offered.erase(actor) > 0) {
      seats.resume_seated.insert(actor);
      offer_deadlines_.forget(actor);
      resume_grants_.erase(actor);
      ++resumes_.claimed;
    }
  } else {
    if (seats.offered.erase(actor) > 0) {
      seats.seated.insert(actor);
      offer_deadlines_.forget(actor);
    }
    const bool claimed = queue_.claim(actor, now);
    TW_ASSERT(claimed, "a seat in a room is a seat in the queue");
  }
  queue_.set_capacity(total_capacity(), now);  // a session the directory already counted is ours now
  place_promotions(now);
  return true;
}

bool Matchmaker::left(ActorId actor, MonoTime now) {
  settle(now);
  if (const auto held = seat_room_.find(actor); held != seat_room_.end()) {
    const bool resumed = held->second->second.resumed(actor);
    unassign(actor);
    // A seated session's seat is the directory's until its next heartbeat says it freed.
    queue_.set_capacity(total_capacity(), now);
    if (!resumed) {
      const bool released = queue_.release(actor, now);
      TW_ASSERT(released, "a seat in a room is a seat in the queue");
    }
    place_promotions(now);
    return true;
  }
  return queue_.leave(actor, now);
}

void Matchmaker::update(MonoTime now) { settle(now); }

std::vector<ActorId> Matchmaker::take_promoted() {
  std::vector<ActorId> out;
  out.swap(promoted_);
  return out;
}

std::optional<RoomKey> Matchmaker::room_of(ActorId actor) const {
  const auto held = seat_room_.find(actor);
  if (held == seat_room_.end()) return std::nullopt;
  return held->second->first;
}

std::optional<HeldSeat> Matchmaker::seat_of(ActorId actor) const {
  const auto held = seat_room_.find(actor);
  if (held == seat_room_.end()) return std::nullopt;
  const RoomSeats& seats = held->second->second;
  return HeldSeat{held->second->first, seats.seated.contains(actor) || seats.resume_seated.contains(actor),
                  seats.resumed(actor)};
}

SeatTotals Matchmaker::seat_totals() const {
  SeatTotals totals;
  for (const auto& [key, room] : rooms_) {
    totals.offered += static_cast<uint32_t>(room.offered.size());
    totals.seated += static_cast<uint32_t>(room.seated.size());
    totals.resume_offered += static_cast<uint32_t>(room.resume_offered.size());
    totals.resume_seated += static_cast<uint32_t>(room.resume_seated.size());
  }
  return totals;
}

uint32_t Matchmaker::offered_in(const RoomKey& room) const {
  const auto found = rooms_.find(room);
  return found == rooms_.end() ? 0 : static_cast<uint32_t>(found->second.offered.size() + found->second.resume_offered.size());
}

uint32_t Matchmaker::seated_in(const RoomKey& room) const {
  const auto found = rooms_.find(room);
  return found == rooms_.end() ? 0 : found->second.reported_seated();
}

// The queue settles first (offers unclaimed in time pass on, freed seats go to the line), then the
// lapsed offers leave their rooms (a resumption's lapsing gives the queue its seat back), then the
// promoted take theirs.
void Matchmaker::settle(MonoTime now) {
  queue_.update(now);
  if (drop_lapsed_offers(now)) queue_.set_capacity(total_capacity(), now);
  place_promotions(now);
}

bool Matchmaker::drop_lapsed_offers(MonoTime now) {
  bool resumes_lapsed = false;
  offer_deadlines_.lapse(now, [this, now, &resumes_lapsed](ActorId actor) {
    const auto held = seat_room_.find(actor);
    if (held == seat_room_.end()) return;
    RoomSeats& seats = held->second->second;
    if (seats.resume_offered.erase(actor) > 0) {
      resume_grants_.erase(actor);
      ++resumes_.unclaimed;
      resumes_lapsed = true;
    } else {
      const auto place = queue_.place_of(actor, now);
      TW_ASSERT(!place || place->standing == protocol::AdmissionStanding::waiting, "an offer lapses in the queue too");
      seats.offered.erase(actor);
    }
    seat_room_.erase(held);
  });
  return resumes_lapsed;
}

void Matchmaker::place_promotions(MonoTime now) {
  for (const Promotion& promotion : queue_.take_promotions()) {
    if (seat_room_.contains(promotion.actor)) continue;  // placed already (a displaced offer kept its seat)
    const auto room = choose_room();
    TW_ASSERT(room != rooms_.end(), "a seat the queue gives has a room");
    offer_in(promotion.actor, room, now);
    promoted_.push_back(promotion.actor);
  }
}

// The first room in key order among the best by the choice: O(rooms).
Matchmaker::Rooms::iterator Matchmaker::choose_room() {
  auto best = rooms_.end();
  for (auto it = rooms_.begin(); it != rooms_.end(); ++it) {
    const RoomSeats& r = it->second;
    const uint32_t free = r.free_to_offer();
    if (free == 0) continue;
    if (best == rooms_.end()) {
      best = it;
      continue;
    }
    const RoomSeats& b = best->second;
    const bool better = config_.choice == RoomChoice::fill_first ? fuller(free, r.seats_total, b.free_to_offer(), b.seats_total)
                                                                 : fuller(b.free_to_offer(), b.seats_total, free, r.seats_total);
    if (better) best = it;
  }
  return best;
}

// The room a resumption goes to: the one of that id its seat is in already (its own seat is its), else
// the first by key of that id with a seat free.
Matchmaker::Rooms::iterator Matchmaker::resume_room(ActorId actor, std::string_view room_id,
                                                    std::optional<ResumeSeatRefusal>& refusal) {
  if (const auto held = seat_room_.find(actor); held != seat_room_.end() && held->second->first.room == room_id)
    return held->second;
  bool listed = false;
  for (auto it = rooms_.begin(); it != rooms_.end(); ++it) {
    if (it->first.room != room_id) continue;
    listed = true;
    if (it->second.free_to_offer() > 0) return it;
  }
  refusal = listed ? ResumeSeatRefusal::room_full : ResumeSeatRefusal::room_not_listed;
  return rooms_.end();
}

// A resumption's seat as match() tells it: offered (a fresh token with the resumption's grants) or seated.
MatchAnswer Matchmaker::resumed_answer(ActorId actor, MonoTime now) const {
  const auto room = seat_room_.at(actor);
  MatchAnswer answer;
  answer.place.line_length = queue_.line_length();
  answer.room = MatchedRoom{room->first, room->second.address};
  if (room->second.resume_seated.contains(actor)) {
    answer.place.standing = protocol::AdmissionStanding::seated;
    return answer;
  }
  answer.place.standing = protocol::AdmissionStanding::seat_offered;
  answer.place.claim_by = offer_deadlines_.deadline(actor).value();
  answer.token = mint_token(actor, room->second.address, now, resume_grants_.at(actor));
  return answer;
}

void Matchmaker::offer_in(ActorId actor, Rooms::iterator room, MonoTime now) {
  room->second.offered.insert(actor);
  seat_room_.emplace(actor, room);
  offer_deadlines_.renew(actor, now);  // the queue's claim deadline: the same window from the same instant
}

void Matchmaker::unassign(ActorId actor) {
  const auto held = seat_room_.find(actor);
  if (held == seat_room_.end()) return;
  RoomSeats& seats = held->second->second;
  for (auto* holders : {&seats.offered, &seats.seated, &seats.resume_offered, &seats.resume_seated}) holders->erase(actor);
  offer_deadlines_.forget(actor);
  resume_grants_.erase(actor);
  seat_room_.erase(held);
}

uint32_t Matchmaker::total_capacity() const {
  uint64_t seats = 0;
  for (const auto& [key, room] : rooms_) seats += room.capacity();
  TW_ASSERT(seats <= kMaxAdmissionSeats, "kMaxMatchRooms rooms of at most 256 seats fit the queue");
  return static_cast<uint32_t>(seats);
}

netcode::ConnectTokenBytes Matchmaker::mint_token(ActorId actor, const Address& address, MonoTime now,
                                                   const AdmissionGrants& grants) const {
  netcode::ConnectTokenParams params;
  params.protocol_id = config_.protocol_id;
  params.client_id = actor;
  params.timeout_seconds = config_.token_timeout_seconds;
  params.expire_seconds = config_.token_expire_seconds;
  const bool added = params.server_addresses.add(address);
  TW_ASSERT(added, "one address fits a token");
  const bool granted = write_admission_grants(grants, params.user_data);
  TW_ASSERT(granted, "the grants fit the user data (kMaxGrantedResumeTokenBytes)");
  const auto token = netcode::generate_connect_token(params, config_.private_key, config_.anchor.to_wall(now));
  TW_ASSERT(token.ok(), "a token with one address mints");
  netcode::ConnectTokenBytes bytes{};
  netcode::write_connect_token(token.value(), bytes);
  return bytes;
}

}  // namespace tickwire::fleet

// Matchmaker (issue 21, "A fleet" and "The admission queue"): hands a player a seat in a room of the
// fleet, with a connect token for that room, or its place in line. The seats are the fleet
// directory's (the rooms of processes that take players); one AdmissionQueue over all of them decides
// who gets a seat and in which order, and the matchmaker decides which room each seat is in, never
// offering a room more seats than it has free. A player coming back to the pawn held for it in a room
// is offered a seat in that room outside the line (it holds its place in the fleet already). Pure: no
// threads, no clock, no sockets; whoever runs it feeds it listings, asks, and the servers' reports
// (docs/matchmaking.md).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "tickwire/clock/time.h"
#include "tickwire/core/reason_counters.h"
#include "tickwire/core/reasons.h"
#include "tickwire/durable/fleet_listing.h"
#include "tickwire/fleet/admission_queue.h"
#include "tickwire/fleet/expiry_order.h"
#include "tickwire/server/admission_grants.h"
#include "tickwire/transport/address.h"
#include "tickwire/transport/connect_token.h"

namespace tickwire::fleet {

inline constexpr uint32_t kMaxMatchRooms = 4096;  // rooms the matchmaker places players in at most

// Which room with a free seat a seat is offered in.
enum class RoomChoice : uint8_t {
  fill_first,    // the fullest (by share of its seats): rooms fill up, matches start, empty processes drain away
  least_loaded,  // the emptiest: players and load spread evenly
};

struct MatchmakerConfig {
  AdmissionQueueConfig queue;  // its capacity is ignored: the listing's seats set it
  RoomChoice choice = RoomChoice::fill_first;
  uint64_t protocol_id = netcode::kDefaultProtocolId;
  netcode::Key private_key{};         // the fleet's servers' (wiped when the matchmaker goes)
  uint64_t token_expire_seconds = 30;  // a token outliving its seat's claim window is refused at the server's claim
  int32_t token_timeout_seconds = 5;
  TimeAnchor anchor;  // a token's timestamps: anchor.to_wall(now)
};

// A room of the fleet, by the process serving it (a room id may appear under two processes while one
// of them is dying).
struct RoomKey {
  std::string process;
  std::string room;
  auto operator<=>(const RoomKey&) const = default;
};

// The room a seat is in.
struct MatchedRoom {
  RoomKey key;
  Address address;  // where the player connects (the token's one server address)
};

// A player's answer: its place (the queue's, for the admissionPlace message), and for a seat offered
// the room and a token minted for it (a seated player is told its room, and given no new token).
struct MatchAnswer {
  AdmissionAnswer place;
  std::optional<MatchedRoom> room;
  std::optional<netcode::ConnectTokenBytes> token;
};

// Why a server's report of a seated session was not taken (the server then drops the session).
TW_REASONS(SeatReportRefusal,
           no_seat,     // no seat is held for the actor (its offer lapsed, or it never had one)
           wrong_room)  // its seat is in another room than the one reporting it

// Why a room of a listing was left out of the seats.
TW_REASONS(RoomSkip,
           not_taking_players,  // its process is starting, draining or stopped
           bad_address,         // its public address does not parse as a numeric HOST:PORT
           bad_seats,           // no seats, or more than durable::kMaxDirectoryRoomSeats
           past_room_cap)       // past kMaxMatchRooms

// How a player lost a seat without leaving: its room left the listing (process dead or draining).
TW_REASONS(SeatLost,
           seated_room_gone,  // it was seated there (it resumes elsewhere with its resume token, or asks again)
           offer_room_gone,   // it was offered a seat there and no other room had one free
           resume_room_gone)  // it was offered a seat there to resume (it asks again: its room is being taken over)

// Why a player resuming was offered no seat in its room.
TW_REASONS(ResumeSeatRefusal,
           room_not_listed,  // no process taking players lists the room (it is being taken over, or gone)
           room_full)        // every process listing it has no seat free

// A resuming player's answer: a seat offered in a room of that id, with a token carrying the grants
// (claimed by the room's report, or lapsing at claim_by), or why not.
struct ResumeAnswer {
  std::optional<ResumeSeatRefusal> refusal;  // set: nothing was offered (and nothing changed)
  std::optional<MatchedRoom> room;
  std::optional<netcode::ConnectTokenBytes> token;
  MonoTime claim_by;
};

// Where an actor's seat is, and what kind it is.
struct HeldSeat {
  RoomKey room;
  bool claimed = false;  // seated (its session reported), else offered
  bool resumed = false;  // a resumption's, outside the queue
  friend bool operator==(const HeldSeat&, const HeldSeat&) = default;
};

// The seats held across the rooms, by kind.
struct SeatTotals {
  uint32_t offered = 0;  // through the queue, not yet claimed
  uint32_t seated = 0;   // through the queue, claimed
  uint32_t resume_offered = 0;
  uint32_t resume_seated = 0;
};

// Resumptions so far.
struct ResumeCounts {
  uint64_t offered = 0;    // seats offered (a refresh of a held offer is not counted again)
  uint64_t claimed = 0;    // reported seated
  uint64_t unclaimed = 0;  // lapsed at the claim window
};

// What a listing changed.
struct ListingView {
  uint32_t rooms = 0;       // rooms taking players
  uint32_t capacity = 0;    // the queue's capacity now
  uint32_t offers_moved = 0;  // offers whose room left, moved to another room
  ReasonCounters<RoomSkip> skipped;
};

class Matchmaker {
 public:
  explicit Matchmaker(const MatchmakerConfig& config);
  ~Matchmaker();
  Matchmaker(const Matchmaker&) = delete;
  Matchmaker& operator=(const Matchmaker&) = delete;

  // The directory's listing (live processes) replaces the fleet's rooms: the rooms of processes that
  // take players, each with its seats. Seats taken that no report of ours explains (a player seated
  // by another path) are taken out of the capacity; a room gone releases its players.
  ListingView observe(const std::vector<durable::DirectoryProcess>& listing, MonoTime now);

  // A player asks for a seat, or refreshes: a seat offered (its room and a fresh token for it), its
  // seat (seated), its place in line (the same place on every refresh), or refused (line_full).
  // `grants` ride the token's user data (asserted to fit: kMaxGrantedResumeTokenBytes).
  MatchAnswer match(ActorId actor, MonoTime now, const AdmissionGrants& grants = {});

  // A player whose pawn is held in the room `room_id` (it holds a resume token for it) asks back in: a
  // seat in the room of that id a listed process serves (the one its seat is in already, else the
  // first by key with a seat free), outside the queue, its token carrying `grants` (the resume token).
  // A seat it held elsewhere is released first, and a place in line is given up. Asking again while
  // the offer stands gives a fresh token and keeps the claim deadline. Refused (and counted, nothing
  // changed) when no listed room has that id or none of them has a seat free.
  ResumeAnswer resume(ActorId actor, std::string_view room_id, MonoTime now, const AdmissionGrants& grants);

  // The server's connect path: the session of `actor` (the token's client id) is seated in `room`.
  // False, counted, when no seat is held for it there (the server then drops the session).
  bool seated(ActorId actor, const RoomKey& room, MonoTime now);
  // The player's seat frees (its session ended, or it declined the seat), or it leaves the line.
  // False when it held neither.
  bool left(ActorId actor, MonoTime now);
  // Settles lapses and promotions without anyone asking (call it on the caller's cadence).
  void update(MonoTime now);

  // The actors promoted (given a seat, in a room) since the last call, in promotion order, for a
  // caller that pushes "connect now" instead of waiting for their refresh.
  std::vector<ActorId> take_promoted();

  const AdmissionQueue& queue() const { return queue_; }
  // Where an actor's seat is (offered or seated), if it holds one.
  std::optional<RoomKey> room_of(ActorId actor) const;
  std::optional<HeldSeat> seat_of(ActorId actor) const;
  SeatTotals seat_totals() const;  // O(rooms)
  uint32_t rooms() const { return static_cast<uint32_t>(rooms_.size()); }
  // A room's seats as the matchmaker counts them: offers out, sessions seated by our reports (the
  // queue's and the resumptions').
  uint32_t offered_in(const RoomKey& room) const;
  uint32_t seated_in(const RoomKey& room) const;
  const ReasonCounters<SeatReportRefusal>& report_refusals() const { return report_refusals_; }
  const ReasonCounters<SeatLost>& seats_lost() const { return seats_lost_; }
  const ReasonCounters<ResumeSeatRefusal>& resume_refusals() const { return resume_refusals_; }
  const ResumeCounts& resumes() const { return resumes_; }

 private:
  struct RoomSeats {
    Address address;
    uint32_t seats_total = 0;
    uint32_t listed_taken = 0;  // the directory's count of sessions seated
    std::unordered_set<ActorId> offered;  // the queue's seats
    std::unordered_set<ActorId> seated;
    std::unordered_set<ActorId> resume_offered;  // resumptions' seats, outside the queue
    std::unordered_set<ActorId> resume_seated;

    uint32_t seated_count() const { return static_cast<uint32_t>(seated.size()); }
    uint32_t reported_seated() const { return static_cast<uint32_t>(seated.size() + resume_seated.size()); }
    // Sessions seated by another path than our offers (development tokens, a matchmaker restarted).
    uint32_t outside() const { return listed_taken > reported_seated() ? listed_taken - reported_seated() : 0; }
    // The seats the queue does not hold: the outside ones and the resumptions'.
    uint32_t outside_queue() const {
      return outside() + static_cast<uint32_t>(resume_offered.size() + resume_seated.size());
    }
    uint32_t occupied() const { return outside_queue() + seated_count() + static_cast<uint32_t>(offered.size()); }
    uint32_t free_to_offer() const { return seats_total > occupied() ? seats_total - occupied() : 0; }
    uint32_t capacity() const { return seats_total > outside_queue() ? seats_total - outside_queue() : 0; }
    bool resumed(ActorId actor) const { return resume_offered.contains(actor) || resume_seated.contains(actor); }
  };
  using Rooms = std::map<RoomKey, RoomSeats>;

  void settle(MonoTime now);
  bool drop_lapsed_offers(MonoTime now);  // true when a resumption's offer lapsed (the queue's capacity grew)
  void place_promotions(MonoTime now);
  Rooms::iterator choose_room();
  Rooms::iterator resume_room(ActorId actor, std::string_view room_id, std::optional<ResumeSeatRefusal>& refusal);
  MatchAnswer resumed_answer(ActorId actor, MonoTime now) const;
  void offer_in(ActorId actor, Rooms::iterator room, MonoTime now);
  void unassign(ActorId actor);
  uint32_t total_capacity() const;
  netcode::ConnectTokenBytes mint_token(ActorId actor, const Address& address, MonoTime now,
                                        const AdmissionGrants& grants) const;

  MatchmakerConfig config_;
  AdmissionQueue queue_;
  Rooms rooms_;
  std::unordered_map<ActorId, Rooms::iterator> seat_room_;  // every seat held, by its actor
  ExpiryOrder<ActorId> offer_deadlines_;                   // offers not yet claimed, as the queue times them
  std::vector<ActorId> promoted_;
  ReasonCounters<SeatReportRefusal> report_refusals_;
  ReasonCounters<SeatLost> seats_lost_;
  std::unordered_map<ActorId, AdmissionGrants> resume_grants_;  // every resumption's offer not yet claimed
  ReasonCounters<ResumeSeatRefusal> resume_refusals_;
  ResumeCounts resumes_;
};

}  // namespace tickwire::fleet

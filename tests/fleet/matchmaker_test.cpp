// The matchmaker's rules one at a time: which room a seat goes to (fill-first, least-loaded), which
// rooms never get one (a process starting or draining, a room the listing gets wrong), seats freed
// by the directory's count as well as by a release reported, a session the directory counted before
// its report never letting a room be offered past its seats, an offer unclaimed passing on, the servers' reports refused by
// name, a process that dies or drains displacing its players, the grants riding the token, and a
// player resuming in its room outside the line (a seat held elsewhere released, an offer refreshed or
// lapsing, a room full or not listed refused by name, the room going away with its seat).
#include <gtest/gtest.h>

#include <vector>

#include "matchmaker_fixture.h"

namespace tickwire::fleet {
namespace {

using durable::ProcessState;
using protocol::AdmissionStanding;
using test::fleet_process;
using test::kRoomA0;
using test::kRoomA1;
using test::kT0;

// Process "a" with two rooms of `seats`, room.1 holding `outside` sessions the matchmaker did not seat.
std::vector<durable::DirectoryProcess> two_rooms(uint32_t seats, uint32_t outside = 0, ProcessState state = ProcessState::ready) {
  auto a = fleet_process("a", state, 2, seats, 40000);
  a.rooms[1].seats_taken = outside;
  return {a};
}

TEST(Matchmaker, FillFirstFillsTheFullestRoomAndLeastLoadedTheEmptiest) {
  Matchmaker fill(test::matchmaker_config(RoomChoice::fill_first));
  Matchmaker spread(test::matchmaker_config(RoomChoice::least_loaded));
  EXPECT_EQ(fill.observe(two_rooms(8, 4), kT0).capacity, 12u);
  spread.observe(two_rooms(8, 4), kT0);
  std::vector<RoomKey> filled, spreaded;
  for (ActorId actor = 1; actor <= 8; ++actor) {
    filled.push_back(fill.match(actor, kT0).room->key);
    spreaded.push_back(spread.match(actor, kT0).room->key);
  }
  // Fill-first: room.1 (4 of 8 taken) until full, then room.0.
  EXPECT_EQ(filled, (std::vector<RoomKey>{kRoomA1, kRoomA1, kRoomA1, kRoomA1, kRoomA0, kRoomA0, kRoomA0, kRoomA0}));
  // Least-loaded: room.0 until it is as full as room.1, then alternating (ties go to the first key).
  EXPECT_EQ(spreaded, (std::vector<RoomKey>{kRoomA0, kRoomA0, kRoomA0, kRoomA0, kRoomA0, kRoomA1, kRoomA0, kRoomA1}));
}

TEST(Matchmaker, OnlyRoomsOfProcessesTakingPlayersGetSeats) {
  Matchmaker matchmaker(test::matchmaker_config());
  auto listing = std::vector<durable::DirectoryProcess>{fleet_process("starting", ProcessState::starting, 1, 8, 41000),
                                                        fleet_process("draining", ProcessState::draining, 1, 8, 42000),
                                                        fleet_process("stopped", ProcessState::stopped, 1, 8, 43000),
                                                        fleet_process("bad", ProcessState::ready, 3, 8, 44000)};
  listing[3].rooms[0].public_address = "not-an-address";
  listing[3].rooms[1].seats_total = 0;
  const ListingView view = matchmaker.observe(listing, kT0);
  EXPECT_EQ(view.rooms, 1u);
  EXPECT_EQ(view.capacity, 8u);
  EXPECT_EQ(view.skipped[RoomSkip::not_taking_players], 3u);
  EXPECT_EQ(view.skipped[RoomSkip::bad_address], 1u);
  EXPECT_EQ(view.skipped[RoomSkip::bad_seats], 1u);
  for (ActorId actor = 1; actor <= 8; ++actor)
    EXPECT_EQ(matchmaker.match(actor, kT0).room->key, (RoomKey{"bad", "room.2"}));
  EXPECT_EQ(matchmaker.match(9, kT0).place.standing, AdmissionStanding::waiting);
}

TEST(Matchmaker, ASeatFreedInTheDirectoryPromotesTheNextInLine) {
  Matchmaker matchmaker(test::matchmaker_config());
  auto listing = two_rooms(4, 4);
  listing[0].rooms.pop_back();
  listing[0].rooms[0].seats_taken = 4;  // room.0 full of players seated by another path (resumed ones)
  matchmaker.observe(listing, kT0);
  EXPECT_EQ(matchmaker.match(1, kT0).place.position, 1u);
  EXPECT_EQ(matchmaker.match(2, kT0).place.position, 2u);
  listing[0].rooms[0].seats_taken = 3;  // one of them left: the next heartbeat says so
  matchmaker.observe(listing, kT0 + Duration::seconds(1));
  EXPECT_EQ(matchmaker.take_promoted(), std::vector<ActorId>{1});
  const MatchAnswer one = matchmaker.match(1, kT0 + Duration::seconds(2));
  EXPECT_EQ(one.place.standing, AdmissionStanding::seat_offered);
  EXPECT_TRUE(one.token.has_value());
  EXPECT_EQ(matchmaker.match(2, kT0 + Duration::seconds(2)).place.position, 1u);
}

TEST(Matchmaker, ASessionTheDirectoryCountsBeforeItsReportIsNeverOverOffered) {
  Matchmaker matchmaker(test::matchmaker_config());
  auto listing = two_rooms(2);
  listing[0].rooms.pop_back();
  matchmaker.observe(listing, kT0);
  ASSERT_EQ(matchmaker.match(1, kT0).place.standing, AdmissionStanding::seat_offered);
  // Player 1 connected; the heartbeat counts it before the server's report reaches us. Until the
  // report the session is counted twice (the directory's and our offer), so the room of two looks
  // full: player 2 waits rather than take a seat that may not be there.
  listing[0].rooms[0].seats_taken = 1;
  matchmaker.observe(listing, kT0 + Duration::seconds(1));
  EXPECT_EQ(matchmaker.match(2, kT0 + Duration::seconds(1)).place.position, 1u);
  ASSERT_TRUE(matchmaker.seated(1, kRoomA0, kT0 + Duration::seconds(2)));  // now counted once
  EXPECT_EQ(matchmaker.take_promoted(), std::vector<ActorId>{2});
  EXPECT_EQ(matchmaker.match(3, kT0 + Duration::seconds(2)).place.position, 1u);
  // Player 1 leaves: its seat is the directory's until a heartbeat says it freed.
  ASSERT_TRUE(matchmaker.left(1, kT0 + Duration::seconds(3)));
  EXPECT_EQ(matchmaker.match(3, kT0 + Duration::seconds(3)).place.position, 1u);
  listing[0].rooms[0].seats_taken = 0;
  matchmaker.observe(listing, kT0 + Duration::seconds(4));
  EXPECT_EQ(matchmaker.match(3, kT0 + Duration::seconds(4)).place.standing, AdmissionStanding::seat_offered);
  EXPECT_EQ(matchmaker.offered_in(kRoomA0), 2u);
}

TEST(Matchmaker, AnUnclaimedOfferPassesOnAndReportsAreRefusedByName) {
  Matchmaker matchmaker(test::matchmaker_config());
  auto listing = two_rooms(1);
  matchmaker.observe(listing, kT0);
  ASSERT_EQ(matchmaker.match(1, kT0).room->key, kRoomA0);
  ASSERT_EQ(matchmaker.match(2, kT0).room->key, kRoomA1);
  EXPECT_EQ(matchmaker.match(3, kT0).place.position, 1u);
  EXPECT_FALSE(matchmaker.seated(2, kRoomA0, kT0));  // its seat is in room.1
  EXPECT_EQ(matchmaker.report_refusals()[SeatReportRefusal::wrong_room], 1u);
  EXPECT_TRUE(matchmaker.seated(2, kRoomA1, kT0));
  EXPECT_TRUE(matchmaker.seated(2, kRoomA1, kT0));  // said twice: still seated
  // Player 1 never connects: its seat passes to player 3 in the same room, and its late report is refused.
  const MonoTime lapsed = kT0 + Duration::seconds(20);
  matchmaker.update(lapsed);
  EXPECT_EQ(matchmaker.take_promoted(), std::vector<ActorId>{3});
  EXPECT_EQ(matchmaker.room_of(3), kRoomA0);
  EXPECT_FALSE(matchmaker.room_of(1).has_value());
  EXPECT_FALSE(matchmaker.seated(1, kRoomA0, lapsed));
  EXPECT_EQ(matchmaker.report_refusals()[SeatReportRefusal::no_seat], 1u);
  EXPECT_EQ(matchmaker.queue().places_lost()[PlaceLost::offer_unclaimed], 1u);
  EXPECT_EQ(matchmaker.offered_in(kRoomA0), 1u);
  EXPECT_EQ(matchmaker.seated_in(kRoomA1), 1u);
  // Asking again, player 1 goes to the back of the line.
  EXPECT_EQ(matchmaker.match(1, lapsed).place.standing, AdmissionStanding::waiting);
  EXPECT_FALSE(matchmaker.left(99, lapsed));
  EXPECT_TRUE(matchmaker.left(1, lapsed));  // it leaves the line
  EXPECT_EQ(matchmaker.queue().line_length(), 0u);
}

TEST(Matchmaker, AProcessGoneOrDrainingDisplacesItsPlayers) {
  Matchmaker matchmaker(test::matchmaker_config());
  auto listing = std::vector<durable::DirectoryProcess>{fleet_process("a", ProcessState::ready, 1, 2, 40000),
                                                        fleet_process("b", ProcessState::ready, 1, 2, 41000)};
  matchmaker.observe(listing, kT0);
  for (ActorId actor = 1; actor <= 4; ++actor) matchmaker.match(actor, kT0);
  ASSERT_EQ(matchmaker.room_of(1), (RoomKey{"a", "room.0"}));
  ASSERT_EQ(matchmaker.room_of(3), (RoomKey{"b", "room.0"}));
  ASSERT_TRUE(matchmaker.seated(1, {"a", "room.0"}, kT0));
  ASSERT_TRUE(matchmaker.seated(3, {"b", "room.0"}, kT0));
  // Process b starts draining with player 3 seated and player 4 offered; a third process joins.
  listing[1].state = ProcessState::draining;
  listing.push_back(fleet_process("c", ProcessState::ready, 1, 1, 42000));
  const ListingView view = matchmaker.observe(listing, kT0 + Duration::seconds(1));
  EXPECT_EQ(view.capacity, 3u);
  EXPECT_EQ(view.offers_moved, 1u);
  EXPECT_EQ(matchmaker.room_of(4), (RoomKey{"c", "room.0"}));  // its seat kept, in another room
  EXPECT_FALSE(matchmaker.room_of(3).has_value());               // released: it resumes or asks again
  EXPECT_EQ(matchmaker.seats_lost()[SeatLost::seated_room_gone], 1u);
  const MatchAnswer moved = matchmaker.match(4, kT0 + Duration::seconds(1));
  ASSERT_TRUE(moved.token.has_value());
  EXPECT_EQ(test::open_token(*moved.token, test::kFleetKey)->addresses.at(0), *Address::parse("127.0.0.1:42000"));
  // Process a dies with player 2 offered and nowhere free: its offer goes.
  listing.erase(listing.begin());
  matchmaker.observe(listing, kT0 + Duration::seconds(2));
  EXPECT_EQ(matchmaker.seats_lost()[SeatLost::offer_room_gone], 1u);
  EXPECT_EQ(matchmaker.seats_lost()[SeatLost::seated_room_gone], 2u);
  EXPECT_EQ(matchmaker.queue().seats_taken(), 1u);
  EXPECT_EQ(matchmaker.queue().capacity(), 1u);
}

TEST(Matchmaker, TheGrantsRideTheTokenAndASeatedPlayerIsToldItsRoom) {
  Matchmaker matchmaker(test::matchmaker_config());
  matchmaker.observe(two_rooms(4), kT0);
  AdmissionGrants grants;
  grants.resume_token = std::vector<uint8_t>(40, 0xab);
  const MatchAnswer offered = matchmaker.match(7, kT0, grants);
  ASSERT_TRUE(offered.token.has_value());
  const auto opened = test::open_token(*offered.token, test::kFleetKey);
  ASSERT_TRUE(opened.has_value());
  EXPECT_EQ(opened->grants, grants);
  EXPECT_EQ(opened->client_id, 7u);
  EXPECT_EQ(opened->expire_timestamp, netcode::unix_seconds(test::kAnchor.to_wall(kT0)) + 30);
  ASSERT_TRUE(matchmaker.seated(7, offered.room->key, kT0));
  const MatchAnswer seated = matchmaker.match(7, kT0 + Duration::seconds(1));
  EXPECT_EQ(seated.place.standing, AdmissionStanding::seated);
  EXPECT_EQ(seated.room->key, offered.room->key);
  EXPECT_FALSE(seated.token.has_value());
}

AdmissionGrants resume_grant(uint8_t fill) {
  AdmissionGrants grants;
  grants.resume_token = std::vector<uint8_t>(kMaxGrantedResumeTokenBytes, fill);
  return grants;
}

// Process `id` serving one room `room` of `seats` at 127.0.0.1:`port`.
durable::DirectoryProcess one_room(const std::string& id, const std::string& room, uint32_t seats, uint16_t port,
                                   ProcessState state = ProcessState::ready) {
  auto p = fleet_process(id, state, 1, seats, port);
  p.rooms[0].room = room;
  return p;
}

TEST(Matchmaker, AResumingPlayerIsSeatedInItsRoomOutsideTheLine) {
  Matchmaker matchmaker(test::matchmaker_config());
  matchmaker.observe(two_rooms(3), kT0);
  for (ActorId actor = 1; actor <= 5; ++actor) ASSERT_TRUE(matchmaker.match(actor, kT0).token.has_value());
  ASSERT_EQ(matchmaker.offered_in(kRoomA1), 2u);  // room.1 has one seat free

  const AdmissionGrants grants = resume_grant(0xcd);
  const ResumeAnswer resumed = matchmaker.resume(9, "room.1", kT0, grants);
  ASSERT_FALSE(resumed.refusal.has_value());
  EXPECT_EQ(resumed.room->key, kRoomA1);
  EXPECT_EQ(resumed.claim_by, kT0 + Duration::seconds(20));
  const auto opened = test::open_token(*resumed.token, test::kFleetKey);
  ASSERT_TRUE(opened.has_value());
  EXPECT_EQ(opened->client_id, 9u);
  EXPECT_EQ(opened->addresses, std::vector<Address>{*Address::parse("127.0.0.1:40001")});
  EXPECT_EQ(opened->grants, grants);
  // Outside the line: the queue never held that seat, and has none left to give.
  EXPECT_EQ(matchmaker.queue().capacity(), 5u);
  EXPECT_EQ(matchmaker.match(6, kT0).place.position, 1u);
  EXPECT_EQ(matchmaker.resume(10, "room.1", kT0, grants).refusal, ResumeSeatRefusal::room_full);
  EXPECT_EQ(matchmaker.resume(11, "room.9", kT0, grants).refusal, ResumeSeatRefusal::room_not_listed);
  EXPECT_EQ(matchmaker.resume_refusals()[ResumeSeatRefusal::room_full], 1u);
  EXPECT_EQ(matchmaker.resume_refusals()[ResumeSeatRefusal::room_not_listed], 1u);
  EXPECT_FALSE(matchmaker.seat_of(10).has_value());

  // Asking the queue meanwhile tells it the resumed seat, with its grants.
  const MatchAnswer asked = matchmaker.match(9, kT0 + Duration::seconds(1));
  EXPECT_EQ(asked.place.standing, AdmissionStanding::seat_offered);
  EXPECT_EQ(asked.place.claim_by, kT0 + Duration::seconds(20));
  EXPECT_EQ(test::open_token(*asked.token, test::kFleetKey)->grants, grants);

  ASSERT_TRUE(matchmaker.seated(9, kRoomA1, kT0 + Duration::seconds(2)));
  EXPECT_EQ(matchmaker.seat_of(9), (HeldSeat{kRoomA1, true, true}));
  EXPECT_EQ(matchmaker.resumes().claimed, 1u);
  EXPECT_EQ(matchmaker.match(9, kT0 + Duration::seconds(2)).place.standing, AdmissionStanding::seated);
  EXPECT_EQ(matchmaker.seat_totals().resume_seated, 1u);
  // It leaves: its seat goes to the front of the line, in its room.
  ASSERT_TRUE(matchmaker.left(9, kT0 + Duration::seconds(3)));
  EXPECT_EQ(matchmaker.take_promoted(), std::vector<ActorId>{6});
  EXPECT_EQ(matchmaker.room_of(6), kRoomA1);
}

TEST(Matchmaker, AResumeReleasesTheSeatHeldElsewhereAndAnUnclaimedOneLapses) {
  Matchmaker matchmaker(test::matchmaker_config());
  const RoomKey a{"a", "room.0"}, b{"b", "arena"};
  matchmaker.observe({fleet_process("a", ProcessState::ready, 1, 2, 40000), one_room("b", "arena", 2, 41000)}, kT0);
  for (ActorId actor = 1; actor <= 3; ++actor) matchmaker.match(actor, kT0);
  ASSERT_EQ(matchmaker.room_of(1), a);
  ASSERT_EQ(matchmaker.room_of(3), b);

  // Player 1 goes back to its pawn in the arena: its offer in room.0 passes to the next player.
  const ResumeAnswer resumed = matchmaker.resume(1, "arena", kT0, resume_grant(1));
  ASSERT_EQ(resumed.room->key, b);
  EXPECT_EQ(matchmaker.queue().places_lost()[PlaceLost::offer_declined], 1u);
  EXPECT_EQ(matchmaker.match(4, kT0).room->key, a);
  for (ActorId actor : {2, 3, 4}) ASSERT_TRUE(matchmaker.seated(actor, *matchmaker.room_of(actor), kT0));
  // Asking again: a fresh token, the same deadline, not counted twice.
  const ResumeAnswer again = matchmaker.resume(1, "arena", kT0 + Duration::seconds(5), resume_grant(2));
  EXPECT_EQ(again.claim_by, resumed.claim_by);
  EXPECT_NE(again.token, resumed.token);
  EXPECT_EQ(test::open_token(*again.token, test::kFleetKey)->grants, resume_grant(2));
  EXPECT_EQ(matchmaker.resumes().offered, 1u);
  // A waiter whose room is full keeps its place.
  EXPECT_EQ(matchmaker.match(5, kT0 + Duration::seconds(5)).place.position, 1u);
  EXPECT_EQ(matchmaker.resume(5, "arena", kT0 + Duration::seconds(5), resume_grant(5)).refusal, ResumeSeatRefusal::room_full);
  EXPECT_EQ(matchmaker.match(5, kT0 + Duration::seconds(6)).place.position, 1u);

  // Player 1 never connects: the seat comes back to the queue and the line moves.
  const MonoTime lapsed = kT0 + Duration::seconds(20);
  matchmaker.update(lapsed);
  EXPECT_EQ(matchmaker.resumes().unclaimed, 1u);
  EXPECT_EQ(matchmaker.take_promoted(), std::vector<ActorId>{5});
  EXPECT_EQ(matchmaker.room_of(5), b);
  EXPECT_FALSE(matchmaker.seated(1, b, lapsed));
  EXPECT_EQ(matchmaker.report_refusals()[SeatReportRefusal::no_seat], 1u);
}

TEST(Matchmaker, AResumeIntoTheRoomItsSeatIsInTakesThatSeat) {
  Matchmaker matchmaker(test::matchmaker_config());
  const RoomKey arena{"a", "arena"};
  matchmaker.observe({one_room("a", "arena", 1, 40000), one_room("b", "lobby", 1, 41000)}, kT0);
  ASSERT_EQ(matchmaker.match(1, kT0).room->key, arena);
  ASSERT_EQ(matchmaker.match(2, kT0).room->key, (RoomKey{"b", "lobby"}));
  ASSERT_EQ(matchmaker.match(3, kT0).place.position, 1u);
  // The arena is full with player 1's own seat: it is its to resume in, and the line does not move.
  const ResumeAnswer resumed = matchmaker.resume(1, "arena", kT0, resume_grant(1));
  ASSERT_FALSE(resumed.refusal.has_value());
  EXPECT_EQ(matchmaker.seat_of(1), (HeldSeat{arena, false, true}));
  EXPECT_EQ(matchmaker.queue().capacity(), 1u);
  EXPECT_EQ(matchmaker.queue().seats_taken(), 1u);
  EXPECT_TRUE(matchmaker.take_promoted().empty());
  EXPECT_EQ(matchmaker.match(3, kT0).place.position, 1u);
  // A waiter's room full: refused, and its place kept.
  EXPECT_EQ(matchmaker.resume(3, "lobby", kT0, resume_grant(3)).refusal, ResumeSeatRefusal::room_full);
  EXPECT_EQ(matchmaker.match(3, kT0).place.position, 1u);
  ASSERT_TRUE(matchmaker.seated(1, arena, kT0));
  ASSERT_TRUE(matchmaker.left(1, kT0));
  EXPECT_EQ(matchmaker.take_promoted(), std::vector<ActorId>{3});
  EXPECT_EQ(matchmaker.room_of(3), arena);
}

TEST(Matchmaker, AResumptionsSeatGoesWithItsRoomAndATakenOverRoomIsFoundUnderItsNewProcess) {
  Matchmaker matchmaker(test::matchmaker_config());
  // The arena is being taken over: its old process drains (not listed to players), the new one is up.
  auto listing = std::vector<durable::DirectoryProcess>{one_room("new", "arena", 1, 41000),
                                                        one_room("old", "arena", 1, 40000, ProcessState::draining)};
  matchmaker.observe(listing, kT0);
  EXPECT_EQ(matchmaker.resume(1, "arena", kT0, resume_grant(1)).room->key, (RoomKey{"new", "arena"}));
  EXPECT_EQ(matchmaker.resume(2, "arena", kT0, resume_grant(2)).refusal, ResumeSeatRefusal::room_full);
  listing[1].state = ProcessState::ready;  // two processes list the arena: the first with a seat free takes it
  matchmaker.observe(listing, kT0);
  EXPECT_EQ(matchmaker.resume(2, "arena", kT0, resume_grant(2)).room->key, (RoomKey{"old", "arena"}));
  ASSERT_TRUE(matchmaker.seated(2, {"old", "arena"}, kT0));
  EXPECT_EQ(matchmaker.seat_totals().resume_offered, 1u);
  // Both go: the offer and the seat with them, each counted.
  matchmaker.observe({}, kT0 + Duration::seconds(1));
  EXPECT_EQ(matchmaker.seats_lost()[SeatLost::resume_room_gone], 1u);
  EXPECT_EQ(matchmaker.seats_lost()[SeatLost::seated_room_gone], 1u);
  EXPECT_FALSE(matchmaker.seat_of(1).has_value());
  EXPECT_FALSE(matchmaker.seat_of(2).has_value());
  EXPECT_EQ(matchmaker.resume(1, "arena", kT0 + Duration::seconds(1), resume_grant(1)).refusal,
            ResumeSeatRefusal::room_not_listed);
  EXPECT_EQ(matchmaker.match(1, kT0 + Duration::seconds(1)).place.standing, AdmissionStanding::waiting);
}

}  // namespace
}  // namespace tickwire::fleet

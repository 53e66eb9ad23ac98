// The roll call between the directory's seated lists and the matchmaker: an actor newly named in a
// room claims the seat offered to it there, once; one no longer named anywhere leaves, freeing its
// seat for the line; a session the matchmaker did not seat is refused by name once and its leaving
// touches nobody's place; a resumption named before and after its reconnect is claimed; a player who
// resumed into another room is claimed there without leaving; a room gone from the listing reports
// nobody gone (observe released its players).
#include <gtest/gtest.h>

#include <vector>

#include "matchmaker_fixture.h"
#include "tickwire/fleet/seat_roll_call.h"

namespace tickwire::fleet {
namespace {

using test::fleet_process;
using test::kRoomA0;
using test::kRoomA1;

// Process "a"'s rooms of 2 seats, each naming `seated` (its seats taken: as many).
std::vector<durable::DirectoryProcess> named(std::vector<uint64_t> room0, std::vector<uint64_t> room1 = {}) {
  auto a = fleet_process("a", durable::ProcessState::ready, 2, 2, 40000);
  a.rooms[0].seats_taken = static_cast<uint32_t>(room0.size());
  a.rooms[0].seated = std::move(room0);
  a.rooms[1].seats_taken = static_cast<uint32_t>(room1.size());
  a.rooms[1].seated = std::move(room1);
  return {a};
}

class SeatRollCallTest : public ::testing::Test {
 protected:
  RollCall listed(const std::vector<durable::DirectoryProcess>& listing) {
    now_ = now_ + Duration::milliseconds(250);
    matchmaker_.observe(listing, now_);
    return roll_.call(listing, matchmaker_, now_);
  }
  MonoTime now_ = test::kT0;
  Matchmaker matchmaker_{test::matchmaker_config()};
  SeatRollCall roll_;
};

TEST_F(SeatRollCallTest, ANewlyNamedActorClaimsItsOfferOnceAndOneNamedNowhereLeaves) {
  listed(named({}));
  for (ActorId actor = 1; actor <= 4; ++actor)
    ASSERT_EQ(matchmaker_.match(actor, now_).place.standing, protocol::AdmissionStanding::seat_offered);
  ASSERT_EQ(matchmaker_.match(5, now_).place.position, 1u);
  ASSERT_EQ(matchmaker_.room_of(1), kRoomA0);

  RollCall call = listed(named({1}));
  EXPECT_EQ(call.seated_reports, 1u);
  EXPECT_EQ(call.seated_taken, 1u);
  EXPECT_EQ(matchmaker_.seat_of(1), (HeldSeat{kRoomA0, true, false}));
  call = listed(named({1}));  // named again: nothing new to report
  EXPECT_EQ(call.seated_reports, 0u);
  call = listed(named({1, 2}, {3, 4}));
  EXPECT_EQ(call.seated_reports, 3u);
  EXPECT_EQ(call.seated_taken, 3u);
  EXPECT_EQ(matchmaker_.seat_totals().seated, 4u);

  // Player 1's session ended: named nowhere, and the room counts one seat fewer.
  call = listed(named({2}, {3, 4}));
  EXPECT_EQ(call.left_reports, 1u);
  EXPECT_FALSE(matchmaker_.seat_of(1).has_value());
  EXPECT_EQ(matchmaker_.take_promoted(), std::vector<ActorId>{5});
  EXPECT_EQ(matchmaker_.room_of(5), kRoomA0);
  EXPECT_EQ(matchmaker_.report_refusals().total(), 0u);
}

TEST_F(SeatRollCallTest, ASessionTheMatchmakerDidNotSeatIsRefusedOnceAndItsLeavingTouchesNoPlace) {
  listed(named({}));
  ASSERT_EQ(matchmaker_.match(1, now_).room->key, kRoomA0);
  // Player 99 came in with a development token: reported, refused by name, once.
  RollCall call = listed(named({1, 99}));
  EXPECT_EQ(call.seated_reports, 2u);
  EXPECT_EQ(call.seated_taken, 1u);
  EXPECT_EQ(matchmaker_.report_refusals()[SeatReportRefusal::no_seat], 1u);
  EXPECT_EQ(listed(named({1, 99})).seated_reports, 0u);
  EXPECT_EQ(matchmaker_.report_refusals()[SeatReportRefusal::no_seat], 1u);
  // It asks for a seat now: room.0 is full, room.1 empty.
  ASSERT_EQ(matchmaker_.match(99, now_).room->key, kRoomA1);
  ASSERT_EQ(matchmaker_.match(7, now_).room->key, kRoomA1);
  ASSERT_EQ(matchmaker_.match(8, now_).place.position, 1u);
  // Its development session ends: nobody is reported gone (the matchmaker never seated it there), and
  // its offer in room.1 stands; the seat it freed in room.0 goes to the line.
  call = listed(named({1}));
  EXPECT_EQ(call.left_reports, 0u);
  EXPECT_EQ(matchmaker_.room_of(99), kRoomA1);
  EXPECT_EQ(matchmaker_.take_promoted(), std::vector<ActorId>{8});
}

TEST_F(SeatRollCallTest, AResumptionIsClaimedWhereItIsNamedWithoutLeavingItsOldRoom) {
  listed(named({}));
  ASSERT_EQ(matchmaker_.match(1, now_).room->key, kRoomA0);
  ASSERT_EQ(listed(named({1})).seated_taken, 1u);
  AdmissionGrants grants;
  grants.resume_token = {1, 2, 3};
  // It reconnects into its own room between two listings: still named there, and claimed again.
  ASSERT_EQ(matchmaker_.resume(1, "room.0", now_, grants).room->key, kRoomA0);
  RollCall call = listed(named({1}));
  EXPECT_EQ(call.seated_taken, 1u);
  EXPECT_EQ(matchmaker_.seat_of(1), (HeldSeat{kRoomA0, true, true}));
  // It resumes into room.1 (its pawn moved there): named there now, claimed, not reported gone.
  ASSERT_EQ(matchmaker_.resume(1, "room.1", now_, grants).room->key, kRoomA1);
  call = listed(named({}, {1}));
  EXPECT_EQ(call.seated_taken, 1u);
  EXPECT_EQ(call.left_reports, 0u);
  EXPECT_EQ(matchmaker_.seat_of(1), (HeldSeat{kRoomA1, true, true}));
  EXPECT_EQ(matchmaker_.resumes().claimed, 2u);
}

TEST_F(SeatRollCallTest, ARoomGoneFromTheListingReportsNobodyGone) {
  auto listing = named({});
  listing.push_back(fleet_process("b", durable::ProcessState::ready, 1, 1, 41000));
  listed(listing);
  for (ActorId actor = 1; actor <= 5; ++actor) matchmaker_.match(actor, now_);
  const auto in_b = [&] {
    for (ActorId actor = 1; actor <= 5; ++actor)
      if (matchmaker_.room_of(actor) == RoomKey{"b", "room.0"}) return actor;
    return ActorId{0};
  }();
  ASSERT_NE(in_b, 0u);
  listing[1].rooms[0].seats_taken = 1;
  listing[1].rooms[0].seated = {in_b};
  ASSERT_EQ(listed(listing).seated_taken, 1u);
  listing.pop_back();  // process b dies
  const RollCall call = listed(listing);
  EXPECT_EQ(call.left_reports, 0u);
  EXPECT_EQ(matchmaker_.seats_lost()[SeatLost::seated_room_gone], 1u);
  EXPECT_FALSE(matchmaker_.seat_of(in_b).has_value());
}

}  // namespace
}  // namespace tickwire::fleet

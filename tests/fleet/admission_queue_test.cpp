// The admission queue's rules one at a time: first come first seated, the rest in line in order; a
// refresh keeps its place; silent waiters and unclaimed seats lapse by name and the seat passes on;
// the line's cap refuses by name; capacity shrinks and grows at run time; a seat holder's requests
// change nothing; the wait estimate comes from measured frees; what the client is sent.
#include "tickwire/fleet/admission_queue.h"

#include <gtest/gtest.h>

#include <vector>

namespace tickwire::fleet {
namespace {

using protocol::AdmissionRefusal;
using protocol::AdmissionStanding;

MonoTime at_s(int64_t seconds) { return MonoTime::from_ns(0) + Duration::seconds(seconds); }

AdmissionQueueConfig config_of(uint32_t seats, uint32_t max_line = 16) {
  AdmissionQueueConfig config;
  config.capacity = seats;
  config.max_line = max_line;
  config.waiter_timeout = Duration::seconds(30);
  config.claim_window = Duration::seconds(20);
  return config;
}

// Requests a seat for each of `actors` at `now` and claims the seats given at once.
void seat(AdmissionQueue& queue, const std::vector<ActorId>& actors, MonoTime now) {
  for (ActorId actor : actors) {
    ASSERT_EQ(queue.request(actor, now).standing, AdmissionStanding::seat_offered) << actor;
    ASSERT_TRUE(queue.claim(actor, now)) << actor;
  }
}

uint32_t position_of(const AdmissionQueue& queue, ActorId actor, MonoTime now) {
  const auto place = queue.place_of(actor, now);
  return place && place->standing == AdmissionStanding::waiting ? place->position : 0;
}

std::vector<ActorId> promoted_actors(AdmissionQueue& queue) {
  std::vector<ActorId> actors;
  for (const Promotion& p : queue.take_promotions()) actors.push_back(p.actor);
  return actors;
}

TEST(AdmissionQueue, TheFirstComersAreSeatedAndTheRestArePromotedInTheOrderTheyCame) {
  AdmissionQueue queue(config_of(2));
  seat(queue, {1, 2}, at_s(0));
  for (ActorId actor = 3; actor <= 5; ++actor) {
    const AdmissionAnswer answer = queue.request(actor, at_s(1));
    EXPECT_EQ(answer.standing, AdmissionStanding::waiting);
    EXPECT_EQ(answer.position, actor - 2);
    EXPECT_EQ(answer.line_length, actor - 2);
  }
  EXPECT_TRUE(queue.take_promotions().empty());

  ASSERT_TRUE(queue.release(2, at_s(5)));
  const std::vector<Promotion> first = queue.take_promotions();
  ASSERT_EQ(first.size(), 1u);
  EXPECT_EQ(first[0], (Promotion{3, at_s(25)}));  // the claim window from the instant the seat freed
  EXPECT_EQ(queue.place_of(3, at_s(5))->standing, AdmissionStanding::seat_offered);
  EXPECT_EQ(position_of(queue, 4, at_s(5)), 1u);
  EXPECT_EQ(position_of(queue, 5, at_s(5)), 2u);

  ASSERT_TRUE(queue.release(1, at_s(6)));
  EXPECT_EQ(promoted_actors(queue), std::vector<ActorId>{4});
  EXPECT_EQ(position_of(queue, 5, at_s(6)), 1u);
  EXPECT_EQ(queue.promoted(), 2u);
  EXPECT_EQ(queue.seated_at_once(), 2u);
}

TEST(AdmissionQueue, ARefreshKeepsItsPlaceAndCountsOnlyThoseStillAhead) {
  AdmissionQueue queue(config_of(1));
  seat(queue, {1}, at_s(0));
  for (ActorId actor : {10, 11, 12}) queue.request(actor, at_s(1));
  // Refreshing again and again neither cuts to the front nor goes to the back.
  for (int i = 0; i < 3; ++i) EXPECT_EQ(queue.request(11, at_s(2 + i)).position, 2u);
  // A newcomer goes behind it, and one ahead leaving moves it up by one.
  EXPECT_EQ(queue.request(13, at_s(5)).position, 4u);
  ASSERT_TRUE(queue.leave(10, at_s(6)));
  const AdmissionAnswer refreshed = queue.request(11, at_s(7));
  EXPECT_EQ(refreshed.position, 1u);
  EXPECT_EQ(refreshed.line_length, 3u);
  EXPECT_EQ(position_of(queue, 13, at_s(7)), 3u);
  EXPECT_EQ(queue.places_lost()[PlaceLost::waiter_left], 1u);
  EXPECT_FALSE(queue.leave(10, at_s(8))) << "it is not in line any more";
  // The seat that frees goes to the refreshed one, now at the front.
  ASSERT_TRUE(queue.release(1, at_s(9)));
  EXPECT_EQ(promoted_actors(queue), std::vector<ActorId>{11});
}

TEST(AdmissionQueue, ASeatHoldersRequestsChangeNothing) {
  AdmissionQueue queue(config_of(2));
  seat(queue, {1}, at_s(0));
  EXPECT_EQ(queue.request(2, at_s(1)).standing, AdmissionStanding::seat_offered);
  queue.request(3, at_s(1));
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(queue.request(1, at_s(2 + i)).standing, AdmissionStanding::seated);
    const AdmissionAnswer offered = queue.request(2, at_s(2 + i));
    EXPECT_EQ(offered.standing, AdmissionStanding::seat_offered);
    EXPECT_EQ(offered.claim_by, at_s(21)) << "asking again does not stretch the claim window";
  }
  EXPECT_EQ(queue.seats_taken(), 2u);
  EXPECT_EQ(queue.line_length(), 1u);
  EXPECT_EQ(position_of(queue, 3, at_s(5)), 1u);
  EXPECT_TRUE(queue.claim(1, at_s(5))) << "a claim by a seated actor holds";
  EXPECT_EQ(queue.claimed(), 1u);
}

TEST(AdmissionQueue, ASilentWaiterLosesItsPlaceAndIsCounted) {
  AdmissionQueue queue(config_of(1));
  seat(queue, {1}, at_s(0));
  for (ActorId actor : {10, 11, 12}) queue.request(actor, at_s(0));
  queue.request(11, at_s(20));  // 11 and 12 refresh, 10 goes quiet
  queue.request(12, at_s(20));
  queue.update(at_s(29));
  EXPECT_EQ(position_of(queue, 10, at_s(29)), 1u) << "not silent for the whole timeout yet";
  queue.update(at_s(30));
  EXPECT_FALSE(queue.place_of(10, at_s(30)));
  EXPECT_EQ(queue.places_lost()[PlaceLost::waiter_silent], 1u);
  EXPECT_EQ(position_of(queue, 11, at_s(30)), 1u);
  EXPECT_EQ(position_of(queue, 12, at_s(30)), 2u);
  // The seat that frees skips the silent one; when it comes back it joins at the back.
  ASSERT_TRUE(queue.release(1, at_s(31)));
  EXPECT_EQ(promoted_actors(queue), std::vector<ActorId>{11});
  const AdmissionAnswer back = queue.request(10, at_s(32));
  EXPECT_EQ(back.position, 2u);
  EXPECT_EQ(back.line_length, 2u);
  // The refreshed ones lapse too once they stop.
  queue.update(at_s(50));
  EXPECT_FALSE(queue.place_of(12, at_s(50)));
  EXPECT_EQ(queue.places_lost()[PlaceLost::waiter_silent], 2u);
  EXPECT_EQ(position_of(queue, 10, at_s(50)), 1u);
}

TEST(AdmissionQueue, AnUnclaimedSeatPassesToTheNextInLine) {
  AdmissionQueue queue(config_of(1));
  EXPECT_EQ(queue.request(1, at_s(0)).claim_by, at_s(20));
  queue.request(2, at_s(1));
  queue.request(2, at_s(15));  // 2 keeps refreshing; 1 never connects
  queue.update(at_s(19));
  EXPECT_TRUE(queue.take_promotions().empty());
  queue.update(at_s(20));
  EXPECT_EQ(queue.places_lost()[PlaceLost::offer_unclaimed], 1u);
  const std::vector<Promotion> next = queue.take_promotions();
  ASSERT_EQ(next.size(), 1u);
  EXPECT_EQ(next[0], (Promotion{2, at_s(40)}));
  // The late claim is refused by name; the promoted one claims in time.
  EXPECT_FALSE(queue.claim(1, at_s(21)));
  EXPECT_EQ(queue.refusals()[AdmissionRefusal::no_seat], 1u);
  EXPECT_TRUE(queue.claim(2, at_s(39)));
  queue.update(at_s(60));
  EXPECT_EQ(queue.place_of(2, at_s(60))->standing, AdmissionStanding::seated) << "a claimed seat never lapses";
}

TEST(AdmissionQueue, ADeclinedOfferPassesOnAndItsPromotionIsWithdrawn) {
  AdmissionQueue queue(config_of(1));
  seat(queue, {1}, at_s(0));
  queue.request(2, at_s(0));
  queue.request(3, at_s(0));
  ASSERT_TRUE(queue.release(1, at_s(1)));  // 2 is promoted...
  ASSERT_TRUE(queue.release(2, at_s(2)));  // ...and declines before its promotion was taken
  EXPECT_EQ(promoted_actors(queue), std::vector<ActorId>{3});
  EXPECT_EQ(queue.places_lost()[PlaceLost::offer_declined], 1u);
  EXPECT_FALSE(queue.release(2, at_s(3)));
}

TEST(AdmissionQueue, AFullLineRefusesNewcomersByNameButNotItsWaiters) {
  AdmissionQueue queue(config_of(1, 2));
  seat(queue, {1}, at_s(0));
  queue.request(2, at_s(0));
  queue.request(3, at_s(0));
  const AdmissionAnswer refused = queue.request(4, at_s(1));
  EXPECT_EQ(refused.standing, AdmissionStanding::refused);
  EXPECT_EQ(refused.refusal, AdmissionRefusal::line_full);
  EXPECT_EQ(refused.line_length, 2u);
  EXPECT_EQ(queue.request(4, at_s(2)).standing, AdmissionStanding::refused);
  EXPECT_EQ(queue.refusals()[AdmissionRefusal::line_full], 2u);
  EXPECT_EQ(queue.request(3, at_s(3)).position, 2u) << "a waiter's refresh in a full line holds";
  ASSERT_TRUE(queue.leave(2, at_s(4)));
  EXPECT_EQ(queue.request(4, at_s(5)).position, 2u);
  EXPECT_EQ(queue.line_length(), 2u);
}

TEST(AdmissionQueue, ShrinkingCapacityClosesAdmissionsAndGrowingItPromotesInOrder) {
  AdmissionQueue queue(config_of(4));
  seat(queue, {1, 2, 3, 4}, at_s(0));
  for (ActorId actor : {10, 11, 12}) queue.request(actor, at_s(1));
  queue.set_capacity(2, at_s(2));  // a load ladder closes admissions: nobody is evicted
  EXPECT_EQ(queue.seats_taken(), 4u);
  ASSERT_TRUE(queue.release(1, at_s(3)));
  ASSERT_TRUE(queue.release(2, at_s(3)));
  EXPECT_TRUE(queue.take_promotions().empty()) << "two seats taken of two";
  ASSERT_TRUE(queue.release(3, at_s(4)));
  EXPECT_EQ(promoted_actors(queue), std::vector<ActorId>{10});
  queue.set_capacity(5, at_s(5));  // reopened: the rest of the line at once, in order
  EXPECT_EQ(promoted_actors(queue), (std::vector<ActorId>{11, 12}));
  EXPECT_EQ(queue.free_seats(), 1u);
  EXPECT_EQ(queue.request(20, at_s(6)).standing, AdmissionStanding::seat_offered);
  queue.set_capacity(0, at_s(7));
  EXPECT_EQ(queue.request(21, at_s(8)).position, 1u) << "a closed deployment still queues";
}

TEST(AdmissionQueue, TheWaitEstimateComesFromTheMeasuredRateSeatsFreeAt) {
  AdmissionQueue queue(config_of(1));
  seat(queue, {1}, at_s(0));
  for (ActorId actor = 10; actor < 20; ++actor) queue.request(actor, at_s(0));
  EXPECT_FALSE(queue.request(15, at_s(1)).estimated_wait) << "nothing measured yet: no guess";
  // One seat frees every 10 s; each promoted waiter claims at once.
  ActorId holder = 1;
  for (int64_t i = 0; i < 4; ++i) {
    ASSERT_TRUE(queue.release(holder, at_s(10 + 10 * i)));
    holder = 10 + static_cast<ActorId>(i);
    ASSERT_TRUE(queue.claim(holder, at_s(10 + 10 * i)));
    for (ActorId actor = 10; actor < 20; ++actor) queue.request(actor, at_s(10 + 10 * i));  // refreshes
  }
  const AdmissionAnswer answer = queue.request(16, at_s(40));  // 14, 15 ahead
  EXPECT_EQ(answer.position, 3u);
  ASSERT_TRUE(answer.estimated_wait);
  EXPECT_EQ(*answer.estimated_wait, Duration::seconds(30));
  // When the line stops moving, the estimate grows with it.
  queue.request(16, at_s(55));
  EXPECT_EQ(*queue.place_of(16, at_s(55))->estimated_wait, Duration::seconds(45));
  EXPECT_EQ(fleet::admission_place(*queue.place_of(16, at_s(55)), at_s(55)).estimated_wait_ms, 45'000u);
}

TEST(AdmissionPlaceOf, TheClientIsToldItsStandingInWholeMilliseconds) {
  AdmissionAnswer waiting;
  waiting.standing = AdmissionStanding::waiting;
  waiting.position = 7;
  waiting.line_length = 9;
  waiting.estimated_wait = Duration::microseconds(1500);
  protocol::AdmissionPlace place = admission_place(waiting, at_s(0));
  EXPECT_EQ(place, (protocol::AdmissionPlace{AdmissionStanding::waiting, 7, 9, 2, 0, AdmissionRefusal::line_full}));
  waiting.estimated_wait = Duration::nanoseconds(1);
  EXPECT_EQ(admission_place(waiting, at_s(0)).estimated_wait_ms, 1u) << "an estimate is never shown as none";
  waiting.estimated_wait.reset();
  EXPECT_EQ(admission_place(waiting, at_s(0)).estimated_wait_ms, 0u);

  AdmissionAnswer offered;
  offered.standing = AdmissionStanding::seat_offered;
  offered.line_length = 3;
  offered.claim_by = at_s(20);
  place = admission_place(offered, at_s(5) + Duration::microseconds(1500));
  EXPECT_EQ(place.claim_within_ms, 14'998u) << "rounded down: never more time than the seat is held";
  EXPECT_EQ(place.position, 0u);
  EXPECT_EQ(admission_place(offered, at_s(21)).claim_within_ms, 0u);

  AdmissionAnswer refused;
  refused.line_length = 1024;
  place = admission_place(refused, at_s(0));
  EXPECT_EQ(place.standing, AdmissionStanding::refused);
  EXPECT_EQ(place.refusal, AdmissionRefusal::line_full);
  EXPECT_EQ(place.line_length, 1024u);
}

}  // namespace
}  // namespace tickwire::fleet

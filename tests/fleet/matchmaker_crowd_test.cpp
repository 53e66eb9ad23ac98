// 300 players against a fleet of 256 seats (4 rooms of 64 over two processes, beside a draining
// process with free seats nobody may be offered): 256 get tokens, each for a room with a seat (no
// room offered past its seats), 44 get places 1..44; refreshes keep places; seats freed in a random
// order promote strictly in join order, and each promoted player's next refresh gets a token for the
// room its seat freed in. Every token opens under the fleet's key to its room's address, the player
// and the grants. Seeded; a failure names its seed.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <vector>

#include "matchmaker_fixture.h"
#include "tickwire/core/rng.h"

namespace tickwire::fleet {
namespace {

using protocol::AdmissionStanding;
using test::fleet_process;

constexpr ActorId kFirstActor = 5000;
constexpr uint32_t kActors = 300;
constexpr uint32_t kSeatsPerRoom = 64;

std::vector<durable::DirectoryProcess> crowd_fleet() {
  return {fleet_process("proc-a", durable::ProcessState::ready, 2, kSeatsPerRoom, 41000),
          fleet_process("proc-b", durable::ProcessState::allocated, 2, kSeatsPerRoom, 42000),
          fleet_process("proc-c", durable::ProcessState::draining, 1, kSeatsPerRoom, 43000)};
}

// A token's checks: it opens under the fleet's key, for the player, to the room's address only.
void expect_token_for(const MatchAnswer& answer, ActorId actor, const std::string& context) {
  ASSERT_TRUE(answer.room.has_value()) << context;
  ASSERT_TRUE(answer.token.has_value()) << context;
  const auto opened = test::open_token(*answer.token, test::kFleetKey);
  ASSERT_TRUE(opened.has_value()) << context;
  EXPECT_EQ(opened->client_id, actor) << context;
  ASSERT_EQ(opened->addresses.size(), 1u) << context;
  EXPECT_EQ(opened->addresses[0], answer.room->address) << context;
  EXPECT_FALSE(opened->grants.world_authority) << context;
  netcode::Key other = test::kFleetKey;
  other[0] ^= 1;
  EXPECT_FALSE(test::open_token(*answer.token, other).has_value()) << context;
}

void run_crowd(uint64_t seed, RoomChoice choice) {
  SCOPED_TRACE(fmt::format("seed {} choice {}", seed, choice == RoomChoice::fill_first ? "fill_first" : "least_loaded"));
  Rng rng(seed);
  Matchmaker matchmaker(test::matchmaker_config(choice));
  MonoTime now = MonoTime::from_ns(1'000'000'000);
  const ListingView view = matchmaker.observe(crowd_fleet(), now);
  EXPECT_EQ(view.rooms, 4u);
  EXPECT_EQ(view.capacity, 256u);
  EXPECT_EQ(view.skipped[RoomSkip::not_taking_players], 1u);

  // Players arrive in a shuffled order of ids: join order is arrival order.
  std::vector<ActorId> arrivals(kActors);
  for (uint32_t i = 0; i < kActors; ++i) arrivals[i] = kFirstActor + i;
  for (uint32_t i = kActors - 1; i > 0; --i) std::swap(arrivals[i], arrivals[rng.below(i + 1)]);

  std::map<RoomKey, uint32_t> offered_per_room;
  std::vector<ActorId> seated_actors, waiting;
  for (ActorId actor : arrivals) {
    now = now + Duration::milliseconds(5);
    const MatchAnswer answer = matchmaker.match(actor, now);
    if (answer.place.standing == AdmissionStanding::seat_offered) {
      expect_token_for(answer, actor, fmt::format("arrival {}", actor));
      if (!answer.room) return;
      EXPECT_NE(answer.room->key.process, "proc-c");
      ++offered_per_room[answer.room->key];
      seated_actors.push_back(actor);
    } else {
      ASSERT_EQ(answer.place.standing, AdmissionStanding::waiting);
      EXPECT_FALSE(answer.token.has_value());
      waiting.push_back(actor);
      EXPECT_EQ(answer.place.position, waiting.size());
    }
  }
  ASSERT_EQ(seated_actors.size(), 256u);
  ASSERT_EQ(waiting.size(), 44u);
  ASSERT_EQ(offered_per_room.size(), 4u);
  for (const auto& [room, offered] : offered_per_room) EXPECT_EQ(offered, kSeatsPerRoom) << room.process << "/" << room.room;

  // The servers report each session seated; then everyone waiting refreshes and keeps its place.
  for (ActorId actor : seated_actors) {
    now = now + Duration::milliseconds(1);
    ASSERT_TRUE(matchmaker.seated(actor, *matchmaker.room_of(actor), now));
  }
  for (std::size_t i = 0; i < waiting.size(); ++i) {
    const MatchAnswer again = matchmaker.match(waiting[i], now);
    EXPECT_EQ(again.place.standing, AdmissionStanding::waiting);
    EXPECT_EQ(again.place.position, i + 1);
    EXPECT_EQ(again.place.line_length, waiting.size());
  }

  // Seats free in a random order; each frees exactly the next in line, whose refresh gets a token
  // for the room that seat freed in. Those promoted connect and are seated.
  std::vector<ActorId> leaving = seated_actors;
  for (std::size_t i = leaving.size() - 1; i > 0; --i) std::swap(leaving[i], leaving[rng.below(i + 1)]);
  for (std::size_t k = 0; k < waiting.size(); ++k) {
    now = now + Duration::milliseconds(200);
    const RoomKey freed = *matchmaker.room_of(leaving[k]);
    ASSERT_TRUE(matchmaker.left(leaving[k], now));
    EXPECT_EQ(matchmaker.take_promoted(), std::vector<ActorId>{waiting[k]});
    for (std::size_t later = k + 1; later < std::min(waiting.size(), k + 4); ++later) {
      const MatchAnswer still = matchmaker.match(waiting[later], now);  // the rest move up by one
      EXPECT_EQ(still.place.position, later - k);
    }
    const MatchAnswer promoted = matchmaker.match(waiting[k], now + Duration::milliseconds(50));
    ASSERT_EQ(promoted.place.standing, AdmissionStanding::seat_offered) << k;
    expect_token_for(promoted, waiting[k], fmt::format("promotion {}", k));
    ASSERT_TRUE(promoted.room.has_value());
    EXPECT_EQ(promoted.room->key, freed);
    ASSERT_TRUE(matchmaker.seated(waiting[k], freed, now + Duration::milliseconds(60)));
    EXPECT_EQ(matchmaker.seated_in(freed), kSeatsPerRoom);
  }
  EXPECT_EQ(matchmaker.queue().line_length(), 0u);
  EXPECT_EQ(matchmaker.queue().seats_taken(), 256u);
  EXPECT_EQ(matchmaker.queue().places_lost().total(), 0u);
  EXPECT_EQ(matchmaker.report_refusals().total(), 0u);
}

TEST(MatchmakerCrowd, ThreeHundredPlayersAgainstFourRoomsOfSixtyFourFillFirst) {
  for (uint64_t seed : {2101u, 2102u, 2103u}) run_crowd(seed, RoomChoice::fill_first);
}

TEST(MatchmakerCrowd, ThreeHundredPlayersAgainstFourRoomsOfSixtyFourLeastLoaded) {
  for (uint64_t seed : {2104u, 2105u}) run_crowd(seed, RoomChoice::least_loaded);
}

}  // namespace
}  // namespace tickwire::fleet

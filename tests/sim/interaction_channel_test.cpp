// The interaction channel through the whole system, on the transatlantic profile (seed 000,
// "Interaction channel"): a client names a map object with `Client::interact`; the server re-judges
// reach (2.5 m) and the look cone (0.9) from its own positions, holds each session to 10 a second
// and answers every request the game judged with a reliable entityEvent: taken (with the state the
// use left) or refused (with its reason). A flood of 100 requests a second reaches the game no
// faster than the bucket lets it.
#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "game_profiles.h"
#include "tickwire/world/use_reach.h"

namespace tickwire {
namespace {

using namespace tickwire::test;

struct Answers {
  std::vector<protocol::EntityEvent> events;
  void drain(Client& client) {
    while (auto event = client.receive_event()) events.push_back(*event);
  }
  std::size_t count(uint8_t kind, std::optional<world::UseRefusal> reason = std::nullopt) const {
    std::size_t n = 0;
    for (const auto& e : events)
      if (e.event_kind == kind && (!reason || e.payload.bits == static_cast<uint8_t>(*reason))) ++n;
    return n;
  }
};

// The interaction bucket alone: the contract's offence bucket so deep that no flood here is kicked
// (a flood's kick is tests/sim/flood_test.cpp's).
GameSimConfig interaction_config() {
  GameSimConfig config;
  config.adjust_policy = [](RoomPolicy& p) { p.limits.kick_after_offences = kContractMaxKickAfterOffences; };
  return config;
}

struct InteractionSim {
  InteractionSim() : sim(4242, interaction_config()) {
    const std::optional<LinkModel> link = link_profile("transatlantic");
    GameClientSetup setup;
    setup.up = setup.down = *link;
    setup.input = [yaw = yaw_deg](uint32_t) {  // standing still, looking where the test says
      protocol::InputCmd cmd;
      cmd.yaw_deg = *yaw;
      return cmd;
    };
    sim.add_client(setup);
    sim.after_frame = [this](SimGameClient& c) { answers.drain(*c.facade); };
    sim.run_for(Duration::seconds(2));
  }
  SimGameClient& client() { return *sim.clients[0]; }
  uint32_t index(std::string_view key) const {
    const std::optional<uint32_t> found = sim.map.object_index(key);
    EXPECT_TRUE(found.has_value()) << key;
    return found.value_or(0);
  }
  // Puts the pawn at `feet`, its client looking along `yaw`, and lets it settle.
  void stand(const world::Vec3& feet, float yaw) {
    *yaw_deg = yaw;
    sim.game.place_pawn(client().pawn(), world::Placement{feet, {}, yaw, 0, false});
    sim.run_for(Duration::milliseconds(500));
  }
  // A request naming the object, and time for it to arrive and be answered.
  void interact(uint32_t object_index, Duration wait = Duration::milliseconds(500)) {
    ASSERT_TRUE(client().facade->interact(world::map_object_ref(object_index).raw(), 0));
    sim.run_for(wait);
  }
  std::shared_ptr<float> yaw_deg = std::make_shared<float>(0.0f);
  GameSim sim;
  Answers answers;
};

TEST(InteractionChannel, AUseNamedByTheClientOpensTheDoorAndIsAnsweredWithAnEvent) {
  InteractionSim t;
  ASSERT_TRUE(t.sim.all_welcomed());
  const uint32_t button = t.index("button.n");
  const uint32_t door = t.index("door.n");
  t.stand({1.75f, 0, 30.25f}, 0);  // before the north button, facing it
  t.interact(button);
  t.sim.run_for(Duration::seconds(3));
  EXPECT_EQ(t.sim.game.uses(), 1u);
  EXPECT_EQ(t.sim.game.object_component(door, 0).channels[0], 1.0f) << "the door opened";
  ASSERT_EQ(t.answers.count(world::kEventUseTaken), 1u);
  EXPECT_EQ(t.answers.events.front().source_id, world::map_object_entity_id(button));
  EXPECT_EQ(t.answers.events.front().payload.bits & 1u, 1u) << "the button's pressed latch, as the use left it";
}

TEST(InteractionChannel, EachRefusalIsAnsweredAndCountedByItsReason) {
  InteractionSim t;
  ASSERT_TRUE(t.sim.all_welcomed());
  const uint32_t button = t.index("button.n");
  const uint32_t lamp = t.index("light.door.n");

  t.stand({1.75f, 0, 28.5f}, 0);  // 3.3 m from the eye: out of reach
  t.interact(button);
  t.stand({1.75f, 0, 30.25f}, 180);  // in reach, looking away: outside the cone
  t.interact(button);
  t.stand({1.75f, 0, 30.25f}, 0);
  t.interact(lamp);  // a Use does nothing to a lamp
  // A stale target: a despawned object, then a name that was never an object.
  ASSERT_TRUE(t.sim.game.despawn_object(lamp));
  t.interact(lamp);
  t.interact(60000);

  using world::UseRefusal;
  EXPECT_EQ(t.answers.count(world::kEventUseRefused, UseRefusal::out_of_reach), 1u);
  EXPECT_EQ(t.answers.count(world::kEventUseRefused, UseRefusal::outside_cone), 1u);
  EXPECT_EQ(t.answers.count(world::kEventUseRefused, UseRefusal::not_interactive), 1u);
  EXPECT_EQ(t.sim.game.use_refusals()[UseRefusal::out_of_reach], 1u);
  EXPECT_EQ(t.sim.game.use_refusals()[UseRefusal::outside_cone], 1u);
  EXPECT_EQ(t.sim.game.use_refusals()[UseRefusal::not_interactive], 1u);
  // The room refuses what no longer resolves before the game sees it (stale_or_foreign).
  EXPECT_EQ(t.sim.room.interact_refusals()[InteractRefusal::stale_or_foreign], 2u);
  EXPECT_EQ(t.sim.game.uses(), 0u);
}

TEST(InteractionChannel, AFloodOfAHundredASecondReachesTheGameNoFasterThanTheBucket) {
  InteractionSim t;
  ASSERT_TRUE(t.sim.all_welcomed());
  const uint32_t lamp = t.index("light.door.n");  // every request the game sees: not_interactive
  t.stand({1.75f, 0, 30.25f}, 0);
  const uint64_t judged_before = t.sim.game.use_refusals().total() + t.sim.game.uses();
  // 100 requests a second for 5 seconds: 500 requests.
  for (int i = 0; i < 500; ++i) t.interact(lamp, Duration::milliseconds(10));
  t.sim.run_for(Duration::seconds(1));
  const uint64_t judged = t.sim.game.use_refusals().total() + t.sim.game.uses() - judged_before;
  const uint64_t limited = t.sim.room.interact_refusals()[InteractRefusal::rate_limited];
  std::printf("[ interaction ] 500 requests in 5 s: %llu reached the game, %llu refused by the bucket\n",
              static_cast<unsigned long long>(judged), static_cast<unsigned long long>(limited));
  // The bucket: a burst of 10 and 10 a second over ~5 s of arrivals (the link spreads them a little).
  EXPECT_LE(judged, 10u + 10u * 6u);
  EXPECT_GE(judged, 40u);
  EXPECT_EQ(judged + limited, 500u) << "every request is either judged or refused, none lost";
  EXPECT_EQ(t.answers.count(world::kEventUseRefused, world::UseRefusal::not_interactive), judged);
}

}  // namespace
}  // namespace tickwire

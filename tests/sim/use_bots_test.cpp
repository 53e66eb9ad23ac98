// Bots that press buttons and use doors, through the whole system on the transatlantic profile
// (issue 17, "Interaction channel"): three `use` bots, each a facade client steered by its own drawn
// pawn, walk to the reference map's buttons and press them (named interactions and Use presses, by
// seed); the server takes their uses, a door opens fully on the server and on every client, and
// refusals stay few.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <set>
#include <vector>

#include "game_profiles.h"
#include "tickwire/client/object_sample.h"
#include "tickwire/world/bot_brain.h"
#include "tickwire/world/reference_vocabulary.h"

namespace tickwire {
namespace {

using namespace tickwire::test;

constexpr auto kMover = static_cast<uint8_t>(world::ComponentWireId::mover);

// A `use` bot in the sim: its brain sees the pawn where its client draws it.
struct SimUseBot {
  explicit SimUseBot(uint64_t seed) : brain(world::BotBehaviour::use, seed) {}
  world::BotBrain brain;
  world::Vec3 feet;
};

TEST(UseBots, ThreeBotsOnTheTransatlanticProfilePressButtonsAndOpenDoorsOnEveryClient) {
  constexpr uint64_t kSeed = 1717;
  GameSim sim(kSeed, GameSimConfig{});
  const std::optional<LinkModel> link = link_profile("transatlantic");
  ASSERT_TRUE(link.has_value());
  const std::vector<world::BotButton> buttons = world::bot_buttons(sim.map);
  ASSERT_EQ(buttons.size(), 4u);
  std::vector<std::shared_ptr<SimUseBot>> bots;
  for (uint64_t i = 0; i < 3; ++i) {
    auto bot = std::make_shared<SimUseBot>(kSeed * 7919 + i);
    bots.push_back(bot);
    GameClientSetup setup;
    setup.up = setup.down = *link;
    setup.input = [bot, &buttons](uint32_t sequence) {
      return bot->brain.next(sequence, world::BotView{bot->feet, world::MoverSettings{}.standing_eye_m, buttons, {}});
    };
    sim.add_client(setup);
  }
  // The highest open fraction each door reached, on the server and on each client.
  std::map<uint32_t, float> server_open;
  std::vector<std::map<uint32_t, float>> client_open(bots.size());
  uint64_t named_presses = 0;
  sim.after_frame = [&](SimGameClient& c) {
    std::size_t i = 0;
    while (sim.clients[i].get() != &c) ++i;
    SimUseBot& bot = *bots[i];
    bot.feet = world::Vec3::from_wire(c.facade->own_position());
    while (auto event = c.facade->receive_event()) bot.brain.heard(*event);
    if (const auto target = bot.brain.take_interaction()) {
      EXPECT_TRUE(c.facade->interact(world::map_object_ref(*target).raw(), 0));
      ++named_presses;
    }
    for (const world::BotButton& b : buttons) {
      const std::optional<ObjectSample> door = c.facade->map_object(b.door_index);
      const SectionSample* mover = door ? door->section(kMover) : nullptr;
      if (mover != nullptr) client_open[i][b.door_index] = std::max(client_open[i][b.door_index], mover->channels[0]);
    }
  };
  for (int step = 0; step < 600; ++step) {  // 60 s
    sim.run_for(Duration::milliseconds(100));
    for (const world::BotButton& b : buttons)
      server_open[b.door_index] = std::max(server_open[b.door_index], sim.game.object_component(b.door_index, 0).channels[0]);
  }
  ASSERT_TRUE(sim.all_welcomed());

  world::BotUseTally answers;
  for (const auto& bot : bots) answers.merge(bot->brain.uses());
  const uint64_t refusals = sim.game.use_refusals().total();
  std::printf("[ use bots ] 60 s, 3 bots, transatlantic: server uses %llu, refusals %llu (out_of_reach %llu, "
              "outside_cone %llu, rate_limited %llu); %llu named presses; bots heard taken %llu, unhandled %llu, refused %llu\n",
              static_cast<unsigned long long>(sim.game.uses()), static_cast<unsigned long long>(refusals),
              static_cast<unsigned long long>(sim.game.use_refusals()[world::UseRefusal::out_of_reach]),
              static_cast<unsigned long long>(sim.game.use_refusals()[world::UseRefusal::outside_cone]),
              static_cast<unsigned long long>(sim.game.use_refusals()[world::UseRefusal::rate_limited]),
              static_cast<unsigned long long>(named_presses), static_cast<unsigned long long>(answers.taken),
              static_cast<unsigned long long>(answers.unhandled), static_cast<unsigned long long>(answers.refused.total()));
  std::set<uint32_t> opened_everywhere;
  for (const auto& [door, fraction] : server_open) {
    bool on_every_client = fraction >= 1.0f;
    for (const auto& seen : client_open) on_every_client = on_every_client && seen.contains(door) && seen.at(door) >= 1.0f;
    std::printf("[ use bots ] door %u: server %.3f, clients", door, static_cast<double>(fraction));
    for (const auto& seen : client_open) std::printf(" %.3f", static_cast<double>(seen.contains(door) ? seen.at(door) : -1.0f));
    std::printf("\n");
    if (on_every_client) opened_everywhere.insert(door);
  }

  EXPECT_GE(sim.game.uses(), 6u) << "each bot's presses are taken, round after round";
  EXPECT_GT(named_presses, 0u) << "named interactions";
  const uint64_t answered = answers.taken + answers.unhandled + answers.refused.total();
  EXPECT_LE(answered, sim.game.uses() + refusals);
  EXPECT_GE(answered + 3, sim.game.uses() + refusals) << "every judged use is answered to its bot (the last in flight)";
  EXPECT_FALSE(opened_everywhere.empty()) << "a door opened fully on the server and on every client";
  EXPECT_LE(refusals * 4, sim.game.uses()) << "refusals are few";
}

}  // namespace
}  // namespace tickwire

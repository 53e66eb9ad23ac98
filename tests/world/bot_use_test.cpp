// The `use` bot's steering, with no network: given where its pawn stands and the map's buttons, the
// brain turns toward a button, walks to it, stops within reach and presses (the server's own reach
// and cone rule accepts the press), then, once a press is taken, walks to the door and on to another
// button. Presses go both ways (named interaction, Use button) by seed; the run is reproducible.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "tickwire/world/bot_brain.h"
#include "tickwire/world/look_frame.h"
#include "tickwire/world/pawn_buttons.h"
#include "tickwire/world/reference_game.h"
#include "tickwire/world/reference_map.h"
#include "tickwire/world/use_reach.h"
#include "game_rig.h"

namespace tickwire::world {
namespace {

constexpr float kTickS = 1.0f / 60.0f;
constexpr float kWalkMps = 4.0f;

float flat_distance(const Vec3& a, const Vec3& b) { return std::hypot(b.x - a.x, b.z - a.z); }

bool same_input(const protocol::InputCmd& a, const protocol::InputCmd& b) {
  return a.buttons == b.buttons && a.move_x == b.move_x && a.move_y == b.move_y && a.yaw_deg == b.yaw_deg &&
         a.pitch_deg == b.pitch_deg;
}

// A bot on an open floor: its pawn moves as the inputs say (no collision, no inertia).
struct WalkingBot {
  BotBrain brain;
  std::vector<BotButton> buttons;
  Vec3 feet;
  protocol::InputCmd last;
  std::optional<uint32_t> interaction;  // what the last tick's press named

  BotView view() const { return BotView{feet, MoverSettings{}.standing_eye_m, buttons, {}}; }
  void tick(uint32_t sequence) {
    last = brain.next(sequence, view());
    interaction = brain.take_interaction();
    const LookFrame frame = look_frame(last.yaw_deg, 0);
    feet = feet + frame.forward_flat * (last.move_y * kWalkMps * kTickS) + frame.right * (last.move_x * kWalkMps * kTickS);
  }
  bool pressed() const { return interaction.has_value() || button_held(last.buttons, kButtonUse); }
  // Ticks until the next press (nullopt: none within `limit`).
  std::optional<uint32_t> until_press(uint32_t& sequence, uint32_t limit) {
    for (uint32_t i = 0; i < limit; ++i) {
      tick(sequence++);
      if (pressed()) return i;
    }
    return std::nullopt;
  }
};

// The north button and its door, as the reference map places them.
BotButton north_button() { return BotButton{7, Vec3{1.75f, 1.25f, 31.875f}, 6, Vec3{0, 1.25f, 31.75f}}; }
BotButton east_button() { return BotButton{10, Vec3{31.875f, 1.25f, 1.75f}, 9, Vec3{31.75f, 1.25f, 0}}; }

protocol::EntityEvent taken_answer() {
  protocol::EntityEvent event;
  event.event_kind = kEventUseTaken;
  return event;
}

TEST(BotUse, TheReferenceMapsButtonsComeWithTheDoorsTheyOpen) {
  const Map map = rigs::load_rig_map(reference_map_text());
  const std::vector<BotButton> buttons = bot_buttons(map);
  ASSERT_EQ(buttons.size(), 4u);
  for (const char* side : {"n", "s", "e", "w"}) {
    const uint32_t button = *map.object_index(std::string("button.") + side);
    const uint32_t door = *map.object_index(std::string("door.") + side);
    const auto found = std::find_if(buttons.begin(), buttons.end(), [&](const BotButton& b) { return b.button_index == button; });
    ASSERT_NE(found, buttons.end()) << side;
    EXPECT_EQ(found->door_index, door) << side;
    EXPECT_EQ(found->door_at, map.objects()[door].position) << side;
  }
}

TEST(BotUse, TurnsTowardTheButtonWalksToItAndPressesWithinReach) {
  WalkingBot bot{BotBrain(BotBehaviour::use, 3), {north_button()}, Vec3{0, 0, 24}, {}, {}};
  const BotButton& button = bot.buttons[0];
  const float bearing = std::atan2(button.button_at.x, button.button_at.z - 24.0f) * 180.0f / 3.14159265f;
  float error_before = 360;
  uint32_t sequence = 0;
  bot.tick(sequence++);
  // It turns toward the button a bounded step a tick, and walks once roughly facing it.
  for (; sequence < 40; ++sequence) {
    const float error = std::fabs(std::remainder(bot.last.yaw_deg - bearing, 360.0f));
    EXPECT_LE(error, error_before + 1e-3f);
    error_before = error;
    bot.tick(sequence);
  }
  EXPECT_LT(error_before, 5.0f) << "facing the button";
  EXPECT_GT(flat_distance(Vec3{0, 0, 24}, bot.feet), 0.5f) << "walking to it";

  const std::optional<uint32_t> press = bot.until_press(sequence, 600);
  ASSERT_TRUE(press.has_value()) << "pressed within 10 s";
  EXPECT_LE(flat_distance(bot.feet, button.button_at), kBotStandOffM + 0.1f);
  // The server's own rule accepts it: the eye within reach, the button inside the look cone.
  const UseRay ray{bot.feet + Vec3{0, MoverSettings{}.standing_eye_m, 0}, look_frame(bot.last.yaw_deg, bot.last.pitch_deg).forward};
  EXPECT_EQ(judge_use(ray, button.button_at, kUseReachM), std::nullopt);
  EXPECT_GT(use_alignment(ray, button.button_at), 0.999f) << "looking straight at it (pitch included)";
  if (bot.interaction) {
    EXPECT_EQ(*bot.interaction, button.button_index) << "a named press names the button";
  }
  EXPECT_EQ(bot.last.move_x, 0.0f);
  EXPECT_EQ(bot.last.move_y, 0.0f) << "standing still to press";
}

TEST(BotUse, AfterATakenPressItGoesToTheDoorThenToAnotherButton) {
  WalkingBot bot{BotBrain(BotBehaviour::use, 5), {north_button(), east_button()}, Vec3{16, 0, 16}, {}, {}};
  uint32_t sequence = 0;
  ASSERT_TRUE(bot.until_press(sequence, 900).has_value());
  const BotButton first = bot.buttons[flat_distance(bot.feet, bot.buttons[0].button_at) <= kBotStandOffM + 0.1f ? 0 : 1];
  bot.brain.heard(taken_answer());
  EXPECT_EQ(bot.brain.uses().taken, 1u);
  // It stands a moment, walks to the door the press opened and stops next to it.
  bool reached_door = false;
  for (uint32_t i = 0; i < 600 && !reached_door; ++i) {
    bot.tick(sequence++);
    EXPECT_FALSE(bot.pressed()) << "a taken press is not repeated";
    reached_door = flat_distance(bot.feet, first.door_at) <= kBotStandOffM + 0.1f;
  }
  EXPECT_TRUE(reached_door);
  // Then the other button.
  ASSERT_TRUE(bot.until_press(sequence, 1800).has_value());
  const BotButton& second = bot.buttons[first.button_index == north_button().button_index ? 1 : 0];
  EXPECT_LE(flat_distance(bot.feet, second.button_at), kBotStandOffM + 0.1f);
}

TEST(BotUse, UnansweredPressesAreRepeatedAFewTimesBothWaysByTheSeed) {
  uint32_t named = 0, button = 0;
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    WalkingBot bot{BotBrain(BotBehaviour::use, seed), {north_button()}, Vec3{1.75f, 0, 29}, {}, {}};
    uint32_t presses = 0;
    for (uint32_t sequence = 0; sequence < 60 * 12; ++sequence) {
      bot.tick(sequence);
      if (presses > 0 && bot.last.move_y > 0) break;  // left for the door
      if (!bot.pressed()) continue;
      ++presses;
      (bot.interaction ? named : button) += 1;
    }
    EXPECT_EQ(presses, kBotPressesPerStay) << "seed " << seed << ": presses every few seconds, then gives up on it";
  }
  EXPECT_GT(named, 0u) << "named interactions";
  EXPECT_GT(button, 0u) << "Use-button presses";
}

TEST(BotUse, TheSameSeedAndViewsGiveTheSameInputs) {
  WalkingBot a{BotBrain(BotBehaviour::use, 11), {north_button(), east_button()}, Vec3{0, 0, 0}, {}, {}};
  WalkingBot b = a;
  for (uint32_t sequence = 0; sequence < 3000; ++sequence) {
    a.tick(sequence);
    b.tick(sequence);
    ASSERT_TRUE(same_input(a.last, b.last)) << sequence;
    ASSERT_EQ(a.interaction, b.interaction) << sequence;
  }
}

TEST(BotUse, TheOtherBehavioursIgnoreTheView) {
  const std::vector<BotButton> buttons{north_button()};
  for (BotBehaviour behaviour : {BotBehaviour::walk, BotBehaviour::wander, BotBehaviour::idle, BotBehaviour::jumpy}) {
    BotBrain seeing(behaviour, 9), blind(behaviour, 9);
    for (uint32_t sequence = 0; sequence < 600; ++sequence)
      ASSERT_TRUE(same_input(seeing.next(sequence, BotView{Vec3{1, 0, 2}, 1.6f, buttons, {}}), blind.next(sequence)))
          << bot_behaviour_name(behaviour);
    EXPECT_EQ(parse_bot_behaviour(bot_behaviour_name(behaviour)), behaviour);
  }
  EXPECT_EQ(parse_bot_behaviour("use"), BotBehaviour::use);
}

}  // namespace
}  // namespace tickwire::world

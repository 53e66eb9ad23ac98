// The `use` bot's rounds: walk to a button (picked by seed among the map's buttons), stand before
// it facing it, press until the server takes a press, walk to the door that press toggled and stop
// next to it, then on to another button. Presses alternate, by seed, between the two ways to Use:
// a named interaction (Client::interact) and the input's Use button (the server picks the target).
// A pure function of the view, the seeded RNG and the answers heard, so a run is reproducible.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "tickwire/core/rng.h"
#include "tickwire/protocol/entity_event.h"
#include "tickwire/protocol/input_frame.h"
#include "tickwire/world/bot_view.h"

namespace tickwire::world {

inline constexpr float kBotStandOffM = 1.5f;        // stops this far (horizontally) from a button or door
inline constexpr float kBotTurnDegPerTick = 12.0f;  // how fast the bot turns toward its target
inline constexpr uint32_t kBotSettleTicks = 30;     // stands still this long before the first press
inline constexpr uint32_t kBotRepressTicks = 150;   // presses again after this long with no press taken
inline constexpr uint32_t kBotPressesPerStay = 4;   // then gives up on that button

class ButtonRounds {
 public:
  explicit ButtonRounds(float yaw_deg) : yaw_deg_(yaw_deg) {}

  // The input for one client tick.
  protocol::InputCmd next(Rng& rng, const BotView& view);
  // The button this tick's press names through the interaction channel, once (then nullopt).
  std::optional<uint32_t> take_interaction();
  // One of the server's answers: a taken press ends the stay at the button.
  void heard(const protocol::EntityEvent& event);

  enum class Leg : uint8_t { to_button, at_button, to_door };
  Leg leg() const { return leg_; }
  // Which of the view's buttons the round is about (nullopt before the first tick with buttons).
  std::optional<std::size_t> button() const { return button_; }

 private:
  void pick_button(Rng& rng, std::size_t count);
  // Turns toward `at` and walks to it (runs while far, sidesteps when it makes no progress); true
  // once within kBotStandOffM, where it stops.
  bool walk_to(protocol::InputCmd& cmd, Rng& rng, const BotView& view, const Vec3& at);
  // Faces the button (yaw and look-at pitch from the eye) and presses when it is time.
  void stand_and_press(protocol::InputCmd& cmd, Rng& rng, const BotView& view, const BotButton& button);
  void begin(Leg leg);

  float yaw_deg_;
  float pitch_deg_ = 0;
  Leg leg_ = Leg::to_button;
  std::optional<std::size_t> button_;
  uint32_t ticks_in_leg_ = 0;
  uint32_t presses_ = 0;
  uint32_t ticks_since_press_ = 0;
  bool press_taken_ = false;
  std::optional<uint32_t> interaction_;
  // Getting unstuck: the distance left when progress was last checked, and a sidestep under way.
  float distance_at_check_ = 0;
  uint32_t sidestep_ticks_ = 0;
  float sidestep_side_ = 1;
};

}  // namespace tickwire::world

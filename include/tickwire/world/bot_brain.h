// BotBrain: the scripted player behind a headless bot. Each behaviour is a plain function of the
// bot's own seeded RNG and the input sequence, so a bot run is reproducible: walk (forward, a slow
// turn), wander (random headings, sometimes running), idle (stands, looks around), jumpy (walks and
// jumps often, crouches now and then). One needs to see the world: use (walks to the map's buttons,
// presses them and goes to the doors they open: button_rounds.h), steered by a BotView; and fire
// (strafes side to side facing the nearest other pawn and shoots at it: bot_gunner.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "tickwire/core/rng.h"
#include "tickwire/protocol/entity_event.h"
#include "tickwire/protocol/input_frame.h"
#include "tickwire/world/bot_gunner.h"
#include "tickwire/world/bot_use_tally.h"
#include "tickwire/world/bot_view.h"
#include "tickwire/world/button_rounds.h"

namespace tickwire::world {

enum class BotBehaviour : uint8_t { walk, wander, idle, jumpy, use, fire };

std::optional<BotBehaviour> parse_bot_behaviour(std::string_view name);
std::string_view bot_behaviour_name(BotBehaviour behaviour);

class BotBrain {
 public:
  BotBrain(BotBehaviour behaviour, uint64_t seed);
  // The input for the client tick with this sequence (a `use` bot with no view stands still).
  protocol::InputCmd next(uint32_t sequence);
  // The same, seeing the world: the `use` behaviour steers by the view, the others ignore it.
  protocol::InputCmd next(uint32_t sequence, const BotView& view);
  // The object a press names through the interaction channel (Client::interact), once, after the
  // tick that pressed; nullopt when there is none.
  std::optional<uint32_t> take_interaction();
  // One of the server's entity events for this client (Client::receive_event): counted, and heard
  // by the `use` rounds.
  void heard(const protocol::EntityEvent& event);
  const BotUseTally& uses() const { return uses_; }
  // The shot the tick's `fire` behaviour aimed, once (Client::fire takes it); nullopt when none.
  std::optional<BotGunner::Aim> take_shot();
  BotGunner& gunner() { return gunner_; }
  const BotGunner& gunner() const { return gunner_; }
  BotBehaviour behaviour() const { return behaviour_; }

 private:
  BotBehaviour behaviour_;
  Rng rng_;
  float yaw_deg_;
  bool running_ = false;
  ButtonRounds rounds_;
  BotUseTally uses_;
  BotGunner gunner_;
  std::optional<BotGunner::Aim> shot_;
};

}  // namespace tickwire::world

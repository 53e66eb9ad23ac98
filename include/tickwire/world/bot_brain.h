// BotBrain: the scripted player behind a headless bot. Each behaviour is a plain function of the
// bot's own seeded RNG and the input sequence, so a bot run is reproducible: walk (forward, a slow
// turn), wander (random headings, sometimes running), idle (stands, looks around), jumpy (walks and
// jumps often, crouches now and then).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "tickwire/core/rng.h"
#include "tickwire/protocol/input_frame.h"

namespace tickwire::world {

enum class BotBehaviour : uint8_t { walk, wander, idle, jumpy };

std::optional<BotBehaviour> parse_bot_behaviour(std::string_view name);
std::string_view bot_behaviour_name(BotBehaviour behaviour);

class BotBrain {
 public:
  BotBrain(BotBehaviour behaviour, uint64_t seed);
  // The input for the client tick with this sequence.
  protocol::InputCmd next(uint32_t sequence);

 private:
  BotBehaviour behaviour_;
  Rng rng_;
  float yaw_deg_;
  bool running_ = false;
};

}  // namespace tickwire::world

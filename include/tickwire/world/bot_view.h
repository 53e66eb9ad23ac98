// What a bot that uses things knows of the world: where its own pawn is drawn, and the map's
// buttons with the door each one opens (read from the button's wiring), so the `use` behaviour can
// steer to a button, press it and go to its door; and where the other pawns are drawn, so the `fire`
// behaviour can face one and shoot. Other behaviours need no view.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "tickwire/world/map.h"
#include "tickwire/world/mover_settings.h"
#include "tickwire/world/vec3.h"

namespace tickwire::world {

// A button of the map and the door its press toggles (the door is the button itself when its
// wiring names no door: the bot then only stands next to the button).
struct BotButton {
  uint32_t button_index = 0;  // object index (MapObjectTable), what an interaction names
  Vec3 button_at;
  uint32_t door_index = 0;
  Vec3 door_at;
};

// Every object of kind "button" in the map's object table order, each with the first object of
// kind "door" its outputs call.
std::vector<BotButton> bot_buttons(const Map& map);

struct BotView {
  Vec3 feet;  // the own pawn where the client draws it (Client::own_position)
  float eye_height_m = MoverSettings{}.standing_eye_m;
  std::span<const BotButton> buttons;
  std::span<const Vec3> others;  // the other pawns' feet where the client draws them (the `fire` bots' marks)
};

}  // namespace tickwire::world

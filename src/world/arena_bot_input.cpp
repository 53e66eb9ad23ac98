// ArenaBotInput: a fresh choice every 4 to 30 frames.
#include "tickwire/world/arena_bot_input.h"

namespace tickwire::world {

void ArenaBotInput::sample(uint32_t frame, std::span<uint8_t> out) {
  if (frame >= hold_until_) {
    held_.buttons = static_cast<uint8_t>(rng_.below(16));
    if (rng_.chance(0.4)) held_.buttons |= arena_button::fire;
    held_.aim_x = static_cast<int8_t>(rng_.between(-8, 8));
    held_.aim_y = static_cast<int8_t>(rng_.between(-8, 8));
    hold_until_ = frame + 4 + static_cast<uint32_t>(rng_.below(27));
  }
  write_arena_input(held_, out);
}

}  // namespace tickwire::world

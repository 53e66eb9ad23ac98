// The interpreter of fuzz_room_save_state, shared with its seed test: an input is a room save state
// to load into a fresh room, either whole (mode 0: the input's rest) or spliced into a valid one
// saved mid-game (mode 1: the valid bytes up to the input's u16 offset, the input's rest after), so
// the fuzzer reaches the game's part, the props and the logic past the room's head. Whatever loads
// runs a few ticks and saves again; nothing may crash.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "fuzz_splice.h"
#include "save_room.h"

namespace tickwire::world::rigs {

// The reference map, loaded once.
inline const Map& save_fuzz_map() {
  static const Map map = load_rig_map(reference_map_text());
  return map;
}

// The mid-game save every spliced input starts from (built once, the same in the fuzzer and tests).
inline const std::vector<uint8_t>& save_fuzz_valid() {
  static const std::vector<uint8_t> valid = [] {
    SaveRoom a(save_fuzz_map());
    play_to_mid_game(a);
    return a.save();
  }();
  return valid;
}

// The save state an input names.
inline std::vector<uint8_t> save_fuzz_state(std::span<const uint8_t> input) {
  return fuzz_spliced_bytes(input, save_fuzz_valid);
}

// Loads the input's save state into a fresh room; one that loads runs 3 ticks and saves again.
inline std::optional<SaveStateRefusal> run_save_fuzz_input(std::span<const uint8_t> input) {
  SaveRoom room(save_fuzz_map());
  const std::vector<uint8_t> state = save_fuzz_state(input);
  const std::optional<SaveStateRefusal> refused = room.room.load_whole(state);
  if (refused) return refused;
  for (int t = 0; t < 3; ++t) room.tick();
  (void)room.save();
  return std::nullopt;
}

}  // namespace tickwire::world::rigs

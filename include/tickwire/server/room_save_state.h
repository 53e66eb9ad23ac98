// A room's save state (seed 002, "Memory Constraint"): the authority's whole room in one versioned,
// little-endian byte layout (the clock's tick, every session's pawn with its input window, every
// held pawn, then the game's whole state through GameSaveState), read back into a fresh room so it
// goes on bit-exact. The one path behind host migration, late join, reconnect and debug replay.
#pragma once

#include <cstddef>
#include <cstdint>

#include "tickwire/core/reasons.h"

namespace tickwire {

inline constexpr uint32_t kRoomSaveStateMagic = 0x53535754;  // "TWSS", little-endian
inline constexpr uint8_t kRoomSaveStateVersion = 3;  // 3: a session's owner id is u16
inline constexpr std::size_t kMaxGameSaveStateBytes = std::size_t{64} << 20;
// A save's tick: 2^40 ticks is centuries at 128 Hz, far from anything a Tick computes wrapping (a
// room also refuses a tick further from tick 0 than its clock counts: 146 years at its rate).
inline constexpr int64_t kMaxSaveStateTick = int64_t{1} << 40;

// Why a save state was refused (the room as it was: nothing is laid over it before all is read).
TW_REASONS(SaveStateRefusal,
           not_fresh,         // the room has run a tick or admitted a session: a save loads into a fresh one
           game_unsaved,      // the game writes no save state (GameSaveState::saves_whole_state)
           bad_magic,         // not a room save state
           wrong_version,     // a layout this build does not read
           truncated,         // the bytes ended before the layout did
           count_over_cap,    // more sessions or pawns than the room holds, a game state past its cap
           value_out_of_range,  // a tick, owner or pawn no room of this contract could hold, or one named twice
           trailing_bytes,    // bytes after the layout's end
           input_window,      // a session's input window that does not read
           game_refused)      // the game refused its state (GameSaveState::load_whole_state)

}  // namespace tickwire

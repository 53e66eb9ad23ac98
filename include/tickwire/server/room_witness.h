// The per-tick witness of a room recording: a 64-bit checksum of what the room would replicate on a
// tick (every record the game writes, in its wire form, with its interest notes; the world settings;
// each session's owner detail as simulated: its pawn, the honest ack, the pawn detail, the claim's
// outcome), so a replay names the first tick whose replicated world differs. The depth byte is left
// out: it tells how inputs arrived, which a recording deliberately does not keep.
#pragma once

#include <cstdint>
#include <vector>

#include "tickwire/clock/tick.h"
#include "tickwire/replication/tick_records.h"

namespace tickwire {

class Room;

// Scratch a witness reuses tick after tick (no allocation once warm).
struct WitnessScratch {
  TickRecords records;
  std::vector<uint32_t> order;
  std::vector<uint8_t> bytes;
};

// BLAKE2b over the tick's replicated state, folded to 64 bits.
uint64_t room_witness(const Room& room, Tick tick, WitnessScratch& scratch);

}  // namespace tickwire

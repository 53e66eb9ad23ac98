// DurableFact (seed 003, "Durability and rejoin"): one thing a game made that must outlive its
// process once anyone has been told of it: an accepted scene edit, a voxel write. The game makes it
// and reads it back; the engine only carries it: journaled before anything that acknowledges it
// leaves the server, replayed in order over a restored checkpoint after a crash.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tickwire {

inline constexpr std::size_t kMaxDurableFactBytes = 64 * 1024;  // one fact's payload
inline constexpr std::size_t kMaxFactsPerJournalEntry = 4096;   // a bigger take is journaled as several entries

// Fact kinds from here up are the engine's own (the room's pawns); a game numbers its own below.
inline constexpr uint32_t kFirstEngineFactKind = 0xFFFF0000u;
inline constexpr uint32_t kFactPawnJoined = kFirstEngineFactKind + 1;  // the room spawned a session's pawn
inline constexpr uint32_t kFactPawnGone = kFirstEngineFactKind + 2;    // the room despawned one for good

struct DurableFact {
  uint32_t kind = 0;  // the game's own numbering, or the engine's (>= kFirstEngineFactKind)
  std::vector<uint8_t> payload;
  friend bool operator==(const DurableFact&, const DurableFact&) = default;
};

}  // namespace tickwire

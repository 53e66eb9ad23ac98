// The fleet directory's records (seed 003's fleet; issue 21, "A fleet"): a server process as the
// directory holds it (its lifecycle state, its ops address, its last heartbeat) and each room it
// serves (where players connect, its seats). Plain values, declared apart from the directory seam so
// a reader of a listing (the matchmaker, above durable/) needs nothing of the store's library.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tickwire/clock/time.h"
#include "tickwire/core/reasons.h"

namespace tickwire::durable {

inline constexpr uint32_t kMaxDirectoryRoomSeats = 256;  // a room's seats at most (netcode's clients per server)
inline constexpr std::size_t kMaxDirectoryNameBytes = 128;  // a process's or room's id at most (the store's names)

// A process's or room's id: 1..kMaxDirectoryNameBytes of [A-Za-z0-9._:-] (what operators read in
// listings and metrics labels, and what a player names to resume in a room).
constexpr bool valid_directory_name(std::string_view name) {
  if (name.empty() || name.size() > kMaxDirectoryNameBytes) return false;
  for (const char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
                    c == '-' || c == ':';
    if (!ok) return false;
  }
  return true;
}

// A server process's lifecycle, as the directory records it (the names are the database's too). A
// small type of its own until the process lifecycle (fleet/) exists to fold it into.
TW_REASONS(ProcessState,
           starting,   // up, its rooms not yet recovered: no players
           ready,      // takes players
           allocated,  // takes players (a deployment's allocator has claimed it)
           draining,   // stopping: keeps its players, takes no new ones
           stopped)    // gone (it deregisters; a row left in this state is a process that said so)

inline std::optional<ProcessState> process_state_named(std::string_view name) {
  for (std::size_t i = 0; i < ProcessState_reason_names.size(); ++i)
    if (ProcessState_reason_names[i] == name) return static_cast<ProcessState>(i);
  return std::nullopt;
}

// Whether a process in `state` is given new players: ready and allocated ones only.
constexpr bool takes_players(ProcessState state) {
  return state == ProcessState::ready || state == ProcessState::allocated;
}

// One room a process serves.
struct DirectoryRoom {
  std::string room;            // the room's id (its store name)
  std::string public_address;  // where players connect: a numeric HOST:PORT (UDP)
  uint32_t seats_total = 0;
  uint32_t seats_taken = 0;  // sessions seated, as the server counts them
  // The client ids (the tokens' actor ids) of the sessions seated, ascending, at most seats_total:
  // how the matchmaker learns who claimed the seat it offered and who left.
  std::vector<uint64_t> seated;
  uint32_t free_seats() const { return seats_total > seats_taken ? seats_total - seats_taken : 0; }
  friend bool operator==(const DirectoryRoom&, const DirectoryRoom&) = default;
};

// One server process: what it registers and every heartbeat restates.
struct DirectoryProcess {
  std::string process;      // the process's id (unique in the fleet)
  ProcessState state = ProcessState::starting;
  std::string ops_address;  // its operations endpoint: a numeric HOST:PORT (HTTP)
  WallTime heartbeat_at;    // listing only: the writer's wall time at its last heartbeat
  std::vector<DirectoryRoom> rooms;

  // The seats the process offers new players: its rooms' free seats while it takes players, else 0
  // (a draining process keeps its players and is offered nobody).
  uint32_t open_seats() const {
    if (!takes_players(state)) return 0;
    uint32_t seats = 0;
    for (const DirectoryRoom& r : rooms) seats += r.free_seats();
    return seats;
  }
  friend bool operator==(const DirectoryProcess&, const DirectoryProcess&) = default;
};

}  // namespace tickwire::durable

// FleetDirectory (issue 21, "A fleet"): where a fleet's server processes say they exist, in the
// store every process shares. A process registers (its state, its ops address, its rooms and their
// seats), heartbeats on a fraction of the TTL, and deregisters when it drains away. The listing holds
// only processes whose last heartbeat is within the TTL, so a process killed without a word leaves
// it within the TTL and nobody has to delete it; rows long dead are swept. Times are wall times the
// caller passes in: the heartbeat stores the writer's, the listing judges it by the reader's
// (docs/matchmaking.md, "Whose clock"). Everything is capped and every refusal is named and counted.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "tickwire/clock/time.h"
#include "tickwire/core/reason_counters.h"
#include "tickwire/durable/fleet_listing.h"
#include "tickwire/durable/store.h"

namespace tickwire::durable {

inline constexpr uint32_t kMaxDirectoryProcesses = 4096;  // FleetDirectoryConfig::max_processes at most
inline constexpr uint32_t kMaxRoomsPerProcess = 64;       // rooms one process may list
// Heartbeats per TTL: a process heartbeats every ttl / 3, so two lost heartbeats in a row still
// leave it listed, and a third means it is gone.
inline constexpr int64_t kHeartbeatsPerTtl = 3;

struct FleetDirectoryConfig {
  Duration ttl = Duration::seconds(10);             // a process is listed this long after its last heartbeat
  Duration sweep_after = Duration::seconds(300);    // a row this far from the reader's clock is deleted
  uint32_t max_processes = 1024;                    // rows the directory holds at most (listed or not yet swept)
};

// How often a process should heartbeat under `config`.
constexpr Duration heartbeat_interval(const FleetDirectoryConfig& config) {
  return Duration::nanoseconds(config.ttl.ns() / kHeartbeatsPerTtl);
}

// A listing: the processes alive as of the reader's `now`, ordered by process id, rooms by room id.
struct DirectoryListing {
  std::vector<DirectoryProcess> processes;
  uint32_t from_the_future = 0;  // rows heartbeated more than a TTL past the reader's clock: not listed
  uint32_t unreadable_rooms = 0;  // room rows no report could have written (a seated list that does not hold): not listed
};

class FleetDirectory {
 public:
  virtual ~FleetDirectory() = default;

  virtual std::string_view backend() const = 0;
  virtual uint32_t schema_version() const = 0;
  virtual const FleetDirectoryConfig& config() const = 0;

  // A process says it exists (again, after a restart: its row and rooms are replaced), its heartbeat
  // at `now`. Refused: bad_name, bad_address, bad_seats, duplicate (a room twice), over_cap (rooms
  // past kMaxRoomsPerProcess, or the directory already holding max_processes other rows, listed or
  // not yet swept); bad_seats covers a seated list that does not fit (durable/seated_list.h).
  virtual StoreStatus register_process(const DirectoryProcess& process, WallTime now) = 0;
  // A registered process restates its state and rooms (seats taken, rooms come and gone), its
  // heartbeat at `now`. Refused as registering is, and not_registered when its row is gone (it
  // deregistered, or was swept: it registers again).
  virtual StoreStatus heartbeat(const DirectoryProcess& process, WallTime now) = 0;
  // The process leaves the directory (its rooms with it): not_registered when it was not there.
  virtual StoreStatus deregister(std::string_view process) = 0;
  // The processes whose last heartbeat is within the TTL of `now` (and not more than a TTL ahead).
  virtual StoreResult<DirectoryListing> list(WallTime now) = 0;
  // Deletes every process (and its rooms) whose heartbeat is sweep_after or more from `now`, either
  // way; how many went. The reader's job (the matchmaker's cadence), never a writer's: a process
  // never deletes another's row by its own clock. Dead rows count against the cap until swept.
  virtual StoreResult<uint32_t> sweep(WallTime now) = 0;

  // Every refusal so far, by name (a backend that failed counts as unavailable).
  virtual const ReasonCounters<StoreRefusal>& refusals() const = 0;
};

// Opens the directory in the store a URL names (open_store's forms), migrating it as needed. The
// config's caps are asserted (max_processes within kMaxDirectoryProcesses, a positive TTL, sweeping
// no sooner than the TTL).
StoreResult<std::unique_ptr<FleetDirectory>> open_fleet_directory(std::string_view url, const FleetDirectoryConfig& config);

}  // namespace tickwire::durable

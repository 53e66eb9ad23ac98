// A fleet host's presence in the fleet directory (issue 21, "A fleet"): the process registers, then
// heartbeats the newest state the loop published (its lifecycle, its rooms, their seats and seated
// actors) on a fraction of the directory's TTL, from a thread of its own so a slow store never
// delays a tick. A publish that changes the rooms wakes the thread at once: a room taken over is
// listed (and players can be sent to it) without waiting out the interval. A row swept while the
// process was cut off is registered again; at the end the process deregisters. A process killed
// without a word leaves the listing within the TTL because its heartbeats stop.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "tickwire/durable/fleet_directory.h"

namespace tickwire::cli {

class DirectoryPresence {
 public:
  // Opens the directory in `url` and registers `first`; null and `error` set when it cannot.
  static std::unique_ptr<DirectoryPresence> open(const std::string& url, const durable::FleetDirectoryConfig& config,
                                                 const durable::DirectoryProcess& first, std::string& error);
  ~DirectoryPresence();  // stops heartbeating; deregisters unless told to vanish
  DirectoryPresence(const DirectoryPresence&) = delete;
  DirectoryPresence& operator=(const DirectoryPresence&) = delete;

  // The state the next heartbeat states; a change of rooms or state is heartbeated at once.
  void publish(const durable::DirectoryProcess& process);
  // Deregisters now (the end of a drain); the thread stops.
  void deregister();

  // Heartbeats written, failed (by the store's refusal), registrations repeated.
  nlohmann::json stats_json() const;

 private:
  DirectoryPresence() = default;
  void run();

  std::unique_ptr<durable::FleetDirectory> directory_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  durable::DirectoryProcess latest_;
  bool changed_ = false;
  bool stopping_ = false;
  bool deregistered_ = false;
  uint64_t heartbeats_ = 0;
  uint64_t failures_ = 0;
  uint64_t registrations_ = 0;
  std::string last_failure_;
  std::thread thread_;
};

// Whether two states differ in what a listing shows (the heartbeat time aside).
bool listing_differs(const durable::DirectoryProcess& a, const durable::DirectoryProcess& b);

}  // namespace tickwire::cli

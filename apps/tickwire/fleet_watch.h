// What `tickwire fleet` learns from its processes' JSON lines and the fleet directory, and the
// figures it reports (issue 21, "A fleet" and "The admission queue"): how many bots were matched and
// to which process, whether the matchmaker promoted queued bots in the order they joined the line
// and whether any bot's place ever moved back, and after a host is killed: when it left the
// directory, when each of its rooms was adopted (and whether the heir's recovery reached at least
// as far as the dead keeper's last reported journal: nothing acknowledged lost), and when each of
// its players was playing again. Pure bookkeeping: the caller feeds lines and listings with the
// time it saw them (seconds since the run began).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tickwire/durable/fleet_listing.h"

namespace tickwire::cli {

class FleetWatch {
 public:
  // A line from host process `host` (its --process id).
  void host_line(const std::string& host, const nlohmann::json& line, double at_s);
  // A line from the matchmaker.
  void match_line(const nlohmann::json& line, double at_s);
  // A line from a bot process.
  void bot_line(const nlohmann::json& line, double at_s);
  // The directory's listing as read at `at_s`.
  void listing(const std::vector<durable::DirectoryProcess>& processes, double at_s);
  // The host killed at `at_s` (SIGKILL): what follows is timed from here.
  void killed(const std::string& host, double at_s);

  uint64_t matched() const { return matched_.size(); }
  uint64_t resumed() const { return resumed_.size(); }
  // Bots seated in the killed host's rooms when it died (by the directory's last listing of it).
  uint64_t stranded() const { return stranded_.size(); }

  nlohmann::json report() const;

 private:
  struct Adoption {
    std::string heir;
    double at_s = 0;
    uint64_t recovered_through = 0;  // the heir's recovery: the journal's next sequence - 1
  };

  std::map<uint64_t, nlohmann::json> matched_;    // actor -> its matched line
  std::map<std::string, uint64_t> matched_per_process_;
  std::map<uint64_t, std::vector<int64_t>> positions_;  // actor -> each queued position it was told, in order
  std::vector<uint64_t> promoted_;                     // the matchmaker's promotions, in order
  std::map<uint64_t, double> resumed_;                 // actor -> seconds from the kill to playing again
  std::map<uint64_t, bool> resumed_same_pawn_;
  uint64_t resume_failures_ = 0;  // bots that gave up resuming (and asked for a fresh seat)
  std::set<std::string> listed_hosts_;
  std::map<std::string, std::vector<uint64_t>> seated_by_room_;  // the newest listing's
  std::map<std::string, std::string> host_of_room_;              // the newest listing's
  std::map<std::string, std::map<std::string, uint64_t>> journaled_;  // host -> room -> its keeper's newest journaled_through
  std::map<std::string, Adoption> adoptions_;  // the killed host's rooms, once adopted
  std::optional<std::string> killed_host_;
  double killed_at_s_ = 0;
  std::set<std::string> killed_rooms_;
  std::set<uint64_t> stranded_;
  std::optional<double> gone_at_s_;  // the killed host's first listing without it
};

}  // namespace tickwire::cli

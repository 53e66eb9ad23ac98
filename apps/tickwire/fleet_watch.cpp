// The fleet run's bookkeeping and report (fleet_watch.h).
#include "fleet_watch.h"

#include <algorithm>

namespace tickwire::cli {
namespace {

double percentile(std::vector<double> values, double q) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const auto at = static_cast<std::size_t>(q * static_cast<double>(values.size() - 1) + 0.5);
  return values[std::min(at, values.size() - 1)];
}

}  // namespace

void FleetWatch::host_line(const std::string& host, const nlohmann::json& line, double at_s) {
  const std::string type = line.value("type", "");
  if (type == "host") {
    for (const nlohmann::json& room : line.value("rooms", nlohmann::json::array())) {
      if (!room.value("serving", false) || !room.contains("durable")) continue;
      journaled_[host][room.value("room", "")] = room["durable"].value("journaled_through", uint64_t{0});
    }
  } else if (type == "room_serving" && line.value("adopted", false) && killed_host_) {
    const std::string room = line.value("room", "");
    if (killed_rooms_.count(room) == 0 || adoptions_.count(room) != 0) return;
    const uint64_t next = line["recovered"].value("next_sequence", uint64_t{1});
    adoptions_[room] = Adoption{host, at_s - killed_at_s_, next > 0 ? next - 1 : 0};
  }
}

void FleetWatch::match_line(const nlohmann::json& line, double) {
  if (line.value("type", "") != "promoted") return;
  for (const nlohmann::json& actor : line.value("actors", nlohmann::json::array())) promoted_.push_back(actor.get<uint64_t>());
}

void FleetWatch::bot_line(const nlohmann::json& line, double at_s) {
  const std::string type = line.value("type", "");
  const uint64_t actor = line.value("actor", uint64_t{0});
  if (type == "queued") {
    positions_[actor].push_back(line.value("position", int64_t{0}));
  } else if (type == "matched") {
    if (matched_.emplace(actor, line).second) ++matched_per_process_[line.value("process", "")];
  } else if (type == "resume_failed") {
    ++resume_failures_;
  } else if (type == "resumed" && killed_host_ && resumed_.count(actor) == 0) {
    resumed_[actor] = at_s - killed_at_s_;
    resumed_same_pawn_[actor] = line.value("samePawn", false);
  }
}

void FleetWatch::listing(const std::vector<durable::DirectoryProcess>& processes, double at_s) {
  listed_hosts_.clear();
  for (const durable::DirectoryProcess& p : processes) {
    listed_hosts_.insert(p.process);
    if (killed_host_ && p.process == *killed_host_) continue;  // the dead host's last heartbeat, until its TTL
    for (const durable::DirectoryRoom& r : p.rooms) {
      seated_by_room_[r.room] = r.seated;
      host_of_room_[r.room] = p.process;
    }
  }
  if (killed_host_ && !gone_at_s_ && listed_hosts_.count(*killed_host_) == 0) gone_at_s_ = at_s - killed_at_s_;
}

void FleetWatch::killed(const std::string& host, double at_s) {
  killed_host_ = host;
  killed_at_s_ = at_s;
  for (const auto& [room, process] : host_of_room_) {
    if (process != host) continue;
    killed_rooms_.insert(room);
    for (uint64_t actor : seated_by_room_[room]) stranded_.insert(actor);
  }
}

nlohmann::json FleetWatch::report() const {
  nlohmann::json per_process = nlohmann::json::object();
  for (const auto& [process, n] : matched_per_process_) per_process[process] = n;
  // Queue order: the promotions must come in the order the bots joined the line (ascending actor
  // ids: the run starts its bot processes one after another, each asking for its bots in order).
  uint64_t out_of_order = 0;
  for (std::size_t i = 1; i < promoted_.size(); ++i) out_of_order += promoted_[i] < promoted_[i - 1] ? 1 : 0;
  uint64_t place_moved_back = 0;
  uint64_t queued_bots = 0;
  uint64_t queued_then_matched = 0;
  for (const auto& [actor, seen] : positions_) {
    ++queued_bots;
    for (std::size_t i = 1; i < seen.size(); ++i) place_moved_back += seen[i] > seen[i - 1] ? 1 : 0;
    queued_then_matched += matched_.count(actor);
  }
  nlohmann::json j = {{"matched", matched_.size()},
                      {"matchedPerProcess", per_process},
                      {"queuedBots", queued_bots},
                      {"queuedThenMatched", queued_then_matched},
                      {"promotions", promoted_.size()},
                      {"promotionsOutOfOrder", out_of_order},
                      {"placeMovedBack", place_moved_back}};
  if (!killed_host_) return j;
  nlohmann::json kill = {{"host", *killed_host_}, {"stranded", stranded_.size()}, {"resumed", resumed_.size()}};
  kill["leftDirectorySeconds"] = gone_at_s_ ? nlohmann::json(*gone_at_s_) : nlohmann::json(nullptr);
  nlohmann::json rooms = nlohmann::json::array();
  uint64_t lost = 0;
  const auto dead_journal = journaled_.find(*killed_host_);
  for (const std::string& room : killed_rooms_) {
    nlohmann::json r = {{"room", room}};
    uint64_t reported = 0;
    if (dead_journal != journaled_.end() && dead_journal->second.count(room) != 0) reported = dead_journal->second.at(room);
    r["deadKeeperJournaled"] = reported;
    if (const auto a = adoptions_.find(room); a != adoptions_.end()) {
      r["heir"] = a->second.heir;
      r["adoptedSeconds"] = a->second.at_s;
      r["recoveredThrough"] = a->second.recovered_through;
      lost += a->second.recovered_through < reported ? 1 : 0;
    } else {
      r["heir"] = nullptr;
    }
    rooms.push_back(r);
  }
  kill["rooms"] = rooms;
  kill["roomsShortOfTheirJournal"] = lost;
  std::vector<double> gaps;
  uint64_t same_pawn = 0;
  uint64_t stranded_resumed = 0;
  for (const auto& [actor, s] : resumed_) {
    gaps.push_back(s);
    same_pawn += resumed_same_pawn_.at(actor) ? 1 : 0;
    stranded_resumed += stranded_.count(actor);
  }
  kill["strandedResumed"] = stranded_resumed;
  kill["resumeFailures"] = resume_failures_;
  kill["samePawn"] = same_pawn;
  kill["playingAgainSeconds"] = {{"p50", percentile(gaps, 0.5)}, {"p99", percentile(gaps, 0.99)},
                                 {"max", gaps.empty() ? 0.0 : *std::max_element(gaps.begin(), gaps.end())}};
  j["kill"] = kill;
  return j;
}

}  // namespace tickwire::cli

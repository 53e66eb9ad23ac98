// The dashboard's live room as one JSON line: the newest tick's records as the game wrote them
// (every entity with its kind's name, owner (a pawn's: the client whose pawn it is), position, look and a velocity taken from the last
// line's position; every map object's flags, moved transform and component sections named by the
// vocabulary), the clients' net graph samples and the server's figures. Game-agnostic: a door's
// open fraction is its "mover" section's channel to the page, as the vocabulary names it.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "tickwire/dashboard/net_graph.h"
#include "tickwire/protocol/vocabulary.h"
#include "tickwire/replication/tick_records.h"
#include "tickwire/stats.h"

namespace tickwire::dashboard {

// What the loop measured of itself, beside the facade's stats.
struct LoopFigures {
  double tick_hz = 0;           // target
  double tick_cost_ms_p50 = 0;  // over the last interval
  double tick_cost_ms_p99 = 0;
};

class RoomView {
 public:
  static constexpr std::size_t kMaxTrackedEntities = 8192;  // velocities are kept for this many at most
  static constexpr std::size_t kMaxCachedObjects = 16384;   // map objects past this index are rendered every line

  explicit RoomView(GameVocabulary vocabulary) : vocabulary_(std::move(vocabulary)) {}

  // One line: {"type":"room","tick":..,"time_s":..,"server":{..},"entities":[..],"objects":[..],
  // "clients":[..]}. Non-finite numbers are written as null (JSON has no NaN).
  std::string render(int64_t tick, double now_s, const TickRecords& records, const ServerStats& stats,
                     const std::vector<NetSample>& clients, const LoopFigures& loop);

 private:
  struct Last {
    double x = 0, z = 0, at_s = 0;
  };
  // A map object as the previous line drew it: most objects (a map's lights) stand still, so their
  // text is made once and reused while what is drawn of them (flags, moved place, sections) holds.
  struct DrawnObject {
    bool valid = false;
    protocol::ObjectRecord record;
    std::string json;
  };
  const std::string& object_json(const protocol::ObjectRecord& object);

  GameVocabulary vocabulary_;
  std::unordered_map<uint32_t, Last> last_;  // entity id -> where the previous line put it
  std::vector<DrawnObject> objects_;         // by object index
  std::string scratch_;                      // an object past kMaxCachedObjects
};

}  // namespace tickwire::dashboard

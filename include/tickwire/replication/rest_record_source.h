// RestRecordSource: where a room's rest table comes from: the game's map objects, whole (seed 000,
// "The rest table"). The Simulation seam implements it; the ReplicationServer retakes the table
// when the generation moves or an object it names stops being written.
#pragma once

#include <cstdint>
#include <vector>

#include "tickwire/protocol/record_batch.h"
#include "tickwire/wire/types.h"

namespace tickwire {

class RestRecordSource {
 public:
  virtual ~RestRecordSource() = default;
  // Every map object's record as it stands now, whole (every section, every field), ascending
  // entity id. The default writes nothing: a game without map objects has no rest table.
  virtual void write_rest_records(std::vector<protocol::Record>& out) const { (void)out; }
  // Bumped each time the game installs or rebinds its map objects (a map switch, a reinstall, a
  // hot reload); the table is retaken when it moves. 0 means no map objects were ever installed.
  virtual uint64_t map_generation() const { return 0; }
  // Which map the table is a table of (a game's map content hash): every chunk carries it, so a
  // client learns which map it is on with the table and rebuilds what it derives from the map (its
  // catalog, its collision) after a live switch. The default (zero) names no map.
  virtual wire::Hash16 map_identity() const { return {}; }
};

}  // namespace tickwire

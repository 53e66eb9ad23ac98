// RestTableChunk (seed 000, "The rest table", the mapRestTable message): one slice of the map's
// rest table, every map object's record as it stood when the table was taken. Sent reliable and
// ordered, in chunks of at most RestTableChunkRecords records, ahead of the first snapshot that
// names the revision. A client listing this message in its schema receives thinned snapshots.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "tickwire/protocol/constants.h"
#include "tickwire/protocol/record_batch.h"
#include "tickwire/wire/describe_walker.h"

namespace tickwire::protocol {

struct RestTableChunk {
  static constexpr std::string_view wire_name = "RestTableChunk";
  static constexpr std::string_view message_name = "mapRestTable";
  static constexpr uint8_t wire_id = 20;
  static constexpr wire::Direction wire_direction = wire::Direction::server_to_client;

  uint32_t revision = 0;       // server-wide, never 0
  uint32_t object_count = 0;   // records in the whole table
  uint16_t chunk_index = 0;    // N, counted from 0
  uint16_t chunk_count = 0;    // M
  std::vector<Record> records; // object records, ascending object index
  wire::Hash16 map_identity;   // the game's map the table is of (zero: none named); same in every chunk

  template <class W>
  void fields(W& w) {
    w.varu32("revision", revision);
    w.varu32("objectCount", object_count);
    w.u16("chunkIndex", chunk_index);
    w.u16("chunkCount", chunk_count);
    w.list16("records", records, 0, RestTableChunkRecords);
    w.tail();
    w.hash16("mapIdentity", map_identity);
  }
};

}  // namespace tickwire::protocol

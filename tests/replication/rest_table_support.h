// Rest-table test helpers: object records the way a game writes them whole (a lamp's light section,
// a door's mover section), and a table's chunks as the server slices them.
#pragma once

#include <cstdint>
#include <vector>

#include "tickwire/protocol/record_batch.h"
#include "tickwire/protocol/rest_table_chunk.h"
#include "tickwire/replication/rest_table/rest_table.h"
#include "tickwire/wire/codec.h"

namespace tickwire::test {

// Object `index` with entity id `first_id + index`: every 3rd a door (mover section), the rest
// lamps (light section with four channels and the enabled bit).
inline protocol::Record rest_object(uint32_t index, uint32_t first_id = 1u << 24) {
  protocol::ObjectRecord object;
  object.object_index = index;
  object.flags = 1;
  protocol::ComponentSection section;
  section.dirty = 0x3f;
  section.bits = static_cast<uint8_t>(index & 1);
  if (index % 3 == 2) {
    section.wire_id = 2;
    section.channel_count = 1;
    section.channel[0] = 0.25f * static_cast<float>(index % 5);
    section.dirty = 0x31;
  } else {
    section.wire_id = 1;
    section.channel_count = 4;
    for (int c = 0; c < 4; ++c) section.channel[c] = static_cast<float>(index) * 0.5f + static_cast<float>(c);
  }
  object.sections.push_back(section);
  return protocol::Record{first_id + index, object};
}

inline std::vector<protocol::Record> rest_objects(uint32_t count, uint32_t first_id = 1u << 24) {
  std::vector<protocol::Record> out;
  out.reserve(count);
  for (uint32_t i = 0; i < count; ++i) out.push_back(rest_object(i, first_id));
  return out;
}

inline std::vector<protocol::RestTableChunk> chunks_of(const RestTable& table) {
  std::vector<protocol::RestTableChunk> out(table.chunk_count());
  for (std::size_t i = 0; i < out.size(); ++i) table.write_chunk(i, out[i]);
  return out;
}

// A table as its wire bytes (revision, header and every record): equal bytes, equal tables.
inline std::vector<uint8_t> table_bytes(const RestTable& table) {
  std::vector<uint8_t> out;
  for (const protocol::RestTableChunk& chunk : chunks_of(table)) {
    std::vector<uint8_t> body(wire::measure(chunk));
    if (!wire::encode(chunk, body).ok()) return {};
    out.insert(out.end(), body.begin(), body.end());
  }
  return out;
}

}  // namespace tickwire::test

// TickRecords: the tick's state as a game writes it for replication: every record (each entity,
// every map object whole), and for the few records that need them, the interest attributes seed
// 003 names: private to one owner, relevant to everyone, sent with (and after) a parent, a member
// of a scene frame that is sent whole or not at all, or important enough to ride the pose lane at
// any distance. A record without a note is public, spatial, parentless and on its distance's lane.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "tickwire/core/owner_id.h"
#include "tickwire/protocol/record_batch.h"

namespace tickwire {

struct RecordInterest {
  OwnerId private_to = 0;        // nonzero: only this owner's client sees the record (owner-private)
  bool always_relevant = false;  // every client sees it, at any distance
  bool important = false;        // rides the pose lane at any distance
  uint32_t parent_id = 0;        // the record id this one is sent with and after (0: none)
  uint32_t scene_frame = 0;      // a scene frame id (1..): its members go whole or not at all (0: none)
  friend bool operator==(const RecordInterest&, const RecordInterest&) = default;
};

// One record's attributes, by its record (entity) id.
struct InterestNote {
  uint32_t record_id = 0;
  RecordInterest interest;
};

struct TickRecords {
  std::vector<protocol::Record> records;  // any order; ids unique
  std::vector<InterestNote> notes;        // sparse: only records with attributes

  void add(protocol::Record record) { records.push_back(std::move(record)); }
  void add(protocol::Record record, const RecordInterest& interest) {
    notes.push_back(InterestNote{record.entity_id, interest});
    records.push_back(std::move(record));
  }
  void clear() {
    records.clear();
    notes.clear();
  }
};

}  // namespace tickwire

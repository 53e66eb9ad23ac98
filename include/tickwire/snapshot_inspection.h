// One client's newest snapshot taken apart, as the facade reports it: what the composer chose, the
// bits each section of the coded body spent and, while inspection is on for that client, each
// record's own bits. What a dashboard's snapshot inspector draws; the same figures the periodic
// snapshot diagnostics line sums, but for one snapshot and clickable down to a record.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tickwire/core/owner_id.h"

namespace tickwire {

struct InspectedRecord {
  uint32_t id = 0;           // the record's entity id
  uint8_t kind = 0;          // entity form: its kind id (the vocabulary names it); object form: 0
  bool object = false;       // a map object's record (object form)
  uint32_t object_index = 0; // object form: the map object's index
  std::string coding;        // "added", "changed" or "removed"
  uint32_t bits = 0;         // its own bits (the decision naming it counts in skip_bits)
};

struct SnapshotInspection {
  OwnerId owner = 0;
  int64_t tick = 0;
  bool sent = false;  // false: the encoder refused the frame (past the byte cap); nothing went out
  // What the composer chose.
  uint32_t visible = 0, candidates = 0, selected = 0, skipped = 0, held = 0, shared = 0;
  // The coded body, bits by section.
  uint64_t header_bits = 0, entity_bits = 0, object_bits = 0, removal_bits = 0, skip_bits = 0;
  uint32_t records_sent = 0, unchanged = 0, removed = 0;
  uint64_t message_bytes = 0;  // the SnapshotDelta message (its id byte included)
  uint64_t fragments = 0;      // 1: sent whole
  uint32_t baseline_age_ticks = 0;  // 0: coded against nothing acknowledged
  uint32_t predict_age_ticks = 0;
  uint32_t budget_bytes = 0;       // what budget fitting allowed the records (estimate units)
  uint32_t estimated_bytes = 0;    // what it expected them to take
  // Per record, in the body's order; empty unless inspection is on for this client.
  std::vector<InspectedRecord> records;
  uint32_t records_past_cap = 0;   // coded records the log had no room for
};

}  // namespace tickwire

// What each record of one coded SnapshotDelta body cost, in bits: the snapshot inspector's rows.
// The encoder fills a log only when handed one (DeltaRefs::record_bits), so a body nobody inspects
// pays nothing; the log is capped, and says how many records it left out past its cap.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "tickwire/core/reasons.h"

namespace tickwire {

TW_REASONS(RecordCoding,
           added,    // the baseline lacks it: coded against the records before it
           changed,  // coded field by field against its baseline record
           removed)  // an explicit removal

struct RecordBits {
  uint32_t id = 0;         // the record's entity id
  uint8_t kind = 0;        // entity form: its kind id; object form: 0
  bool object_form = false;
  uint32_t object_index = 0;  // object form
  RecordCoding coding = RecordCoding::changed;
  uint32_t bits = 0;       // the record's own bits (the decision naming it is in the skip section)
};

struct RecordBitsLog {
  static constexpr std::size_t kMaxRecords = 2048;
  std::vector<RecordBits> records;  // in the body's order (ascending id)
  uint32_t past_cap = 0;            // records coded but not logged

  void clear() {
    records.clear();
    past_cap = 0;
  }
  void add(const RecordBits& r) {
    if (records.size() < kMaxRecords) {
      records.push_back(r);
    } else {
      ++past_cap;
    }
  }
};

}  // namespace tickwire

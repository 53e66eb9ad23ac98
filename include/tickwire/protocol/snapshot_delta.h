// SnapshotDelta: the snapshot a client of this build receives. The same authority frame as
// Snapshot (tick, the contract hash's tag, the owner's truth, the tick's full state), but its body is coded
// against state the client is known to hold: the newest snapshot it acknowledged (baselineAge
// ticks back), optionally a second, older one for prediction (predictAge), else the rest table
// named by restRevision, else nothing. The decoded frame is still the full state, so presence in
// a snapshot remains an entity's lifecycle. The body's bit layout is docs/snapshot-delta.md.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "tickwire/protocol/constants.h"
#include "tickwire/protocol/snapshot_fragment.h"
#include "tickwire/wire/describe_walker.h"
#include "tickwire/wire/types.h"

namespace tickwire::protocol {

struct SnapshotDelta {
  static constexpr std::string_view wire_name = "SnapshotDelta";
  static constexpr std::string_view message_name = "snapshotDelta";
  static constexpr uint8_t wire_id = 19;
  static constexpr wire::Direction wire_direction = wire::Direction::server_to_client;

  uint32_t tick = 0;           // a varint: 2 bytes below tick 16,384, 3 below 2,097,152 (4 bytes cost 0.06 bit a record at 250 records)
  uint32_t contract_tag = 0;    // ContractHash::tag() of the room's contract (16 bytes a tick cost 0.5 bit a record)
  uint32_t rest_revision = 0;  // the rest table the body may fall back on; 0: none
  uint8_t baseline_age = 0;    // tick - the baseline's tick; 0: no baseline snapshot
  uint8_t predict_age = 0;     // tick - the older baseline's tick; 0: none (> baseline_age when set)
  std::vector<SliceByte> body; // owner detail and records, bit-packed against the references

  template <class W>
  void fields(W& w) {
    w.varu32("tick", tick);
    w.u32("contractTag", contract_tag);
    w.varu32("restRevision", rest_revision);
    w.u8("baselineAge", baseline_age);
    w.u8("predictAge", predict_age);
    w.list16("body", body, 0, MaxSnapshotBytes);
  }
};

}  // namespace tickwire::protocol

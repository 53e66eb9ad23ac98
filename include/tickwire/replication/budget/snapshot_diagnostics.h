// Snapshot diagnostics: what one client's snapshot for one tick was made of (bytes by section,
// records sent, skipped for the budget and unchanged, the baseline's age, fragments), a window
// that sums them between two periodic lines, and the formatter of that line. Per-tick figures are
// plain counters; only the periodic line builds a string.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "tickwire/clock/tick.h"
#include "tickwire/replication/fragments/snapshot_slicer.h"

namespace tickwire {

struct SnapshotDiagnostics {
  Tick tick;
  uint16_t client = 0;
  bool sent = false;  // false: the encoder refused the frame (past MaxSnapshotBytes); nothing went out

  // Composition.
  uint32_t visible = 0;     // the client's interest set
  uint32_t candidates = 0;  // visible entities on a lane open this tick
  uint32_t selected = 0;    // fitted into the budget (current state in the frame)
  uint32_t skipped = 0;     // candidates left out by the budget (their priority keeps growing)
  uint32_t held = 0;        // visible, not selected, keeping the state last sent (absent if never sent)
  uint32_t hold_bytes = 0;  // estimated cost of the held states the baseline does not have yet
  uint32_t reverted = 0;    // held states the budget could not carry: back to the baseline's state
  uint32_t dropped_orphans = 0;  // left out because a required parent was not in the frame
  uint32_t frames_refused = 0;   // scene frames that waited whole
  uint32_t frame_entities = 0;   // entity states in the client's frame
  uint32_t shared = 0;           // shared states (map objects) in it, outside fitting
  uint32_t shared_bytes = 0;     // their estimated cost, taken from the budget first
  uint32_t copied = 0;           // states the frame keeps as its own copies, not in a shared world frame
  uint32_t refits = 0;           // 1: the first fit spilled past one message (or a loose one past
                                 // the budget) and was fitted again
  bool loose = false;  // the budget was far from binding: nothing estimated, the coded size checked

  // The body, as the encoder counted it.
  uint32_t records_sent = 0;  // changed + added records
  uint32_t unchanged = 0;
  uint32_t removed = 0;
  std::size_t header_bits = 0, entity_bits = 0, object_bits = 0, removal_bits = 0, skip_bits = 0;
  std::size_t body_bytes = 0;
  std::size_t message_bytes = 0;      // the SnapshotDelta message, id byte included
  uint32_t estimated_record_bytes = 0;  // what budget fitting expected the records to take
  uint32_t record_budget_bytes = 0;     // what it was allowed, in estimate units (real bytes / scale)
  float estimate_scale = 1.0f;          // real record bytes per estimated byte, as learnt so far

  // References and transport.
  uint32_t baseline_age_ticks = 0;  // 0: no acknowledged baseline (coded against nothing)
  uint32_t predict_age_ticks = 0;
  SliceOutcome slice = SliceOutcome::whole;
  std::size_t fragments = 0;  // 1 when sent whole
};

// Sums of the per-tick diagnostics between two periodic lines.
struct SnapshotDiagnosticsWindow {
  uint64_t snapshots = 0, refused = 0, fragmented = 0, over_ceiling = 0, without_baseline = 0;
  uint64_t visible = 0, selected = 0, skipped = 0, records_sent = 0, unchanged = 0, removed = 0, copied = 0;
  uint64_t header_bits = 0, entity_bits = 0, object_bits = 0, removal_bits = 0, skip_bits = 0;
  uint64_t message_bytes = 0, max_message_bytes = 0, estimated_record_bytes = 0, loose = 0;
  uint64_t baseline_age_ticks = 0, max_baseline_age_ticks = 0, fragments = 0, max_fragments = 0;

  void add(const SnapshotDiagnostics& d);
  void reset() { *this = SnapshotDiagnosticsWindow{}; }
};

// One line: "client 3 at tick 600, 60 snapshots: bytes mean 412 max 980 (header 31, entities 350,
// objects 0, removals 2, skips 29 mean) ...". Per snapshot means over the window.
std::string format_snapshot_diagnostics(uint16_t client, Tick tick, const SnapshotDiagnosticsWindow& window);

}  // namespace tickwire

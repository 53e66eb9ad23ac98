// The server's snapshot budget in the log: a full-state snapshot has the same shape tick after
// tick, so one line per composition change (a different entity count, or a crossing of the budget:
// whole <-> fragmented, a new fragment count, the ceiling) and a periodic diagnostics line with the detail.
// A crossing is info (the ceiling a warning); a count changed within the budget is debug.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "tickwire/clock/tick.h"
#include "tickwire/clock/time.h"
#include "tickwire/replication/fragments/snapshot_fragment_budget.h"
#include "tickwire/replication/fragments/snapshot_slicer.h"

namespace spdlog {
class logger;
}

namespace tickwire {

struct SnapshotBudgetLogConfig {
  Duration diagnostics_interval = Duration::seconds(10);  // one diagnostics line per interval
};

// What one tick's snapshot was, as the server composed and sliced it.
struct SnapshotComposition {
  uint32_t entity_count = 0;
  std::size_t snapshot_bytes = 0;  // the whole encoded snapshot, id byte included
  SliceResult slice;
};

class SnapshotBudgetLog {
 public:
  // `logger` null: spdlog's default logger.
  SnapshotBudgetLog(const SnapshotFragmentBudget& budget, const SnapshotBudgetLogConfig& config,
                    std::shared_ptr<spdlog::logger> logger = nullptr);

  // The snapshot composed for `tick` at `now`; logs when its composition changed or a
  // diagnostics interval has passed since the last diagnostics line (or the first record).
  void record(MonoTime now, Tick tick, const SnapshotComposition& composition);

  // Closes the first diagnostics window after `fraction` (in (0, 1]) of the interval, so the
  // periodic lines of clients that joined together fall on different ticks rather than all on one
  // (a thousand lines formatted in one tick is a hitch of a whole tick).
  void stagger(double fraction);

  uint64_t composition_lines() const { return composition_lines_; }
  uint64_t diagnostics_lines() const { return diagnostics_lines_; }

 private:
  // The part of a composition whose change is worth a line.
  struct Shape {
    uint32_t entity_count = 0;
    SliceOutcome outcome = SliceOutcome::whole;
    std::size_t fragment_count = 0;
    bool operator==(const Shape&) const = default;
  };
  // What the diagnostics line sums over its interval.
  struct Window {
    uint64_t snapshots = 0, whole = 0, fragmented = 0, over_ceiling = 0;
    uint64_t total_bytes = 0, max_bytes = 0, total_fragments = 0, max_fragments = 0;
  };
  void log_composition(Tick tick, const SnapshotComposition& composition, bool crossed);
  void log_diagnostics(MonoTime now, Tick tick, const SnapshotComposition& last);

  SnapshotFragmentBudget budget_;
  SnapshotBudgetLogConfig config_;
  std::shared_ptr<spdlog::logger> logger_;
  bool has_shape_ = false;
  Shape shape_;
  bool window_open_ = false;
  MonoTime window_start_;
  Duration window_length_;  // the interval, bar a staggered first window
  Window window_;
  uint64_t composition_lines_ = 0;
  uint64_t diagnostics_lines_ = 0;
};

}  // namespace tickwire

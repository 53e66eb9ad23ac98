// The budget log's two decisions (has the composition changed? has an interval passed?) and the
// lines they write.
#include "tickwire/replication/budget/snapshot_budget_log.h"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "tickwire/core/assert.h"

namespace tickwire {

SnapshotBudgetLog::SnapshotBudgetLog(const SnapshotFragmentBudget& budget, const SnapshotBudgetLogConfig& config,
                                     std::shared_ptr<spdlog::logger> logger)
    : budget_(SnapshotFragmentBudget::of(budget.message_cap_bytes)),
      config_(config),
      logger_(logger ? std::move(logger) : spdlog::default_logger()),
      window_length_(config.diagnostics_interval) {
  TW_ASSERT(config.diagnostics_interval > Duration(), "the diagnostics interval must be positive");
}

void SnapshotBudgetLog::stagger(double fraction) {
  TW_ASSERT(fraction > 0.0 && fraction <= 1.0, "a staggered first window is a fraction of the interval");
  window_length_ = Duration::from_seconds(config_.diagnostics_interval.seconds_f() * fraction);
}

void SnapshotBudgetLog::record(MonoTime now, Tick tick, const SnapshotComposition& composition) {
  const Shape shape{composition.entity_count, composition.slice.outcome, composition.slice.fragment_count};
  if (!has_shape_ || !(shape == shape_)) {
    // A crossing of the budget (whole <-> fragmented, a new fragment count, the ceiling) is the
    // operator's news; a count that changed within it is routine under interest management (a crowd
    // walking through each other's radius changes some client's count every tick), so it is debug.
    const bool crossed = !has_shape_ || shape.outcome != shape_.outcome || shape.fragment_count != shape_.fragment_count;
    has_shape_ = true;
    shape_ = shape;
    log_composition(tick, composition, crossed);
  }
  if (!window_open_) {
    window_open_ = true;
    window_start_ = now;
    window_ = Window{};
  }
  window_.snapshots += 1;
  window_.total_bytes += composition.snapshot_bytes;
  window_.max_bytes = std::max<uint64_t>(window_.max_bytes, composition.snapshot_bytes);
  window_.total_fragments += composition.slice.fragment_count;
  window_.max_fragments = std::max<uint64_t>(window_.max_fragments, composition.slice.fragment_count);
  switch (composition.slice.outcome) {
    case SliceOutcome::whole: ++window_.whole; break;
    case SliceOutcome::fragmented: ++window_.fragmented; break;
    case SliceOutcome::over_ceiling: ++window_.over_ceiling; break;
  }
  if (now - window_start_ >= window_length_) {
    log_diagnostics(now, tick, composition);
    window_start_ = now;
    window_length_ = config_.diagnostics_interval;
    window_ = Window{};
  }
}

void SnapshotBudgetLog::log_composition(Tick tick, const SnapshotComposition& c, bool crossed) {
  ++composition_lines_;
  const spdlog::level::level_enum level = crossed ? spdlog::level::info : spdlog::level::debug;
  switch (c.slice.outcome) {
    case SliceOutcome::whole:
      logger_->log(level, "snapshot composition at tick {}: {} entities, {} bytes, whole (budget {} bytes)",
                   tick.value(), c.entity_count, c.snapshot_bytes, budget_.whole_max_bytes());
      return;
    case SliceOutcome::fragmented:
      logger_->log(level, "snapshot composition at tick {}: {} entities, {} bytes, {} fragments of up to {} bytes",
                   tick.value(), c.entity_count, c.snapshot_bytes, c.slice.fragment_count, budget_.max_slice_bytes());
      return;
    case SliceOutcome::over_ceiling:
      logger_->log(
          crossed ? spdlog::level::warn : spdlog::level::debug,
          "snapshot composition at tick {}: {} entities, {} bytes, past the ceiling of {} fragments ({} bytes): "
          "not sent",
          tick.value(), c.entity_count, c.snapshot_bytes, protocol::MaxSnapshotFragments, budget_.ceiling_bytes());
      return;
  }
}

void SnapshotBudgetLog::log_diagnostics(MonoTime now, Tick tick, const SnapshotComposition& last) {
  ++diagnostics_lines_;
  const Window& w = window_;
  const double mean_bytes = static_cast<double>(w.total_bytes) / static_cast<double>(w.snapshots);
  const double mean_fragments =
      w.fragmented > 0 ? static_cast<double>(w.total_fragments) / static_cast<double>(w.fragmented) : 0.0;
  logger_->info(
      "snapshot diagnostics at tick {} over {:.1f} s: {} snapshots ({} whole, {} fragmented, {} not sent); "
      "entities {}; bytes last {} mean {:.0f} max {}; fragments last {} mean {:.1f} max {}",
      tick.value(), (now - window_start_).seconds_f(), w.snapshots, w.whole, w.fragmented, w.over_ceiling,
      last.entity_count, last.snapshot_bytes, mean_bytes, w.max_bytes, last.slice.fragment_count, mean_fragments,
      w.max_fragments);
}

}  // namespace tickwire

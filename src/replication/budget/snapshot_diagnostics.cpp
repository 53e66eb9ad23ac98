// The diagnostics window's sums and the periodic line: means per snapshot, maxima where a spike
// matters (message bytes, baseline age, fragments).
#include "tickwire/replication/budget/snapshot_diagnostics.h"

#include <fmt/format.h>

#include <algorithm>

namespace tickwire {

void SnapshotDiagnosticsWindow::add(const SnapshotDiagnostics& d) {
  ++snapshots;
  if (!d.sent) {
    ++refused;
    return;
  }
  fragmented += d.slice == SliceOutcome::fragmented ? 1u : 0u;
  over_ceiling += d.slice == SliceOutcome::over_ceiling ? 1u : 0u;
  without_baseline += d.baseline_age_ticks == 0 ? 1u : 0u;
  visible += d.visible;
  selected += d.selected;
  skipped += d.skipped;
  records_sent += d.records_sent;
  unchanged += d.unchanged;
  removed += d.removed;
  copied += d.copied;
  header_bits += d.header_bits;
  entity_bits += d.entity_bits;
  object_bits += d.object_bits;
  removal_bits += d.removal_bits;
  skip_bits += d.skip_bits;
  message_bytes += d.message_bytes;
  max_message_bytes = std::max<uint64_t>(max_message_bytes, d.message_bytes);
  estimated_record_bytes += d.estimated_record_bytes;
  loose += d.loose ? 1u : 0u;
  baseline_age_ticks += d.baseline_age_ticks;
  max_baseline_age_ticks = std::max<uint64_t>(max_baseline_age_ticks, d.baseline_age_ticks);
  fragments += d.fragments;
  max_fragments = std::max<uint64_t>(max_fragments, d.fragments);
}

std::string format_snapshot_diagnostics(uint16_t client, Tick tick, const SnapshotDiagnosticsWindow& w) {
  const uint64_t sent = w.snapshots - w.refused;
  const double n = static_cast<double>(std::max<uint64_t>(1, sent));
  const auto mean = [n](uint64_t total) { return static_cast<double>(total) / n; };
  const auto mean_bytes = [n](uint64_t bits) { return static_cast<double>(bits) / 8.0 / n; };
  return fmt::format(
      "snapshot diagnostics client {} at tick {}: {} snapshots ({} refused, {} fragmented, {} past the ceiling, {} "
      "without baseline); bytes mean {:.0f} max {} (header {:.1f}, entities {:.1f}, objects {:.1f}, removals {:.1f}, "
      "unchanged runs {:.1f}; records estimated {:.1f}, {} loose unestimated); records per snapshot: visible {:.1f}, selected {:.1f}, "
      "skipped for budget {:.1f}, sent {:.1f}, unchanged {:.1f}, removed {:.1f}, kept as copies {:.1f}; baseline age mean {:.1f} max {} "
      "ticks; fragments mean {:.2f} max {}",
      client, tick.value(), w.snapshots, w.refused, w.fragmented, w.over_ceiling, w.without_baseline,
      mean(w.message_bytes), w.max_message_bytes, mean_bytes(w.header_bits), mean_bytes(w.entity_bits),
      mean_bytes(w.object_bits), mean_bytes(w.removal_bits), mean_bytes(w.skip_bits), mean(w.estimated_record_bytes), w.loose,
      mean(w.visible), mean(w.selected), mean(w.skipped), mean(w.records_sent), mean(w.unchanged), mean(w.removed), mean(w.copied),
      mean(w.baseline_age_ticks), w.max_baseline_age_ticks, mean(w.fragments), w.max_fragments);
}

}  // namespace tickwire

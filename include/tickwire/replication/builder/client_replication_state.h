// ClientReplicationState: everything the server keeps about one client's snapshots between ticks:
// its priority accumulators, the frames it was sent (delta baselines once acked), its budget log
// and its diagnostics. Owned by the caller (the room, one per session); the builder only reads and
// updates it, so the builder itself is shared by every client.
#pragma once

#include <cstdint>
#include <memory>

#include "tickwire/replication/budget/priority_budget.h"
#include "tickwire/replication/frames/sent_frame_history.h"
#include "tickwire/replication/budget/snapshot_budget_log.h"
#include "tickwire/replication/budget/snapshot_diagnostics.h"
#include "tickwire/replication/delta/record_bits.h"

namespace spdlog {
class logger;
}

namespace tickwire {

struct ClientReplicationConfig {
  uint32_t max_entities = 4096;  // the interest world's capacity (InterestWorld::max_entities())
  uint32_t history_frames = SentFrameHistory::kMaxFrames;
  SnapshotFragmentBudget fragments = SnapshotFragmentBudget::of(protocol::MaxPacketBytes - 100);
  SnapshotBudgetLogConfig log;
  std::shared_ptr<spdlog::logger> logger;  // null: spdlog's default logger
};

class ClientReplicationState {
 public:
  explicit ClientReplicationState(const ClientReplicationConfig& config)
      : fragments(config.fragments),
        priority(config.max_entities),
        history(config.history_frames),
        budget_log(config.fragments, config.log, config.logger) {}

  // The transport acknowledged every packet of the snapshot for `tick`: it becomes a baseline.
  // False when that frame is not held (too old or never sent); nothing changes then.
  bool acknowledge(Tick tick) { return history.acknowledge(tick); }

  const SnapshotFragmentBudget fragments;  // the client's snapshot channel: whole, sliced or refused
  ClientPriorityState priority;
  SentFrameHistory history;
  SnapshotBudgetLog budget_log;     // one line per composition change, and a periodic summary
  // Real record bytes per estimated byte, learnt from this client's bodies (ClientSnapshotBuilder).
  static constexpr float kMinEstimateScale = 0.1f;
  static constexpr float kMaxEstimateScale = 2.0f;
  float estimate_scale = 1.0f;
  // The recent snapshots' largest message, easing down by an eighth a build (so a lane's big tick
  // every few is remembered between them): whether the budget is loose (ClientSnapshotBuilder).
  uint32_t peak_message_bytes = 0;
  SnapshotDiagnostics last;         // the newest build's figures
  SnapshotDiagnosticsWindow window;  // sums since the caller last formatted and reset it
  // While someone inspects this client's snapshots: each coded record's bits in the newest body
  // (null otherwise: the encoder then logs nothing).
  std::unique_ptr<RecordBitsLog> record_bits;
};

}  // namespace tickwire

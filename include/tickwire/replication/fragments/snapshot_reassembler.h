// The client's side of snapshot fragmentation: fragments keyed by tick are gathered into one buffer
// allocated once at MaxSnapshotBytes, and only a complete set is handed on. A fragment of a newer
// tick abandons the partial set in progress, so a lost fragment costs its tick and never a backlog.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "tickwire/protocol/constants.h"
#include "tickwire/protocol/snapshot_fragment.h"
#include "tickwire/replication/fragments/fragment_refusal.h"
#include "tickwire/replication/fragments/snapshot_fragment_budget.h"

namespace tickwire {

struct SnapshotReassemblerConfig {
  SnapshotFragmentBudget budget;  // the sender's: a slice longer than its max_slice_bytes is refused
  std::size_t max_snapshot_bytes = protocol::MaxSnapshotBytes;  // a set that would complete past it is refused
};

enum class FragmentOutcome : uint8_t {
  refused,    // see reason; the set in progress is untouched unless the reason is snapshot_too_large
  stored,     // taken; the set is still incomplete
  completed,  // this fragment completed its set: `snapshot` holds the whole snapshot
};

struct FragmentVerdict {
  FragmentOutcome outcome = FragmentOutcome::refused;
  FragmentRefusal reason = FragmentRefusal::count_;  // set when refused
  bool abandoned = false;  // taking this fragment abandoned a partial set of an older tick
  uint32_t tick = 0;
  // When completed: the whole snapshot message, id byte first; valid until the next accept().
  std::span<const uint8_t> snapshot;
};

class SnapshotReassembler {
 public:
  // Allocates its one buffer here; accept() never allocates.
  explicit SnapshotReassembler(const SnapshotReassemblerConfig& config);

  FragmentVerdict accept(uint32_t tick, uint8_t index, uint8_t count, std::span<const uint8_t> slice);
  // The same, for a decoded message.
  FragmentVerdict accept(const protocol::SnapshotFragment& fragment);

  bool in_progress() const { return in_progress_; }
  uint32_t set_tick() const { return set_tick_; }  // meaningful while in_progress()
  std::size_t set_received_fragments() const { return set_received_; }
  std::optional<uint32_t> last_completed_tick() const { return last_completed_; }

  const FragmentRefusalCounters& refusals() const { return refusals_; }
  uint64_t stored_fragments() const { return stored_; }
  uint64_t completed_sets() const { return completed_; }
  uint64_t abandoned_sets() const { return abandoned_; }
  std::size_t memory_bytes() const { return buffer_.size(); }
  const SnapshotReassemblerConfig& config() const { return config_; }

 private:
  FragmentVerdict admit(uint32_t tick, uint8_t index, uint8_t count, std::size_t slice_bytes);
  FragmentVerdict refuse(FragmentRefusal reason, uint32_t tick, bool abandoned = false);
  FragmentVerdict commit(FragmentVerdict verdict, uint8_t index, std::size_t slice_bytes);
  void close_tick(uint32_t tick);
  uint8_t* slot(uint8_t index) { return buffer_.data() + std::size_t{index} * stride_bytes_; }

  SnapshotReassemblerConfig config_;
  std::size_t stride_bytes_;      // slice i is held at i * stride until the set completes
  std::vector<uint8_t> buffer_;   // MaxSnapshotBytes, allocated once
  std::array<uint16_t, protocol::MaxSnapshotFragments> slice_bytes_{};
  bool in_progress_ = false;
  uint32_t set_tick_ = 0;
  uint8_t set_count_ = 0;
  uint32_t set_received_mask_ = 0;
  std::size_t set_received_ = 0;
  std::size_t set_bytes_ = 0;
  std::optional<uint32_t> closed_tick_;     // newest tick completed or refused: older ones are stale
  std::optional<uint32_t> last_completed_;
  FragmentRefusalCounters refusals_;
  uint64_t stored_ = 0;
  uint64_t completed_ = 0;
  uint64_t abandoned_ = 0;
};

}  // namespace tickwire

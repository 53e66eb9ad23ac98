// The server's side of snapshot fragmentation: a snapshot that fits one unreliable message goes
// whole, byte for byte; a larger one is sliced, its message id byte included, into at most
// MaxSnapshotFragments SnapshotFragment messages keyed by tick; one past that ceiling is not sent.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "tickwire/clock/tick.h"
#include "tickwire/protocol/constants.h"
#include "tickwire/protocol/snapshot_fragment.h"
#include "tickwire/replication/fragments/snapshot_fragment_budget.h"

namespace tickwire {

enum class SliceOutcome : uint8_t {
  whole,         // fits one message: send the snapshot as it is
  fragmented,    // send fragment(0) .. fragment(fragment_count - 1)
  over_ceiling,  // would need more than MaxSnapshotFragments: not sent (counted)
};

std::string_view slice_outcome_name(SliceOutcome outcome);

struct SliceResult {
  SliceOutcome outcome = SliceOutcome::whole;
  std::size_t fragment_count = 0;  // fragments written; 0 unless fragmented
};

class SnapshotSlicer {
 public:
  // Allocates all its storage here; slice() never allocates.
  explicit SnapshotSlicer(const SnapshotFragmentBudget& budget);

  // Slices `snapshot`, a whole encoded snapshot message (id byte first), taken at `tick`.
  SliceResult slice(Tick tick, std::span<const uint8_t> snapshot);
  // The i-th fragment of the last fragmented slice(): an encoded SnapshotFragment message, its id
  // byte first (NetChannel sends it as type fragment[0], payload the rest). Valid until slice().
  std::span<const uint8_t> fragment(std::size_t index) const;

  const SnapshotFragmentBudget& budget() const { return budget_; }
  uint64_t whole_snapshots() const { return whole_; }
  uint64_t fragmented_snapshots() const { return fragmented_; }
  uint64_t fragments_written() const { return fragments_written_; }
  // Snapshots refused because they were past the ceiling: an error of the game's (too much state).
  uint64_t over_ceiling() const { return over_ceiling_; }

 private:
  void write_fragment(uint32_t tick, std::size_t index, std::size_t count, std::span<const uint8_t> slice);

  SnapshotFragmentBudget budget_;
  // MaxSnapshotFragments message slots, each of which a message_cap_bytes message fits.
  std::vector<std::array<uint8_t, protocol::MaxPacketBytes>> storage_;
  std::array<std::size_t, protocol::MaxSnapshotFragments> sizes_{};
  std::size_t fragment_count_ = 0;
  protocol::SnapshotFragment scratch_;  // its slice's capacity reserved at max_slice_bytes
  uint64_t whole_ = 0;
  uint64_t fragmented_ = 0;
  uint64_t fragments_written_ = 0;
  uint64_t over_ceiling_ = 0;
};

}  // namespace tickwire

// Snapshot reassembly: every rule is checked before a byte is copied; slices are held at fixed
// strides while the set fills and packed together once it is complete, all inside one buffer.
#include "tickwire/replication/fragments/snapshot_reassembler.h"

#include <cstring>

#include "tickwire/core/assert.h"

namespace tickwire {

SnapshotReassembler::SnapshotReassembler(const SnapshotReassemblerConfig& config)
    : config_(config),
      stride_bytes_(SnapshotFragmentBudget::of(config.budget.message_cap_bytes).max_slice_bytes()),
      buffer_(protocol::MaxSnapshotBytes) {
  TW_ASSERT(config.max_snapshot_bytes > 0 && config.max_snapshot_bytes <= protocol::MaxSnapshotBytes,
            "max_snapshot_bytes must be within MaxSnapshotBytes");
  TW_ASSERT(stride_bytes_ * protocol::MaxSnapshotFragments <= buffer_.size(), "every slot must fit the buffer");
}

FragmentVerdict SnapshotReassembler::refuse(FragmentRefusal reason, uint32_t tick, bool abandoned) {
  refusals_.add(reason);
  FragmentVerdict verdict;
  verdict.reason = reason;
  verdict.tick = tick;
  verdict.abandoned = abandoned;
  return verdict;
}

void SnapshotReassembler::close_tick(uint32_t tick) {
  in_progress_ = false;
  closed_tick_ = tick;
}

FragmentVerdict SnapshotReassembler::admit(uint32_t tick, uint8_t index, uint8_t count, std::size_t slice_bytes) {
  // The fragment alone.
  if (count == 0) return refuse(FragmentRefusal::count_zero, tick);
  if (count > protocol::MaxSnapshotFragments) return refuse(FragmentRefusal::count_over_max, tick);
  if (index >= count) return refuse(FragmentRefusal::index_out_of_range, tick);
  if (slice_bytes == 0) return refuse(FragmentRefusal::empty_slice, tick);
  if (slice_bytes > stride_bytes_) return refuse(FragmentRefusal::slice_too_large, tick);
  // Its tick against what was already closed and what is in progress.
  if (closed_tick_ && tick <= *closed_tick_) {
    return refuse(tick == *closed_tick_ ? FragmentRefusal::tick_closed : FragmentRefusal::stale_tick, tick);
  }
  if (in_progress_ && tick < set_tick_) return refuse(FragmentRefusal::stale_tick, tick);
  bool abandoned = false;
  if (!in_progress_ || tick > set_tick_) {
    abandoned = in_progress_;
    if (abandoned) ++abandoned_;
    in_progress_ = true;
    set_tick_ = tick;
    set_count_ = count;
    set_received_mask_ = 0;
    set_received_ = 0;
    set_bytes_ = 0;
  }
  // Its place in the set.
  if (count != set_count_) return refuse(FragmentRefusal::count_mismatch, tick, abandoned);
  if (set_received_mask_ & (uint32_t{1} << index)) return refuse(FragmentRefusal::duplicate_index, tick, abandoned);
  if (set_bytes_ + slice_bytes > config_.max_snapshot_bytes) {
    close_tick(tick);  // it can never complete within the maximum
    return refuse(FragmentRefusal::snapshot_too_large, tick, abandoned);
  }
  FragmentVerdict verdict;
  verdict.outcome = FragmentOutcome::stored;
  verdict.tick = tick;
  verdict.abandoned = abandoned;
  return verdict;
}

FragmentVerdict SnapshotReassembler::commit(FragmentVerdict verdict, uint8_t index, std::size_t slice_bytes) {
  set_received_mask_ |= uint32_t{1} << index;
  slice_bytes_[index] = static_cast<uint16_t>(slice_bytes);
  set_bytes_ += slice_bytes;
  ++set_received_;
  ++stored_;
  if (set_received_ < set_count_) return verdict;
  // Complete: pack the slices in index order (each moves down or stays, so memmove is safe).
  std::size_t packed = 0;
  for (uint8_t i = 0; i < set_count_; ++i) {
    if (packed != std::size_t{i} * stride_bytes_) std::memmove(buffer_.data() + packed, slot(i), slice_bytes_[i]);
    packed += slice_bytes_[i];
  }
  TW_ASSERT(packed == set_bytes_ && packed <= config_.max_snapshot_bytes, "a completed set is its slices");
  close_tick(set_tick_);
  last_completed_ = set_tick_;
  ++completed_;
  verdict.outcome = FragmentOutcome::completed;
  verdict.snapshot = std::span<const uint8_t>(buffer_.data(), packed);
  return verdict;
}

FragmentVerdict SnapshotReassembler::accept(uint32_t tick, uint8_t index, uint8_t count,
                                            std::span<const uint8_t> slice) {
  const FragmentVerdict verdict = admit(tick, index, count, slice.size());
  if (verdict.outcome == FragmentOutcome::refused) return verdict;
  std::memcpy(slot(index), slice.data(), slice.size());
  return commit(verdict, index, slice.size());
}

FragmentVerdict SnapshotReassembler::accept(const protocol::SnapshotFragment& fragment) {
  const std::size_t length = fragment.slice.size();
  const FragmentVerdict verdict = admit(fragment.tick, fragment.fragment_index, fragment.fragment_count, length);
  if (verdict.outcome == FragmentOutcome::refused) return verdict;
  uint8_t* out = slot(fragment.fragment_index);
  for (std::size_t i = 0; i < length; ++i) out[i] = fragment.slice[i].value;
  return commit(verdict, fragment.fragment_index, length);
}

}  // namespace tickwire

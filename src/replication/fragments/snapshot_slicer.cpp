// Slicing a snapshot into fragment messages written through the fragment's own field table, into
// storage sized once for the ceiling: full slices first, the remainder last.
#include "tickwire/replication/fragments/snapshot_slicer.h"

#include <algorithm>

#include "tickwire/core/assert.h"
#include "tickwire/wire/codec.h"

namespace tickwire {

std::string_view slice_outcome_name(SliceOutcome outcome) {
  switch (outcome) {
    case SliceOutcome::whole: return "whole";
    case SliceOutcome::fragmented: return "fragmented";
    case SliceOutcome::over_ceiling: return "over_ceiling";
  }
  return "unknown";
}

SnapshotSlicer::SnapshotSlicer(const SnapshotFragmentBudget& budget)
    : budget_(SnapshotFragmentBudget::of(budget.message_cap_bytes)),
      storage_(protocol::MaxSnapshotFragments) {
  scratch_.slice.reserve(budget_.max_slice_bytes());
}

SliceResult SnapshotSlicer::slice(Tick tick, std::span<const uint8_t> snapshot) {
  fragment_count_ = 0;
  if (snapshot.size() <= budget_.whole_max_bytes()) {
    ++whole_;
    return {SliceOutcome::whole, 0};
  }
  if (snapshot.size() > budget_.ceiling_bytes()) {
    ++over_ceiling_;
    return {SliceOutcome::over_ceiling, 0};
  }
  const std::size_t slice_bytes = budget_.max_slice_bytes();
  const std::size_t count = budget_.fragments_for(snapshot.size());
  TW_ASSERT(count >= 2 && count <= protocol::MaxSnapshotFragments, "a fragmented snapshot needs 2..16 fragments");
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t offset = i * slice_bytes;
    const std::size_t length = std::min(slice_bytes, snapshot.size() - offset);
    write_fragment(tick.wire_u32(), i, count, snapshot.subspan(offset, length));
  }
  fragment_count_ = count;
  ++fragmented_;
  fragments_written_ += count;
  return {SliceOutcome::fragmented, count};
}

void SnapshotSlicer::write_fragment(uint32_t tick, std::size_t index, std::size_t count,
                                    std::span<const uint8_t> slice) {
  scratch_.tick = tick;
  scratch_.fragment_index = static_cast<uint8_t>(index);
  scratch_.fragment_count = static_cast<uint8_t>(count);
  scratch_.slice.resize(slice.size());  // within the reserved capacity: no allocation
  for (std::size_t i = 0; i < slice.size(); ++i) scratch_.slice[i].value = slice[i];
  const std::span<uint8_t> out(storage_[index].data(), budget_.message_cap_bytes);
  const Result<std::size_t> written = wire::encode_message(scratch_, out);
  TW_ASSERT(written.ok() && *written == slice.size() + protocol::SnapshotFragmentHeaderBytes,
            "a fragment message must take exactly its header and its slice");
  sizes_[index] = *written;
}

std::span<const uint8_t> SnapshotSlicer::fragment(std::size_t index) const {
  TW_ASSERT(index < fragment_count_, "asking for a fragment the last slice() did not write");
  return {storage_[index].data(), sizes_[index]};
}

}  // namespace tickwire

// Fragment checks in a fixed order: caps first (count, index, emptiness, block size, offset range),
// then agreement with the set in progress, then overlap with the nearest received neighbours
// (fragments tile the block in index order), and only then the copy.
#include "tickwire/transport/fragment_reassembly.h"

#include <cstring>

#include "tickwire/core/assert.h"

namespace tickwire {

FragmentReassembly::FragmentReassembly(uint32_t max_block_bytes, uint32_t max_fragments)
    : max_block_bytes_(max_block_bytes),
      max_fragments_(max_fragments),
      buffer_(new uint8_t[max_block_bytes]),  // untouched until a block arrives: a connection costs no 64 KiB up front
      offsets_(max_fragments),
      lengths_(max_fragments),
      received_(max_fragments) {
  TW_ASSERT(max_fragments <= UINT16_MAX, "fragment indices are 16-bit");
}

std::size_t FragmentReassembly::memory_bytes() const {
  return max_block_bytes_ + offsets_.size() * sizeof(uint32_t) + lengths_.size() * sizeof(uint16_t) + received_.size();
}

TransportReason FragmentReassembly::check_caps(const FragmentHeader& f, std::size_t length) const {
  using R = TransportReason;
  if (f.fragment_count > max_fragments_) return R::fragment_count_over_cap;
  if (f.fragment_index >= f.fragment_count) return R::fragment_id_out_of_range;
  if (length == 0) return R::fragment_empty;
  if (f.block_bytes == 0 || f.block_bytes > max_block_bytes_) return R::block_too_large;
  if (static_cast<uint64_t>(f.offset) + length > f.block_bytes) return R::fragment_overflows_block;
  return R::count_;
}

void FragmentReassembly::begin(uint16_t message_id, const FragmentHeader& f) {
  active_ = true;
  complete_ = false;
  message_id_ = message_id;
  fragment_count_ = f.fragment_count;
  block_bytes_ = f.block_bytes;
  received_count_ = 0;
  received_bytes_ = 0;
  std::memset(received_.data(), 0, fragment_count_);
}

bool FragmentReassembly::overlaps_neighbours(uint16_t index, uint32_t offset, std::size_t length) const {
  for (uint32_t j = index; j-- > 0;) {
    if (!received_[j]) continue;
    if (static_cast<uint64_t>(offsets_[j]) + lengths_[j] > offset) return true;
    break;
  }
  for (uint32_t k = index + 1u; k < fragment_count_; ++k) {
    if (!received_[k]) continue;
    if (static_cast<uint64_t>(offset) + length > offsets_[k]) return true;
    break;
  }
  return false;
}

FragmentReassembly::Result FragmentReassembly::add(uint16_t message_id, const FragmentHeader& f,
                                                   std::span<const uint8_t> bytes, MonoTime now) {
  using R = TransportReason;
  if (const R reason = check_caps(f, bytes.size()); reason != R::count_) return {Outcome::rejected, reason};
  if (active_ && message_id != message_id_) return {Outcome::rejected, R::fragment_set_busy};
  if (active_ && (f.fragment_count != fragment_count_ || f.block_bytes != block_bytes_)) {
    return {Outcome::rejected, R::fragment_set_mismatch};
  }
  if (!active_) begin(message_id, f);
  if (complete_) return {Outcome::duplicate};
  const uint16_t i = f.fragment_index;
  if (received_[i]) {
    if (offsets_[i] == f.offset && lengths_[i] == bytes.size()) return {Outcome::duplicate};
    return {Outcome::rejected, R::fragment_set_mismatch};
  }
  if (overlaps_neighbours(i, f.offset, bytes.size())) return {Outcome::rejected, R::fragment_overlap};
  std::memcpy(buffer_.get() + f.offset, bytes.data(), bytes.size());
  received_[i] = 1;
  offsets_[i] = f.offset;
  lengths_[i] = static_cast<uint16_t>(bytes.size());
  ++received_count_;
  received_bytes_ += bytes.size();
  last_progress_ = now;
  if (received_count_ < fragment_count_) return {Outcome::stored};
  if (received_bytes_ != block_bytes_) {
    reset();
    return {Outcome::broken, R::fragment_set_gap};
  }
  complete_ = true;
  return {Outcome::completed};
}

}  // namespace tickwire

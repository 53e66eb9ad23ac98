// Reliable receive queue. A message beyond the window, or one the pool cannot hold, is fatal: the
// peer's send window is within ours, so an honest peer only gets there when the app stopped
// draining, and waiting would stall the connection forever.
#include "tickwire/transport/reliable_receive_queue.h"

#include "tickwire/core/assert.h"
#include "tickwire/core/sequence.h"

namespace tickwire {

ReliableReceiveQueue::ReliableReceiveQueue(const ChannelConfig& config)
    : config_(config),
      pool_(config.receive_queue_bytes, config.pool_chunk_bytes),
      slots_(config.receive_window_messages),
      delivery_(config.max_message_bytes) {
  TW_ASSERT(config.is_reliable(), "a reliable receive queue needs a reliable channel");
  if (config.blocks_enabled()) reassembly_.emplace(config.max_block_bytes, config.max_fragments);
}

std::size_t ReliableReceiveQueue::memory_bytes() const {
  return pool_.memory_bytes() + slots_.size() * sizeof(Slot) + delivery_.size() +
         (reassembly_ ? reassembly_->memory_bytes() : 0);
}

int64_t ReliableReceiveQueue::offset_of(uint16_t message_id) const {
  return sequence_difference(message_id, static_cast<uint16_t>(next_index_));
}

EntryOutcome ReliableReceiveQueue::on_message(uint16_t message_id, std::span<const uint8_t> bytes) {
  using R = TransportReason;
  if (bytes.size() > config_.max_message_bytes) return {EntryOutcome::dropped, R::message_too_large};
  const int64_t offset = offset_of(message_id);
  if (offset < 0) return {EntryOutcome::duplicate, R::duplicate_message};
  if (offset >= static_cast<int64_t>(slots_.size())) return {EntryOutcome::fatal, R::receive_queue_overflow};
  Slot& s = slot(next_index_ + static_cast<uint64_t>(offset));
  if (s.state != SlotState::empty) return {EntryOutcome::duplicate, R::duplicate_message};
  if (!pool_.store(bytes, {}, s.data)) return {EntryOutcome::fatal, R::receive_queue_overflow};
  s.state = SlotState::message;
  ++held_messages_;
  return {EntryOutcome::accepted};
}

EntryOutcome ReliableReceiveQueue::on_fragment(uint16_t message_id, const FragmentHeader& fragment,
                                               std::span<const uint8_t> bytes, MonoTime now) {
  using R = TransportReason;
  if (!reassembly_) return {EntryOutcome::dropped, R::wrong_channel_kind};
  if (const R reason = reassembly_->check_caps(fragment, bytes.size()); reason != R::count_) {
    return {EntryOutcome::dropped, reason};
  }
  const int64_t offset = offset_of(message_id);
  if (offset < 0) return {EntryOutcome::duplicate, R::duplicate_message};
  if (offset >= static_cast<int64_t>(slots_.size())) return {EntryOutcome::fatal, R::receive_queue_overflow};
  Slot& s = slot(next_index_ + static_cast<uint64_t>(offset));
  if (s.state == SlotState::message || s.state == SlotState::block_complete) {
    return {EntryOutcome::duplicate, R::duplicate_message};
  }
  const FragmentReassembly::Result result = reassembly_->add(message_id, fragment, bytes, now);
  switch (result.outcome) {
    case FragmentReassembly::Outcome::stored:
      if (s.state == SlotState::empty) ++held_messages_;
      s.state = SlotState::block_partial;
      return {EntryOutcome::accepted};
    case FragmentReassembly::Outcome::completed:
      if (s.state == SlotState::empty) ++held_messages_;
      s.state = SlotState::block_complete;
      return {EntryOutcome::accepted};
    case FragmentReassembly::Outcome::duplicate:
      return {EntryOutcome::duplicate, R::duplicate_message};
    case FragmentReassembly::Outcome::rejected:
      return {EntryOutcome::dropped, result.reason};
    case FragmentReassembly::Outcome::broken:
      if (s.state != SlotState::empty) --held_messages_;
      s.state = SlotState::empty;
      return {EntryOutcome::fatal, result.reason};
  }
  return {EntryOutcome::dropped, R::malformed_packet};
}

void ReliableReceiveQueue::release_delivered() {
  if (pending_block_release_) {
    reassembly_->reset();
    pending_block_release_ = false;
  }
}

std::optional<std::span<const uint8_t>> ReliableReceiveQueue::receive() {
  release_delivered();
  Slot& s = slot(next_index_);
  if (s.state == SlotState::message) {
    const std::span<uint8_t> out(delivery_.data(), s.data.bytes);
    pool_.copy_out(s.data, 0, out);
    pool_.release(s.data);
    s.state = SlotState::empty;
    --held_messages_;
    ++next_index_;
    ++delivered_;
    return std::span<const uint8_t>(out);
  }
  if (s.state == SlotState::block_complete && reassembly_->complete() &&
      reassembly_->message_id() == static_cast<uint16_t>(next_index_)) {
    s.state = SlotState::empty;
    --held_messages_;
    ++next_index_;
    ++delivered_;
    pending_block_release_ = true;
    return reassembly_->block();
  }
  return std::nullopt;
}

std::optional<TransportReason> ReliableReceiveQueue::expire(MonoTime now, Duration timeout) {
  if (!reassembly_ || !reassembly_->active() || reassembly_->complete()) return std::nullopt;
  if (now - reassembly_->last_progress() < timeout) return std::nullopt;
  const int64_t offset = offset_of(reassembly_->message_id());
  if (offset >= 0 && offset < static_cast<int64_t>(slots_.size())) {
    Slot& s = slot(next_index_ + static_cast<uint64_t>(offset));
    if (s.state == SlotState::block_partial) {
      s.state = SlotState::empty;
      --held_messages_;
    }
  }
  reassembly_->reset();
  return TransportReason::stale_fragment_set;
}

}  // namespace tickwire

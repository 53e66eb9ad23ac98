// Ack bookkeeping over two sequence windows, and the loss estimate (the lost share of the last
// kLossWindowPackets packets classified, kept as a ring of bits with a running count).
#include "tickwire/transport/ack_tracker.h"

namespace tickwire {
PacketHeader AckTracker::next_header() const {
  PacketHeader h;
  h.sequence = next_sequence_;
  h.has_ack = has_received_;
  if (has_received_) {
    h.ack = newest_received_;
    for (uint16_t i = 0; i < 32; ++i) {
      if (received_.contains(static_cast<uint16_t>(newest_received_ - 1 - i))) h.ack_bits |= 1u << i;
    }
  }
  return h;
}

void AckTracker::on_sent(MonoTime now, std::size_t bytes, bool ack_eliciting, uint32_t content_begin,
                         uint16_t content_count) {
  SentPacketRecord* record = sent_.insert(next_sequence_);
  TW_ASSERT(record != nullptr, "a new sequence always fits the window");
  record->sent_at = now;
  record->content_begin = content_begin;
  record->content_count = content_count;
  record->bytes = static_cast<uint16_t>(bytes);
  record->ack_eliciting = ack_eliciting;
  ack_due_ = false;
  ++next_sequence_;
}

AckTracker::Incoming AckTracker::classify(uint16_t sequence) const {
  if (!has_received_) return Incoming::fresh;
  if (sequence_less_than(sequence, newest_received_) &&
      sequence_difference(newest_received_, sequence) >= static_cast<int32_t>(kReceivedPacketWindow)) {
    return Incoming::stale;
  }
  return received_.contains(sequence) ? Incoming::duplicate : Incoming::fresh;
}

void AckTracker::mark_received(uint16_t sequence, bool ack_eliciting) {
  if (received_.insert(sequence) == nullptr) return;
  if (!has_received_ || sequence_greater_than(sequence, newest_received_)) newest_received_ = sequence;
  has_received_ = true;
  ack_due_ = ack_due_ || ack_eliciting;
}

void AckTracker::update_loss(MonoTime now, Duration horizon) {
  for (std::size_t step = 0; step < kSentPacketWindow && loss_cursor_ != next_sequence_; ++step) {
    const SentPacketRecord* record = sent_.find(loss_cursor_);
    // Only ack-eliciting packets are judged: an ack-only packet is acked whenever the peer next
    // has something to say, which may be never.
    if (record != nullptr && record->ack_eliciting) {
      if (now - record->sent_at < horizon) return;
      if (!record->acked) ++packets_lost_;
      record_loss_sample(!record->acked);
    }
    ++loss_cursor_;
  }
}

}  // namespace tickwire

namespace tickwire {

void AckTracker::record_loss_sample(bool lost) {
  const uint32_t word = loss_position_ / 64;
  const uint64_t bit = uint64_t{1} << (loss_position_ % 64);
  if (loss_samples_ == kLossWindowPackets && (loss_bits_[word] & bit) != 0) --lost_in_window_;
  loss_bits_[word] = lost ? (loss_bits_[word] | bit) : (loss_bits_[word] & ~bit);
  if (lost) ++lost_in_window_;
  if (loss_samples_ < kLossWindowPackets) ++loss_samples_;
  loss_position_ = (loss_position_ + 1) % kLossWindowPackets;
}

double AckTracker::loss_fraction() const {
  return loss_samples_ == 0 ? 0.0 : static_cast<double>(lost_in_window_) / static_cast<double>(loss_samples_);
}

}  // namespace tickwire

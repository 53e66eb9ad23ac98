// Ack bookkeeping over two sequence windows, and the loss estimate (the lost share of the last
// kLossWindowPackets packets classified, kept as a ring of bits with a running count).
#include "tickwire/transport/ack_tracker.h"

namespace tickwire {
PacketHeader AckTracker::header_acking(uint16_t ack) const {
  PacketHeader h;
  h.sequence = next_sequence_;
  h.has_ack = true;
  h.ack = ack;
  for (uint16_t i = 0; i < 32; ++i) {
    if (received_.contains(static_cast<uint16_t>(ack - 1 - i))) h.ack_bits |= 1u << i;
  }
  return h;
}

PacketHeader AckTracker::next_header() const {
  if (has_received_) return header_acking(newest_received_);
  PacketHeader h;
  h.sequence = next_sequence_;
  return h;
}

void AckTracker::start_write() {
  write_floor_ = reported_newest_;
  has_write_floor_ = has_reported_;
}

std::size_t AckTracker::backfill_headers(std::span<PacketHeader, kMaxBackfillHeaders> out) const {
  if (!has_received_) return 0;
  // Everything above the floor arrived after the last write's headers; below the window is gone.
  const auto window_floor = static_cast<uint16_t>(newest_received_ - kReceivedPacketWindow);
  const uint16_t floor =
      has_write_floor_ && sequence_greater_than(write_floor_, window_floor) ? write_floor_ : window_floor;
  std::size_t count = 0;
  // The newest sequence this write's headers miss: they cover [newest - 32, newest].
  auto top = static_cast<uint16_t>(newest_received_ - kAckedPerHeader);
  while (count < out.size() && sequence_greater_than(top, floor)) {
    // A header claims `ack` itself, so it names the newest packet that arrived in [top - 32, top].
    auto next_top = static_cast<uint16_t>(top - kAckedPerHeader);
    for (uint16_t k = 0; k < kAckedPerHeader; ++k) {
      const auto s = static_cast<uint16_t>(top - k);
      if (!sequence_greater_than(s, floor)) break;
      if (!received_.contains(s)) continue;
      out[count++] = header_acking(s);
      next_top = static_cast<uint16_t>(s - kAckedPerHeader);
      break;
    }
    top = next_top;
  }
  return count;
}

void AckTracker::record_sent(MonoTime now, std::size_t bytes, bool ack_eliciting, uint32_t content_begin,
                             uint16_t content_count, const DeliveryStamp& delivery) {
  // The record this one overwrites leaves the flight without an answer: its content is resent on
  // its own timer like any unacked content.
  if (SentPacketRecord* old = sent_.find(static_cast<uint16_t>(next_sequence_ - kSentPacketWindow));
      old != nullptr && old->ack_eliciting && !old->acked && !old->lost) {
    give_up(*old);
  }
  SentPacketRecord* record = sent_.insert(next_sequence_);
  TW_ASSERT(record != nullptr, "a new sequence always fits the window");
  record->sent_at = now;
  record->content_begin = content_begin;
  record->content_count = content_count;
  record->bytes = static_cast<uint16_t>(bytes);
  record->ack_eliciting = ack_eliciting;
  record->delivery = delivery;
  if (ack_eliciting) bytes_in_flight_ += bytes;
  ++next_sequence_;
}

void AckTracker::on_sent(MonoTime now, std::size_t bytes, bool ack_eliciting, uint32_t content_begin,
                         uint16_t content_count, const DeliveryStamp& delivery) {
  record_sent(now, bytes, ack_eliciting, content_begin, content_count, delivery);
  if (has_received_) {
    reported_newest_ = newest_received_;
    has_reported_ = true;
  }
  ack_due_ = false;
}

void AckTracker::on_backfill_sent(MonoTime now, std::size_t bytes, uint32_t content_begin) {
  record_sent(now, bytes, false, content_begin, 0, {});
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
    SentPacketRecord* record = sent_.find(loss_cursor_);
    // Only ack-eliciting packets are judged: an ack-only packet is acked whenever the peer next
    // has something to say, which may be never.
    if (record != nullptr && record->ack_eliciting) {
      if (now - record->sent_at < horizon) return;
      if (!record->acked) ++packets_lost_;
      if (!record->acked && !record->lost) give_up(*record);
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

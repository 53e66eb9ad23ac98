// Packet-level acknowledgement: the sequence numbers we send and the records of what we sent, the
// sequences we received and the ack + 32 ack bits we report back, which of our packets the peer's
// headers newly acknowledge, which are lost (a gap behind a later acked packet, so their content can
// be resent at once), the bytes still in flight, and a loss estimate from packets that aged out.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "tickwire/clock/time.h"
#include "tickwire/core/sequence_buffer.h"
#include "tickwire/transport/endpoint_config.h"
#include "tickwire/transport/link_rate_estimator.h"
#include "tickwire/transport/packet_header.h"

namespace tickwire {

inline constexpr std::size_t kLossWindowPackets = 256;
// While the path has never reordered, a packet is lost as soon as one packet sent after it is acked:
// packets leave in sequence order, so on a path that keeps order a later one arriving first means
// the earlier one is gone (a tick's last packets would otherwise wait a tick for the next write's
// acks, or several ticks at a few packets a tick).
inline constexpr int32_t kOrderedPathLossThreshold = 1;
// Once it has reordered, a packet is lost once this many packets sent after it were acked
// (reordering tolerated below it).
inline constexpr int32_t kLossPacketThreshold = 3;
// Each packet declared lost that is acked after all (the path reorders) doubles the packet threshold
// and adds half the time threshold again, at most this many times (1 -> 6 -> 12 -> 24 packets, 2.5x
// the time): a path that reordered once never goes back to the ordered-path threshold.
inline constexpr uint8_t kMaxReorderSteps = 3;
// Sequences one header acknowledges: `ack` and the 32 below it.
inline constexpr uint16_t kAckedPerHeader = 33;
// Extra ack-only headers one write may add for packets that arrived more than 33 below the newest.
inline constexpr std::size_t kMaxBackfillHeaders = kReceivedPacketWindow / kAckedPerHeader;

struct SentPacketRecord {
  MonoTime sent_at;
  uint32_t content_begin = 0;  // position in the SentContentLog
  uint16_t content_count = 0;
  uint16_t bytes = 0;
  bool ack_eliciting = false;  // carried entries, so the peer acks it at its next write
  bool acked = false;
  bool lost = false;           // given up on (a gap behind later acks, or aged out); a late ack still counts
  bool declared_lost = false;  // by detect_losses (a late ack then means the path reordered it)
  DeliveryStamp delivery;      // the rate estimator's state when it left
};

class AckTracker {
 public:
  enum class Incoming : uint8_t { fresh, duplicate, stale };

  // ---- sending
  uint16_t next_sequence() const { return next_sequence_; }
  // The header for the next packet: its sequence and our acks of the peer's packets.
  PacketHeader next_header() const;
  // Records the packet just sent with next_header().sequence and advances the sequence.
  void on_sent(MonoTime now, std::size_t bytes, bool ack_eliciting, uint32_t content_begin, uint16_t content_count,
               const DeliveryStamp& delivery = {});
  // Records a packet sent with one of backfill_headers() (its sequence set to next_sequence()): it
  // reports older arrivals only, so the newest still needs its ack.
  void on_backfill_sent(MonoTime now, std::size_t bytes, uint32_t content_begin);
  // Bytes of ack-eliciting packets neither acked nor given up on.
  std::size_t bytes_in_flight() const { return bytes_in_flight_; }
  const SentPacketRecord* sent_record(uint16_t sequence) const { return sent_.find(sequence); }

  // ---- receiving
  Incoming classify(uint16_t sequence) const;
  // Marks a fresh packet received; an ack-eliciting one makes an ack due.
  void mark_received(uint16_t sequence, bool ack_eliciting);
  bool ack_due() const { return ack_due_; }
  // Call once before a write's packets: remembers how far the last write's headers reported.
  void start_write();
  // Headers (sequence left for the caller) acknowledging packets that arrived since the last write
  // but more than 32 below the newest, which this write's headers cannot reach: when more than 33
  // packets arrive between two writes. `ack` is the newest received packet in each older range of
  // 33, so each header claims only what arrived. Returns how many were filled.
  std::size_t backfill_headers(std::span<PacketHeader, kMaxBackfillHeaders> out) const;

  // Calls on_acked(sequence, record) for each of our packets the header newly acknowledges.
  template <class OnAcked>
  void apply_acks(const PacketHeader& header, OnAcked&& on_acked) {
    if (!header.has_ack) return;
    acknowledge(header.ack, on_acked);
    for (uint16_t i = 0; i < 32; ++i) {
      if ((header.ack_bits >> i) & 1u) acknowledge(static_cast<uint16_t>(header.ack - 1 - i), on_acked);
    }
  }

  // ---- fast loss detection: calls on_lost(sequence, record) once for each unacked ack-eliciting
  // packet sent before the newest acked one that is loss_packet_threshold() packets or
  // `time_threshold` behind it (QUIC's two thresholds), oldest first. Bounded by the sent-packet window.
  template <class OnLost>
  void detect_losses(MonoTime now, Duration time_threshold, OnLost&& on_lost) {
    if (!has_largest_acked_) return;
    // Records older than the window are gone; never let the cursor fall further behind than that.
    const auto oldest_kept = static_cast<uint16_t>(next_sequence_ - kSentPacketWindow);
    if (sequence_difference(next_sequence_, lost_cursor_) > static_cast<int32_t>(kSentPacketWindow)) lost_cursor_ = oldest_kept;
    for (std::size_t step = 0; step < kSentPacketWindow && sequence_less_than(lost_cursor_, largest_acked_); ++step) {
      SentPacketRecord* record = sent_.find(lost_cursor_);
      if (record != nullptr && record->ack_eliciting && !record->acked && !record->lost) {
        const bool by_count = sequence_difference(largest_acked_, lost_cursor_) >= loss_packet_threshold();
        const bool by_time = now - record->sent_at >= time_threshold + time_threshold * reorder_steps_ / 2;
        if (!by_count && !by_time) return;
        give_up(*record);
        record->declared_lost = true;
        on_lost(lost_cursor_, *record);
      }
      ++lost_cursor_;
    }
  }

  // ---- loss: every ack-eliciting packet older than `horizon` is classified once as acked or lost.
  void update_loss(MonoTime now, Duration horizon);
  // Lost share of the last kLossWindowPackets classified packets.
  double loss_fraction() const;
  uint64_t packets_lost() const { return packets_lost_; }
  // Packets detect_losses declared lost that were acked after all, and how far the thresholds grew.
  uint64_t spurious_losses() const { return spurious_losses_; }
  uint8_t reorder_steps() const { return reorder_steps_; }
  // Later packets acked that make a gap a loss: kOrderedPathLossThreshold until the path reorders.
  int32_t loss_packet_threshold() const {
    return reorder_steps_ == 0 ? kOrderedPathLossThreshold : kLossPacketThreshold << reorder_steps_;
  }

 private:
  template <class OnAcked>
  void acknowledge(uint16_t sequence, OnAcked& on_acked) {
    SentPacketRecord* record = sent_.find(sequence);
    if (record == nullptr || record->acked) return;
    record->acked = true;
    if (record->ack_eliciting && !record->lost) bytes_in_flight_ -= record->bytes;
    if (record->declared_lost) {
      ++spurious_losses_;
      if (reorder_steps_ < kMaxReorderSteps) ++reorder_steps_;
    }
    if (!has_largest_acked_ || sequence_greater_than(sequence, largest_acked_)) {
      largest_acked_ = sequence;
      has_largest_acked_ = true;
    }
    on_acked(sequence, *record);
  }
  void give_up(SentPacketRecord& record) {
    record.lost = true;
    bytes_in_flight_ -= record.bytes;
  }

  SequenceBuffer<SentPacketRecord, kSentPacketWindow> sent_;
  SequenceBuffer<uint8_t, kReceivedPacketWindow> received_;
  uint16_t next_sequence_ = 0;
  uint16_t largest_acked_ = 0;   // newest of our packets the peer acked
  bool has_largest_acked_ = false;
  uint16_t lost_cursor_ = 0;     // oldest packet fast loss detection has not settled
  std::size_t bytes_in_flight_ = 0;
  uint64_t spurious_losses_ = 0;
  uint8_t reorder_steps_ = 0;
  uint16_t newest_received_ = 0;
  uint16_t reported_newest_ = 0;  // newest_received_ when our last header went out
  bool has_reported_ = false;
  uint16_t write_floor_ = 0;      // reported_newest_ when this write started
  bool has_write_floor_ = false;
  PacketHeader header_acking(uint16_t ack) const;
  void record_sent(MonoTime now, std::size_t bytes, bool ack_eliciting, uint32_t content_begin, uint16_t content_count,
                   const DeliveryStamp& delivery);
  bool has_received_ = false;
  bool ack_due_ = false;
  void record_loss_sample(bool lost);

  uint16_t loss_cursor_ = 0;
  std::array<uint64_t, kLossWindowPackets / 64> loss_bits_{};  // ring of the last outcomes, 1 = lost
  uint32_t loss_samples_ = 0;                                  // classified so far (caps at the window)
  uint32_t loss_position_ = 0;
  uint32_t lost_in_window_ = 0;
  uint64_t packets_lost_ = 0;
};

}  // namespace tickwire

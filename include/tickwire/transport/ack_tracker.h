// Packet-level acknowledgement: the sequence numbers we send and the records of what we sent, the
// sequences we received and the ack + 32 ack bits we report back, which of our packets the peer's
// headers newly acknowledge, and a packet loss estimate from packets that aged out unacked.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "tickwire/clock/time.h"
#include "tickwire/core/sequence_buffer.h"
#include "tickwire/transport/endpoint_config.h"
#include "tickwire/transport/packet_header.h"

namespace tickwire {

inline constexpr std::size_t kLossWindowPackets = 256;

struct SentPacketRecord {
  MonoTime sent_at;
  uint32_t content_begin = 0;  // position in the SentContentLog
  uint16_t content_count = 0;
  uint16_t bytes = 0;
  bool ack_eliciting = false;  // carried entries, so the peer acks it at its next write
  bool acked = false;
};

class AckTracker {
 public:
  enum class Incoming : uint8_t { fresh, duplicate, stale };

  // ---- sending
  uint16_t next_sequence() const { return next_sequence_; }
  // The header for the next packet: its sequence and our acks of the peer's packets.
  PacketHeader next_header() const;
  // Records the packet just sent with next_header().sequence and advances the sequence.
  void on_sent(MonoTime now, std::size_t bytes, bool ack_eliciting, uint32_t content_begin, uint16_t content_count);
  const SentPacketRecord* sent_record(uint16_t sequence) const { return sent_.find(sequence); }

  // ---- receiving
  Incoming classify(uint16_t sequence) const;
  // Marks a fresh packet received; an ack-eliciting one makes an ack due.
  void mark_received(uint16_t sequence, bool ack_eliciting);
  bool ack_due() const { return ack_due_; }

  // Calls on_acked(sequence, record) for each of our packets the header newly acknowledges.
  template <class OnAcked>
  void apply_acks(const PacketHeader& header, OnAcked&& on_acked) {
    if (!header.has_ack) return;
    acknowledge(header.ack, on_acked);
    for (uint16_t i = 0; i < 32; ++i) {
      if ((header.ack_bits >> i) & 1u) acknowledge(static_cast<uint16_t>(header.ack - 1 - i), on_acked);
    }
  }

  // ---- loss: every ack-eliciting packet older than `horizon` is classified once as acked or lost.
  void update_loss(MonoTime now, Duration horizon);
  // Lost share of the last kLossWindowPackets classified packets.
  double loss_fraction() const;
  uint64_t packets_lost() const { return packets_lost_; }

 private:
  template <class OnAcked>
  void acknowledge(uint16_t sequence, OnAcked& on_acked) {
    SentPacketRecord* record = sent_.find(sequence);
    if (record == nullptr || record->acked) return;
    record->acked = true;
    on_acked(sequence, *record);
  }

  SequenceBuffer<SentPacketRecord, kSentPacketWindow> sent_;
  SequenceBuffer<uint8_t, kReceivedPacketWindow> received_;
  uint16_t next_sequence_ = 0;
  uint16_t newest_received_ = 0;
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

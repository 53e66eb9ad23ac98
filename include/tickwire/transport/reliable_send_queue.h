// The sending half of a reliable-ordered channel: messages (and large blocks, cut into fragments)
// held in a fixed byte pool until acked. A message leaves the send window the moment it is acked,
// so one loss does not freeze the rest; the span from the oldest unacked message to the newest
// sent is capped too, because the peer holds that much out of order. A message or fragment is sent
// again when a later packet's ack shows its packet lost, or when its timer (RTO, doubled per timed
// resend) runs out. A full queue refuses the send explicitly.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "tickwire/clock/time.h"
#include "tickwire/transport/chunk_pool.h"
#include "tickwire/transport/endpoint_config.h"
#include "tickwire/transport/packet_room.h"
#include "tickwire/transport/send_result.h"

namespace tickwire {

class ReliableSendQueue {
 public:
  // Timed resends of one message double its delay at most this many times (then max_rto caps it).
  static constexpr uint8_t kMaxBackoffDoublings = 6;

  ReliableSendQueue(const ChannelConfig& config, uint8_t channel);

  // Queues head+body as one message (a block when above max_message_bytes).
  SendResult push(std::span<const uint8_t> head, std::span<const uint8_t> body);
  // Once per write_packets: queues every message and fragment whose resend timer ran out.
  void collect_timed_out(MonoTime now, Duration rto, Duration max_rto);
  // Writes due resends, then first sends in id order, into the packet being assembled.
  void write(PacketRoom& room);
  // A packet carrying `ref` was acked.
  void on_acked(const ContentRef& ref);
  // A packet carrying `ref`, sent at `sent_at`, was lost: resend at the next write unless a newer
  // copy is already out.
  void on_lost(const ContentRef& ref, MonoTime sent_at);

  // When the oldest unacked message was first sent (nullopt if nothing sent is unacked).
  std::optional<MonoTime> oldest_unacked_sent_at() const;
  uint32_t queued_messages() const { return static_cast<uint32_t>(next_index_ - oldest_index_); }
  std::size_t queued_bytes() const { return pool_.used_bytes(); }
  // Bytes queued and never sent, plus resends waiting: what this channel still wants to send.
  std::size_t waiting_bytes() const { return unsent_bytes_ + due_count_ * config_.fragment_bytes; }
  std::size_t in_flight_bytes() const { return in_flight_bytes_; }
  std::size_t span_bytes() const { return span_bytes_; }
  uint64_t resends() const { return resends_; }
  uint64_t fast_resends() const { return fast_resends_; }
  uint64_t messages_acked() const { return messages_acked_; }
  std::size_t memory_bytes() const;

 private:
  struct Slot {
    ChunkPool::Handle data;
    MonoTime first_sent;
    MonoTime last_sent;
    uint32_t bytes = 0;  // kept after the data is released on ack
    uint8_t backoff = 0;  // timed resends so far
    bool used = false;
    bool acked = false;
    bool sent = false;
    bool block = false;
    bool due = false;  // waiting in the resend ring
  };
  struct ActiveBlock {
    bool active = false;
    uint64_t index = 0;
    uint16_t fragment_count = 0;
    uint16_t acked_count = 0;
    uint16_t next_unsent = 0;  // fragments below this were sent at least once
    std::vector<uint8_t> acked;
    std::vector<uint8_t> due;
    std::vector<uint8_t> backoff;
    std::vector<MonoTime> last_sent;
  };
  // One message or fragment to resend; `timed` ones back off.
  struct Due {
    uint64_t index = 0;
    uint16_t fragment = 0;
    bool is_fragment = false;
    bool timed = false;
  };

  Slot& slot(uint64_t index) { return slots_[index % slots_.size()]; }
  const Slot& slot(uint64_t index) const { return slots_[index % slots_.size()]; }
  std::optional<uint64_t> index_of(uint16_t message_id) const;
  bool window_admits(std::size_t bytes, std::size_t span_bytes) const;
  std::size_t rounded(std::size_t bytes) const;
  uint32_t fragment_length(const Slot& s, uint16_t f) const;
  void push_due(const Due& d);
  bool due_is_stale(const Due& d) const;
  bool write_resend(PacketRoom& room, const Due& d);
  bool write_first_sends(PacketRoom& room);
  void write_message_entry(PacketRoom& room, uint64_t index, const Slot& s);
  bool write_fragment_entry(PacketRoom& room, uint64_t index, const Slot& s, uint16_t f);
  void activate_block(uint64_t index, const Slot& s);
  void mark_acked(Slot& s);
  static Duration backoff_delay(Duration rto, uint8_t doublings, Duration max_rto);

  ChannelConfig config_;
  uint8_t channel_;
  ChunkPool pool_;
  std::vector<Slot> slots_;
  ActiveBlock block_;
  std::vector<Due> due_;  // ring: each message or fragment at most once
  std::size_t due_head_ = 0;
  std::size_t due_count_ = 0;
  MonoTime next_timeout_check_;  // nothing can time out before this
  uint64_t oldest_index_ = 0;    // oldest unacked; message id = low 16 bits of the index
  uint64_t next_index_ = 0;
  uint64_t next_unsent_index_ = 0;  // everything in [oldest, this) was sent at least once
  std::size_t in_flight_bytes_ = 0;  // messages sent and not acked (blocks are bounded by the endpoint)
  std::size_t span_bytes_ = 0;       // sent messages from the oldest unacked on, in pool chunks
  std::size_t unsent_bytes_ = 0;     // queued and never sent
  Duration last_rto_ = Duration::milliseconds(250);
  uint64_t resends_ = 0;
  uint64_t fast_resends_ = 0;
  uint64_t messages_acked_ = 0;
};

}  // namespace tickwire

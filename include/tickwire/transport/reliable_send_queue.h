// The sending half of a reliable-ordered channel: messages (and large blocks, cut into fragments)
// held in a fixed byte pool until acked, sent oldest first within a send window, resent when their
// last send is older than the RTT-derived resend delay. A full queue refuses the send explicitly.
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
  ReliableSendQueue(const ChannelConfig& config, uint8_t channel);

  // Queues head+body as one message (a block when above max_message_bytes).
  SendResult push(std::span<const uint8_t> head, std::span<const uint8_t> body);
  // Writes due messages and fragments into the packet being assembled.
  void write(PacketRoom& room);
  // A packet carrying `ref` was acked.
  void on_acked(const ContentRef& ref);

  // When the oldest unacked message was first sent (nullopt if nothing sent is unacked).
  std::optional<MonoTime> oldest_unacked_sent_at() const;
  uint32_t queued_messages() const { return static_cast<uint32_t>(next_index_ - oldest_index_); }
  std::size_t queued_bytes() const { return pool_.used_bytes(); }
  uint64_t resends() const { return resends_; }
  uint64_t messages_acked() const { return messages_acked_; }
  std::size_t memory_bytes() const;

 private:
  struct Slot {
    ChunkPool::Handle data;
    MonoTime first_sent;
    MonoTime last_sent;
    uint32_t bytes = 0;  // kept after the data is released on ack
    bool used = false;
    bool acked = false;
    bool sent = false;
    bool block = false;
  };
  struct ActiveBlock {
    bool active = false;
    uint64_t index = 0;
    uint16_t fragment_count = 0;
    uint16_t acked_count = 0;
    std::vector<uint8_t> acked;
    std::vector<uint8_t> sent;
    std::vector<MonoTime> last_sent;
  };

  Slot& slot(uint64_t index) { return slots_[index % slots_.size()]; }
  const Slot& slot(uint64_t index) const { return slots_[index % slots_.size()]; }
  std::optional<uint64_t> index_of(uint16_t message_id) const;
  bool window_admits(const Slot& s) const;
  void write_message(PacketRoom& room, uint64_t index, Slot& s);
  void write_block(PacketRoom& room, uint64_t index, Slot& s);
  void activate_block(uint64_t index, const Slot& s);
  void mark_acked(Slot& s);

  ChannelConfig config_;
  uint8_t channel_;
  ChunkPool pool_;
  std::vector<Slot> slots_;
  ActiveBlock block_;
  uint64_t oldest_index_ = 0;  // oldest unacked; message id = low 16 bits of the index
  uint64_t next_index_ = 0;
  uint64_t next_unsent_index_ = 0;  // everything in [oldest, this) was sent at least once
  std::size_t in_flight_bytes_ = 0;  // sent messages not yet behind the oldest unacked
  uint64_t resends_ = 0;
  uint64_t messages_acked_ = 0;
};

}  // namespace tickwire

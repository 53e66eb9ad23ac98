// An unreliable channel, both directions: nothing is ever resent. A message not written in the
// write_packets call after it was queued is discarded (counted), a full queue drops its oldest. The
// receiver keeps a small window of ids seen (unreliable_receive_window): it takes each message once,
// newer than the newest or late within the window, and delivers in arrival order, so a message that
// was overtaken is late, not lost, and freshness stays the consumer's decision (a snapshot's tick, an
// input's sequence). Window 0 takes only newer messages: newest wins.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "tickwire/transport/chunk_pool.h"
#include "tickwire/transport/endpoint_config.h"
#include "tickwire/transport/packet_room.h"
#include "tickwire/transport/send_result.h"
#include "tickwire/transport/transport_reason.h"

namespace tickwire {

class UnreliableChannel {
 public:
  UnreliableChannel(const ChannelConfig& config, uint8_t channel);

  SendResult push(std::span<const uint8_t> head, std::span<const uint8_t> body, TransportCounters& counters);
  void write(PacketRoom& room);
  // Discards what this write could not fit (never carried to a later write).
  void expire_unsent(TransportCounters& counters);

  void on_message(uint16_t message_id, std::span<const uint8_t> bytes, TransportCounters& counters);
  // The oldest held message; bytes valid until the next receive().
  std::optional<std::span<const uint8_t>> receive();
  uint64_t late_taken() const { return late_taken_; }  // taken behind the newest, inside the window

  uint32_t queued_send_messages() const { return static_cast<uint32_t>(send_.count); }
  uint32_t queued_receive_messages() const { return static_cast<uint32_t>(receive_.count); }
  std::size_t queued_send_bytes() const { return send_pool_.used_bytes(); }
  std::size_t queued_receive_bytes() const { return receive_pool_.used_bytes(); }
  uint64_t delivered() const { return delivered_; }
  std::size_t memory_bytes() const;

 private:
  struct Held {
    uint16_t message_id = 0;
    ChunkPool::Handle data;
  };
  // A fixed ring of held messages over one pool.
  struct Queue {
    std::vector<Held> items;
    std::size_t head = 0;
    std::size_t count = 0;
    Held& at(std::size_t i) { return items[(head + i) % items.size()]; }
    void drop_oldest(ChunkPool& pool);
    bool push(ChunkPool& pool, uint16_t id, std::span<const uint8_t> head_bytes, std::span<const uint8_t> body,
              TransportCounters& counters, TransportReason full_reason);
  };

  // Takes `message_id` into the window; false (counted) for a duplicate or one behind the window.
  bool admit(uint16_t message_id, TransportCounters& counters);

  ChannelConfig config_;
  uint8_t channel_;
  ChunkPool send_pool_;
  ChunkPool receive_pool_;
  Queue send_;
  Queue receive_;
  std::vector<uint8_t> delivery_;
  uint16_t next_id_ = 0;
  uint16_t newest_received_ = 0;
  uint64_t seen_behind_ = 0;  // bit k: id newest_received_ - (k + 1) was taken
  bool has_received_ = false;
  uint64_t delivered_ = 0;
  uint64_t late_taken_ = 0;
};

}  // namespace tickwire

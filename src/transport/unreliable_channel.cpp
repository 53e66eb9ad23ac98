// Unreliable channel: two fixed rings over two fixed pools; "full" always means "drop the oldest";
// the receive window is one 64-bit mask of the ids behind the newest received.
#include "tickwire/transport/unreliable_channel.h"

#include "tickwire/core/assert.h"
#include "tickwire/core/sequence.h"

namespace tickwire {

UnreliableChannel::UnreliableChannel(const ChannelConfig& config, uint8_t channel)
    : config_(config),
      channel_(channel),
      send_pool_(config.send_queue_bytes, config.pool_chunk_bytes),
      receive_pool_(config.receive_queue_bytes, config.pool_chunk_bytes),
      delivery_(config.max_message_bytes) {
  TW_ASSERT(config.kind == ChannelKind::unreliable, "an unreliable channel needs an unreliable config");
  TW_ASSERT(config.unreliable_receive_window <= kMaxUnreliableReceiveWindow, "the receive window is one 64-bit mask");
  send_.items.resize(config.unreliable_queue_messages);
  receive_.items.resize(config.unreliable_queue_messages);
}

std::size_t UnreliableChannel::memory_bytes() const {
  return send_pool_.memory_bytes() + receive_pool_.memory_bytes() + delivery_.size() +
         (send_.items.size() + receive_.items.size()) * sizeof(Held);
}

void UnreliableChannel::Queue::drop_oldest(ChunkPool& pool) {
  pool.release(items[head].data);
  head = (head + 1) % items.size();
  --count;
}

bool UnreliableChannel::Queue::push(ChunkPool& pool, uint16_t id, std::span<const uint8_t> head_bytes,
                                    std::span<const uint8_t> body, TransportCounters& counters,
                                    TransportReason full_reason) {
  const std::size_t bytes = head_bytes.size() + body.size();
  while (count > 0 && (count == items.size() || !pool.can_store(bytes))) {
    drop_oldest(pool);
    counters.add(full_reason);
  }
  Held& slot = items[(head + count) % items.size()];
  if (!pool.store(head_bytes, body, slot.data)) return false;
  slot.message_id = id;
  ++count;
  return true;
}

SendResult UnreliableChannel::push(std::span<const uint8_t> head, std::span<const uint8_t> body,
                                   TransportCounters& counters) {
  if (head.size() + body.size() > config_.max_message_bytes) return {SendError::message_too_large};
  const uint16_t id = next_id_;
  const bool stored = send_.push(send_pool_, id, head, body, counters, TransportReason::unreliable_replaced);
  TW_ASSERT(stored, "the send pool holds at least one largest message");
  ++next_id_;
  return {SendError::ok, id};
}

void UnreliableChannel::write(PacketRoom& room) {
  while (send_.count > 0) {
    Held& held = send_.at(0);
    const std::size_t entry_bytes = kMessageEntryOverheadBytes + held.data.bytes;
    if (!room.fits(entry_bytes)) return;
    write_message_entry_head(room.writer, EntryKind::unreliable, channel_, held.message_id,
                             static_cast<uint16_t>(held.data.bytes));
    send_pool_.copy_out(held.data, 0, room.writer.reserve(held.data.bytes));
    room.consumed(entry_bytes, ContentRef{channel_, EntryKind::unreliable, held.message_id, 0});
    send_.drop_oldest(send_pool_);
  }
}

void UnreliableChannel::expire_unsent(TransportCounters& counters) {
  while (send_.count > 0) {
    send_.drop_oldest(send_pool_);
    counters.add(TransportReason::unreliable_expired);
  }
}

void UnreliableChannel::on_message(uint16_t message_id, std::span<const uint8_t> bytes, TransportCounters& counters) {
  if (bytes.size() > config_.max_message_bytes) {
    counters.add(TransportReason::message_too_large);
    return;
  }
  if (!admit(message_id, counters)) return;
  const bool stored =
      receive_.push(receive_pool_, message_id, bytes, {}, counters, TransportReason::unreliable_receive_full);
  TW_ASSERT(stored, "the receive pool holds at least one largest message");
}

bool UnreliableChannel::admit(uint16_t message_id, TransportCounters& counters) {
  if (!has_received_) {
    has_received_ = true;
    newest_received_ = message_id;
    return true;
  }
  const int32_t ahead = sequence_difference(message_id, newest_received_);
  if (ahead > 0) {
    // The old newest becomes `ahead` behind the new one; the mask slides with it.
    const auto shift = static_cast<uint32_t>(ahead);
    const uint64_t slid = shift >= 64 ? 0 : seen_behind_ << shift;
    const uint64_t old_newest = shift > 64 ? 0 : uint64_t{1} << (shift - 1);
    seen_behind_ = slid | old_newest;
    newest_received_ = message_id;
    return true;
  }
  const auto behind = static_cast<uint32_t>(-ahead);
  if (behind == 0) {
    counters.add(TransportReason::duplicate_unreliable);
    return false;
  }
  if (behind > config_.unreliable_receive_window) {
    counters.add(TransportReason::stale_unreliable);
    return false;
  }
  const uint64_t bit = uint64_t{1} << (behind - 1);
  if ((seen_behind_ & bit) != 0) {
    counters.add(TransportReason::duplicate_unreliable);
    return false;
  }
  seen_behind_ |= bit;
  ++late_taken_;
  return true;
}

std::optional<std::span<const uint8_t>> UnreliableChannel::receive() {
  if (receive_.count == 0) return std::nullopt;
  Held& held = receive_.at(0);
  const std::span<uint8_t> out(delivery_.data(), held.data.bytes);
  receive_pool_.copy_out(held.data, 0, out);
  receive_.drop_oldest(receive_pool_);
  ++delivered_;
  return std::span<const uint8_t>(out);
}

}  // namespace tickwire

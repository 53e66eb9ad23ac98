// Reliable send queue. Messages are indexed by a 64-bit counter whose low 16 bits are the wire id,
// so the slot ring never aliases across the id wrap. Only the oldest unacked block is active (sent
// as fragments) at a time; messages queued after it keep flowing.
#include "tickwire/transport/reliable_send_queue.h"

#include <algorithm>

#include "tickwire/core/assert.h"
#include "tickwire/core/sequence.h"

namespace tickwire {

ReliableSendQueue::ReliableSendQueue(const ChannelConfig& config, uint8_t channel)
    : config_(config),
      channel_(channel),
      pool_(config.send_queue_bytes, config.pool_chunk_bytes),
      slots_(config.send_queue_messages) {
  TW_ASSERT(config.is_reliable(), "a reliable send queue needs a reliable channel");
  if (config.blocks_enabled()) {
    block_.acked.resize(config.max_fragments);
    block_.sent.resize(config.max_fragments);
    block_.last_sent.resize(config.max_fragments);
  }
}

std::size_t ReliableSendQueue::memory_bytes() const {
  return pool_.memory_bytes() + slots_.size() * sizeof(Slot) +
         block_.acked.size() * (2 + sizeof(MonoTime));
}

SendResult ReliableSendQueue::push(std::span<const uint8_t> head, std::span<const uint8_t> body) {
  const std::size_t bytes = head.size() + body.size();
  if (bytes > config_.max_send_bytes()) return {SendError::message_too_large};
  if (next_index_ - oldest_index_ >= slots_.size()) return {SendError::send_queue_full};
  Slot& s = slot(next_index_);
  TW_ASSERT(!s.used, "send slot reused before release");
  if (!pool_.store(head, body, s.data)) return {SendError::send_queue_full};
  s.used = true;
  s.acked = false;
  s.sent = false;
  s.block = bytes > config_.max_message_bytes;
  s.bytes = static_cast<uint32_t>(bytes);
  const auto id = static_cast<uint16_t>(next_index_);
  ++next_index_;
  return {SendError::ok, id};
}

void ReliableSendQueue::write(PacketRoom& room) {
  const uint64_t end = std::min<uint64_t>(next_index_, oldest_index_ + config_.send_window_messages);
  if (next_unsent_index_ < oldest_index_) next_unsent_index_ = oldest_index_;
  bool block_seen = false;
  for (uint64_t index = oldest_index_; index < end; ++index) {
    if (!room.fits(kMessageEntryOverheadBytes)) return;
    Slot& s = slot(index);
    if (!s.used || s.acked) continue;
    const bool first_send = index == next_unsent_index_;
    if (!s.block) {
      if (first_send && !window_admits(s)) return;
      write_message(room, index, s);
    } else if (!block_seen) {
      block_seen = true;
      write_block(room, index, s);
    } else if (first_send) {
      return;  // a second block waits until the active one is acked
    }
    // First sends go strictly in id order: one refused (window or room) ends this pass, so a
    // later message can never hold window bytes that an earlier unsent one is waiting for.
    if (first_send) {
      if (!s.sent) return;
      ++next_unsent_index_;
    }
  }
}

bool ReliableSendQueue::window_admits(const Slot& s) const {
  return in_flight_bytes_ == 0 || in_flight_bytes_ + s.bytes <= config_.send_window_bytes;
}

void ReliableSendQueue::write_message(PacketRoom& room, uint64_t index, Slot& s) {
  if (s.sent && room.now - s.last_sent < room.resend_delay) return;
  const std::size_t entry_bytes = kMessageEntryOverheadBytes + s.data.bytes;
  if (!room.fits(entry_bytes)) return;
  const auto id = static_cast<uint16_t>(index);
  write_message_entry_head(room.writer, EntryKind::reliable, channel_, id, static_cast<uint16_t>(s.data.bytes));
  pool_.copy_out(s.data, 0, room.writer.reserve(s.data.bytes));
  room.consumed(entry_bytes, ContentRef{channel_, EntryKind::reliable, id, 0});
  if (s.sent) {
    ++resends_;
  } else {
    s.sent = true;
    s.first_sent = room.now;
    in_flight_bytes_ += s.data.bytes;
  }
  s.last_sent = room.now;
}

void ReliableSendQueue::activate_block(uint64_t index, const Slot& s) {
  block_.active = true;
  block_.index = index;
  block_.fragment_count = static_cast<uint16_t>((s.data.bytes + config_.fragment_bytes - 1) / config_.fragment_bytes);
  block_.acked_count = 0;
  std::fill_n(block_.acked.begin(), block_.fragment_count, uint8_t{0});
  std::fill_n(block_.sent.begin(), block_.fragment_count, uint8_t{0});
}

void ReliableSendQueue::write_block(PacketRoom& room, uint64_t index, Slot& s) {
  if (!block_.active || block_.index != index) activate_block(index, s);
  const auto id = static_cast<uint16_t>(index);
  for (uint16_t f = 0; f < block_.fragment_count; ++f) {
    if (block_.acked[f]) continue;
    if (block_.sent[f] && room.now - block_.last_sent[f] < room.resend_delay) continue;
    const uint32_t offset = f * config_.fragment_bytes;
    const uint32_t length = std::min(config_.fragment_bytes, s.data.bytes - offset);
    const std::size_t entry_bytes = kFragmentEntryOverheadBytes + length;
    if (!room.fits(entry_bytes)) return;
    const FragmentHeader header{f, block_.fragment_count, s.data.bytes, offset};
    write_fragment_entry_head(room.writer, channel_, id, header, static_cast<uint16_t>(length));
    pool_.copy_out(s.data, offset, room.writer.reserve(length));
    room.consumed(entry_bytes, ContentRef{channel_, EntryKind::fragment, id, f});
    if (block_.sent[f]) ++resends_;
    block_.sent[f] = 1;
    block_.last_sent[f] = room.now;
    if (!s.sent) {
      s.sent = true;
      s.first_sent = room.now;
    }
    s.last_sent = room.now;
  }
}

std::optional<uint64_t> ReliableSendQueue::index_of(uint16_t message_id) const {
  const auto distance = static_cast<uint16_t>(message_id - static_cast<uint16_t>(oldest_index_));
  if (distance >= next_index_ - oldest_index_) return std::nullopt;
  return oldest_index_ + distance;
}

void ReliableSendQueue::mark_acked(Slot& s) {
  s.acked = true;
  pool_.release(s.data);
  ++messages_acked_;
}

void ReliableSendQueue::on_acked(const ContentRef& ref) {
  const std::optional<uint64_t> index = index_of(ref.message_id);
  if (!index) return;  // already acked and released
  Slot& s = slot(*index);
  if (!s.used || s.acked || !s.sent) return;
  if (ref.kind == EntryKind::reliable && !s.block) {
    mark_acked(s);
  } else if (ref.kind == EntryKind::fragment && s.block && block_.active && block_.index == *index &&
             ref.fragment_index < block_.fragment_count && !block_.acked[ref.fragment_index]) {
    block_.acked[ref.fragment_index] = 1;
    if (++block_.acked_count == block_.fragment_count) {
      mark_acked(s);
      block_.active = false;
    }
  }
  // Bytes leave the window only when everything before them is acked too: until then the peer may
  // be holding them, undeliverable, behind a gap.
  while (oldest_index_ < next_index_ && slot(oldest_index_).acked) {
    Slot& oldest = slot(oldest_index_);
    if (!oldest.block) in_flight_bytes_ -= oldest.bytes;
    oldest = Slot{};
    ++oldest_index_;
  }
}

std::optional<MonoTime> ReliableSendQueue::oldest_unacked_sent_at() const {
  for (uint64_t index = oldest_index_; index < next_index_; ++index) {
    const Slot& s = slot(index);
    if (s.acked) continue;
    if (s.sent) return s.first_sent;
    return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace tickwire

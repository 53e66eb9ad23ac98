// Reliable send queue. Messages are indexed by a 64-bit counter whose low 16 bits are the wire id,
// so the slot ring never aliases across the id wrap. Resends wait in a ring (each message or
// fragment at most once) and go before first sends; first sends go strictly in id order and only
// when no resend waits, which is what bounds the ring. Only the oldest unacked block is active (sent
// as fragments) at a time; messages queued after it flow once its fragments have all left once.
#include "tickwire/transport/reliable_send_queue.h"

#include <algorithm>

#include "tickwire/core/assert.h"
#include "tickwire/core/sequence.h"

namespace tickwire {

ReliableSendQueue::ReliableSendQueue(const ChannelConfig& config, uint8_t channel)
    : config_(config),
      channel_(channel),
      pool_(config.send_queue_bytes, config.pool_chunk_bytes),
      slots_(config.send_queue_messages),
      due_(config.send_window_messages + config.max_fragments) {
  TW_ASSERT(config.is_reliable(), "a reliable send queue needs a reliable channel");
  if (config.blocks_enabled()) {
    block_.acked.resize(config.max_fragments);
    block_.due.resize(config.max_fragments);
    block_.backoff.resize(config.max_fragments);
    block_.last_sent.resize(config.max_fragments);
  }
}

std::size_t ReliableSendQueue::memory_bytes() const {
  return pool_.memory_bytes() + slots_.size() * sizeof(Slot) + block_.acked.size() * (3 + sizeof(MonoTime)) +
         due_.size() * sizeof(Due);
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
  s.due = false;
  s.backoff = 0;
  s.block = bytes > config_.max_message_bytes;
  s.bytes = static_cast<uint32_t>(bytes);
  unsent_bytes_ += bytes;
  const auto id = static_cast<uint16_t>(next_index_);
  ++next_index_;
  return {SendError::ok, id};
}

std::size_t ReliableSendQueue::rounded(std::size_t bytes) const {
  const std::size_t chunk = config_.pool_chunk_bytes;
  return (bytes + chunk - 1) / chunk * chunk;
}

uint32_t ReliableSendQueue::fragment_length(const Slot& s, uint16_t f) const {
  const uint32_t offset = f * config_.fragment_bytes;
  return std::min(config_.fragment_bytes, s.bytes - offset);
}

Duration ReliableSendQueue::backoff_delay(Duration rto, uint8_t doublings, Duration max_rto) {
  Duration d = rto;
  for (uint8_t k = 0; k < doublings && d < max_rto; ++k) d = d * 2;
  return std::min(d, max_rto);
}

bool ReliableSendQueue::window_admits(std::size_t bytes, std::size_t span_bytes) const {
  const bool window = in_flight_bytes_ == 0 || in_flight_bytes_ + bytes <= config_.send_window_bytes;
  const bool span = span_bytes_ == 0 || span_bytes_ + span_bytes <= config_.send_span_bytes;
  return window && span;
}

void ReliableSendQueue::push_due(const Due& d) {
  TW_ASSERT(due_count_ < due_.size(), "the resend ring holds every message and fragment in flight");
  due_[(due_head_ + due_count_) % due_.size()] = d;
  ++due_count_;
}

bool ReliableSendQueue::due_is_stale(const Due& d) const {
  if (d.index < oldest_index_ || d.index >= next_unsent_index_ + 1) return true;
  const Slot& s = slot(d.index);
  if (!s.used || s.acked) return true;
  if (!d.is_fragment) return false;
  return !block_.active || block_.index != d.index || block_.acked[d.fragment] != 0;
}

void ReliableSendQueue::collect_timed_out(MonoTime now, Duration rto, Duration max_rto) {
  last_rto_ = rto;
  if (now < next_timeout_check_) return;
  MonoTime next = now + max_rto;
  for (uint64_t index = oldest_index_; index < next_unsent_index_; ++index) {
    Slot& s = slot(index);
    if (!s.used || s.acked || !s.sent || s.block || s.due) continue;
    const MonoTime due_at = s.last_sent + backoff_delay(rto, s.backoff, max_rto);
    if (due_at > now) {
      next = std::min(next, due_at);
      continue;
    }
    s.due = true;
    push_due(Due{index, 0, false, true});
  }
  if (block_.active) {
    for (uint16_t f = 0; f < block_.next_unsent; ++f) {
      if (block_.acked[f] != 0 || block_.due[f] != 0) continue;
      const MonoTime due_at = block_.last_sent[f] + backoff_delay(rto, block_.backoff[f], max_rto);
      if (due_at > now) {
        next = std::min(next, due_at);
        continue;
      }
      block_.due[f] = 1;
      push_due(Due{block_.index, f, true, true});
    }
  }
  next_timeout_check_ = next;
}

void ReliableSendQueue::write(PacketRoom& room) {
  while (due_count_ > 0) {
    const Due d = due_[due_head_];
    if (!due_is_stale(d) && !write_resend(room, d)) return;  // no room: it stays first for the next packet
    due_head_ = (due_head_ + 1) % due_.size();
    --due_count_;
  }
  write_first_sends(room);
}

void ReliableSendQueue::write_message_entry(PacketRoom& room, uint64_t index, const Slot& s) {
  const auto id = static_cast<uint16_t>(index);
  write_message_entry_head(room.writer, EntryKind::reliable, channel_, id, static_cast<uint16_t>(s.bytes));
  pool_.copy_out(s.data, 0, room.writer.reserve(s.bytes));
  room.consumed(kMessageEntryOverheadBytes + s.bytes, ContentRef{channel_, EntryKind::reliable, id, 0});
}

bool ReliableSendQueue::write_fragment_entry(PacketRoom& room, uint64_t index, const Slot& s, uint16_t f) {
  const uint32_t offset = f * config_.fragment_bytes;
  const uint32_t length = fragment_length(s, f);
  const std::size_t entry_bytes = kFragmentEntryOverheadBytes + length;
  if (!room.fits(entry_bytes)) return false;
  const auto id = static_cast<uint16_t>(index);
  const FragmentHeader header{f, block_.fragment_count, s.bytes, offset};
  write_fragment_entry_head(room.writer, channel_, id, header, static_cast<uint16_t>(length));
  pool_.copy_out(s.data, offset, room.writer.reserve(length));
  room.consumed(entry_bytes, ContentRef{channel_, EntryKind::fragment, id, f});
  return true;
}

bool ReliableSendQueue::write_resend(PacketRoom& room, const Due& d) {
  Slot& s = slot(d.index);
  uint8_t* backoff = &s.backoff;
  if (d.is_fragment) {
    if (!write_fragment_entry(room, d.index, s, d.fragment)) return false;
    block_.due[d.fragment] = 0;
    block_.last_sent[d.fragment] = room.now;
    backoff = &block_.backoff[d.fragment];
  } else {
    if (!room.fits(kMessageEntryOverheadBytes + s.bytes)) return false;
    write_message_entry(room, d.index, s);
    s.due = false;
  }
  s.last_sent = room.now;
  ++resends_;
  if (d.timed) {
    *backoff = static_cast<uint8_t>(std::min<int>(*backoff + 1, kMaxBackoffDoublings));
  } else {
    ++fast_resends_;
  }
  next_timeout_check_ = std::min(next_timeout_check_, room.now + last_rto_);
  return true;
}

void ReliableSendQueue::activate_block(uint64_t index, const Slot& s) {
  block_.active = true;
  block_.index = index;
  block_.fragment_count = static_cast<uint16_t>((s.bytes + config_.fragment_bytes - 1) / config_.fragment_bytes);
  block_.acked_count = 0;
  block_.next_unsent = 0;
  std::fill_n(block_.acked.begin(), block_.fragment_count, uint8_t{0});
  std::fill_n(block_.due.begin(), block_.fragment_count, uint8_t{0});
  std::fill_n(block_.backoff.begin(), block_.fragment_count, uint8_t{0});
}

bool ReliableSendQueue::write_first_sends(PacketRoom& room) {
  const uint64_t end = std::min<uint64_t>(next_index_, oldest_index_ + config_.send_window_messages);
  while (next_unsent_index_ < end) {
    Slot& s = slot(next_unsent_index_);
    if (!s.block) {
      if (!window_admits(s.bytes, rounded(s.bytes)) || !room.fits(kMessageEntryOverheadBytes + s.bytes)) return false;
      write_message_entry(room, next_unsent_index_, s);
      s.sent = true;
      s.first_sent = room.now;
      s.last_sent = room.now;
      in_flight_bytes_ += s.bytes;
      span_bytes_ += rounded(s.bytes);
      unsent_bytes_ -= s.bytes;
      next_timeout_check_ = std::min(next_timeout_check_, room.now + last_rto_);
      ++next_unsent_index_;
      continue;
    }
    if (block_.active && block_.index != next_unsent_index_) return false;  // the previous block is not acked yet
    if (!block_.active) activate_block(next_unsent_index_, s);
    while (block_.next_unsent < block_.fragment_count) {
      const uint16_t f = block_.next_unsent;
      const uint32_t length = fragment_length(s, f);
      // Fragments fill the peer's reassembly buffer, not its pool: the endpoint's pacing and
      // in-flight cap bound them, not this channel's window.
      if (!write_fragment_entry(room, next_unsent_index_, s, f)) return false;
      block_.last_sent[f] = room.now;
      ++block_.next_unsent;
      unsent_bytes_ -= length;
      if (!s.sent) {
        s.sent = true;
        s.first_sent = room.now;
      }
      s.last_sent = room.now;
      next_timeout_check_ = std::min(next_timeout_check_, room.now + last_rto_);
    }
    ++next_unsent_index_;
  }
  return true;
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
    in_flight_bytes_ -= s.bytes;  // it leaves the window now, whatever is still missing before it
    mark_acked(s);
  } else if (ref.kind == EntryKind::fragment && s.block && block_.active && block_.index == *index &&
             ref.fragment_index < block_.next_unsent && block_.acked[ref.fragment_index] == 0) {
    block_.acked[ref.fragment_index] = 1;
    if (++block_.acked_count == block_.fragment_count) {
      mark_acked(s);
      block_.active = false;
    }
  }
  // The span shrinks only from its old end: until then the peer may hold what follows, out of order.
  while (oldest_index_ < next_index_ && slot(oldest_index_).acked) {
    Slot& oldest = slot(oldest_index_);
    if (!oldest.block) span_bytes_ -= rounded(oldest.bytes);
    oldest = Slot{};
    ++oldest_index_;
  }
}

void ReliableSendQueue::on_lost(const ContentRef& ref, MonoTime sent_at) {
  const std::optional<uint64_t> index = index_of(ref.message_id);
  if (!index || *index >= next_unsent_index_ + 1) return;
  Slot& s = slot(*index);
  if (!s.used || s.acked || !s.sent) return;
  if (ref.kind == EntryKind::reliable && !s.block) {
    if (s.due || s.last_sent > sent_at) return;  // queued already, or a newer copy is out
    s.due = true;
    push_due(Due{*index, 0, false, false});
  } else if (ref.kind == EntryKind::fragment && s.block && block_.active && block_.index == *index) {
    const uint16_t f = ref.fragment_index;
    if (f >= block_.next_unsent || block_.acked[f] != 0 || block_.due[f] != 0 || block_.last_sent[f] > sent_at) return;
    block_.due[f] = 1;
    push_due(Due{*index, f, true, false});
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

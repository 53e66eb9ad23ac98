// The endpoint ties the parts together: packet decode and entry dispatch on the way in, packet
// assembly within the MTU and per-channel budgets on the way out, ack fan-out to the channels and
// to the notice queues, and the housekeeping (loss, bandwidth, timeouts) that runs every write.
#include "tickwire/transport/reliable_endpoint.h"

#include <array>
#include <limits>

#include "tickwire/core/assert.h"
#include "tickwire/core/ring_buffer.h"
#include "tickwire/transport/ack_tracker.h"
#include "tickwire/transport/bandwidth_meter.h"
#include "tickwire/transport/packet_entry.h"
#include "tickwire/transport/packet_header.h"
#include "tickwire/transport/packet_room.h"
#include "tickwire/transport/reliable_receive_queue.h"
#include "tickwire/transport/reliable_send_queue.h"
#include "tickwire/transport/rtt_estimator.h"
#include "tickwire/transport/sent_content_log.h"
#include "tickwire/transport/unreliable_channel.h"

namespace tickwire {

namespace {

struct Channel {
  ChannelKind kind = ChannelKind::none;
  std::optional<ReliableSendQueue> reliable_send;
  std::optional<ReliableReceiveQueue> reliable_receive;
  std::optional<UnreliableChannel> unreliable;
};

}  // namespace

struct ReliableEndpoint::Impl {
  explicit Impl(const EndpointConfig& c)
      : config(c),
        log(kSentContentRecords),
        rtt(c.initial_rto, c.min_rto, c.max_rto),
        sent_meter(c.bandwidth_interval),
        received_meter(c.bandwidth_interval),
        acked_meter(c.bandwidth_interval) {
    config.validate();
    for (std::size_t i = 0; i < kMaxChannels; ++i) {
      const ChannelConfig& cc = config.channels[i];
      Channel& ch = channels[i];
      ch.kind = cc.kind;
      if (cc.kind == ChannelKind::reliable_ordered) {
        ch.reliable_send.emplace(cc, static_cast<uint8_t>(i));
        ch.reliable_receive.emplace(cc);
      } else if (cc.kind == ChannelKind::unreliable) {
        ch.unreliable.emplace(cc, static_cast<uint8_t>(i));
      }
    }
  }

  void fail(TransportReason reason) {
    TW_ASSERT(is_fatal(reason), "fail() needs a fatal reason");
    counters.add(reason);
    if (!failed) {
      failed = true;
      failure = reason;
    }
  }
  Status malformed(Error error) {
    counters.add(TransportReason::malformed_packet);
    decode_errors.add(error);
    return error;
  }

  void on_packet_acked(uint16_t sequence, const SentPacketRecord& record, MonoTime now);
  EntryOutcome dispatch(const EntryView& entry, MonoTime now);
  void housekeeping(MonoTime now);
  bool write_one_packet(MonoTime now, std::array<std::size_t, kMaxChannels>& budgets, bool first, PacketSink& out);

  EndpointConfig config;
  AckTracker acks;
  SentContentLog log;
  RttEstimator rtt;
  BandwidthMeter sent_meter;
  BandwidthMeter received_meter;
  BandwidthMeter acked_meter;
  std::array<Channel, kMaxChannels> channels;
  RingBuffer<uint16_t, kAckNoticeQueueCap> acked_packets;
  RingBuffer<AckedMessage, kAckNoticeQueueCap> acked_messages;
  std::array<uint8_t, kMaxPacketPayloadBytes> packet{};
  std::array<EntryView, kMaxEntriesPerPacket> entries{};
  TransportCounters counters;
  SendCounters refusals;
  ReasonCounters<Error> decode_errors;
  MonoTime last_eliciting_sent;
  bool sent_eliciting = false;
  bool failed = false;
  TransportReason failure = TransportReason::count_;
  uint64_t packets_sent = 0;
  uint64_t packets_received = 0;
  uint64_t packets_acked = 0;
};

ReliableEndpoint::ReliableEndpoint(const EndpointConfig& config) : impl_(std::make_unique<Impl>(config)) {}
ReliableEndpoint::~ReliableEndpoint() = default;
ReliableEndpoint::ReliableEndpoint(ReliableEndpoint&&) noexcept = default;
ReliableEndpoint& ReliableEndpoint::operator=(ReliableEndpoint&&) noexcept = default;

SendResult ReliableEndpoint::send(uint8_t channel, std::span<const uint8_t> payload) { return send(channel, {}, payload); }

SendResult ReliableEndpoint::send(uint8_t channel, std::span<const uint8_t> head, std::span<const uint8_t> body) {
  Impl& m = *impl_;
  SendResult result{SendError::unknown_channel};
  if (m.failed) {
    result = {SendError::endpoint_failed};
  } else if (channel < kMaxChannels) {
    Channel& ch = m.channels[channel];
    if (ch.reliable_send) result = ch.reliable_send->push(head, body);
    if (ch.unreliable) result = ch.unreliable->push(head, body, m.counters);
  }
  if (!result.ok()) m.refusals.add(result.error);
  return result;
}

std::optional<std::span<const uint8_t>> ReliableEndpoint::receive(uint8_t channel) {
  Impl& m = *impl_;
  if (m.failed || channel >= kMaxChannels) return std::nullopt;
  Channel& ch = m.channels[channel];
  if (ch.reliable_receive) return ch.reliable_receive->receive();
  if (ch.unreliable) return ch.unreliable->receive();
  return std::nullopt;
}

Status ReliableEndpoint::receive_packet(std::span<const uint8_t> payload, MonoTime now) {
  Impl& m = *impl_;
  if (m.failed) return Status();
  m.received_meter.add(now, payload.size());
  ByteReader reader(payload);
  PacketHeader header;
  if (const Status s = header.read(reader); !s) return m.malformed(s.error());
  std::size_t count = 0;
  while (!reader.at_end()) {
    if (count == kMaxEntriesPerPacket) {
      m.counters.add(TransportReason::too_many_entries);
      return m.malformed(Error::count_over_max);
    }
    if (const Status s = read_entry(reader, m.entries[count]); !s) return m.malformed(s.error());
    ++count;
  }
  ++m.packets_received;
  m.acks.apply_acks(header, [&](uint16_t sequence, const SentPacketRecord& record) {
    m.on_packet_acked(sequence, record, now);
  });
  switch (m.acks.classify(header.sequence)) {
    case AckTracker::Incoming::duplicate:
      m.counters.add(TransportReason::duplicate_packet);
      return Status();
    case AckTracker::Incoming::stale:
      m.counters.add(TransportReason::stale_packet);
      return Status();
    case AckTracker::Incoming::fresh:
      break;
  }
  bool ackable = true;
  for (std::size_t i = 0; i < count; ++i) {
    const EntryOutcome outcome = m.dispatch(m.entries[i], now);
    if (outcome.reason != TransportReason::count_ && outcome.kind != EntryOutcome::fatal) m.counters.add(outcome.reason);
    if (outcome.kind == EntryOutcome::fatal) {
      m.fail(outcome.reason);
      return Status();
    }
    ackable = ackable && outcome.ackable();
  }
  // A packet whose reliable content we could not take is not acked, so the peer sends it again.
  if (ackable) m.acks.mark_received(header.sequence, count > 0);
  return Status();
}

void ReliableEndpoint::Impl::on_packet_acked(uint16_t sequence, const SentPacketRecord& record, MonoTime now) {
  ++packets_acked;
  acked_meter.add(now, record.bytes);
  // Every newly acked packet that elicited a prompt ack is a sample of how long an ack takes to
  // reach us, which is what the resend delay must cover (sampling only the header's `ack` would
  // favour the fastest packets under reordering; ack-only packets are acked late by design).
  if (record.ack_eliciting) rtt.sample(now - record.sent_at);
  if (!acked_packets.push(sequence)) counters.add(TransportReason::ack_queue_full);
  if (!log.available(record.content_begin, record.content_count)) {
    counters.add(TransportReason::sent_refs_expired);
    return;
  }
  for (uint16_t k = 0; k < record.content_count; ++k) {
    const ContentRef& ref = log.at(record.content_begin + k);
    Channel& ch = channels[ref.channel];
    if (ref.kind == EntryKind::unreliable) {
      if (!acked_messages.push(AckedMessage{ref.channel, ref.message_id, sequence})) {
        counters.add(TransportReason::ack_queue_full);
      }
    } else if (ch.reliable_send) {
      ch.reliable_send->on_acked(ref);
    }
  }
}

EntryOutcome ReliableEndpoint::Impl::dispatch(const EntryView& entry, MonoTime now) {
  using R = TransportReason;
  if (entry.kind == EntryKind::ping) return {EntryOutcome::accepted};
  Channel& ch = channels[entry.channel];
  switch (ch.kind) {
    case ChannelKind::none:
      return {EntryOutcome::dropped, R::unknown_channel};
    case ChannelKind::unreliable:
      if (entry.kind != EntryKind::unreliable) return {EntryOutcome::dropped, R::wrong_channel_kind};
      ch.unreliable->on_message(entry.message_id, entry.bytes, counters);
      return {EntryOutcome::accepted};
    case ChannelKind::reliable_ordered:
      if (entry.kind == EntryKind::reliable) return ch.reliable_receive->on_message(entry.message_id, entry.bytes);
      if (entry.kind == EntryKind::fragment) {
        return ch.reliable_receive->on_fragment(entry.message_id, entry.fragment, entry.bytes, now);
      }
      return {EntryOutcome::dropped, R::wrong_channel_kind};
  }
  return {EntryOutcome::dropped, R::unknown_channel};
}

void ReliableEndpoint::Impl::housekeeping(MonoTime now) {
  sent_meter.update(now);
  received_meter.update(now);
  acked_meter.update(now);
  acks.update_loss(now, rtt.rto() * 2);
  for (Channel& ch : channels) {
    if (!ch.reliable_send) continue;
    const std::optional<MonoTime> oldest = ch.reliable_send->oldest_unacked_sent_at();
    if (oldest && now - *oldest >= config.reliable_timeout) fail(TransportReason::reliable_timeout);
    if (const auto reason = ch.reliable_receive->expire(now, config.fragment_set_timeout)) fail(*reason);
  }
}

bool ReliableEndpoint::Impl::write_one_packet(MonoTime now, std::array<std::size_t, kMaxChannels>& budgets,
                                              bool first, PacketSink& out) {
  ByteWriter writer(std::span<uint8_t>(packet.data(), config.max_packet_bytes));
  const PacketHeader header = acks.next_header();
  header.write(writer);
  const std::size_t header_bytes = writer.size();
  const uint32_t content_begin = log.position();
  std::size_t content_count = 0;
  std::size_t entries_left = kMaxEntriesPerPacket;
  const Duration resend_delay = rtt.rto();
  for (std::size_t c = 0; c < kMaxChannels; ++c) {
    PacketRoom room{writer, log, now, resend_delay, budgets[c], entries_left, content_count};
    Channel& ch = channels[c];
    if (ch.reliable_send) ch.reliable_send->write(room);
    if (ch.unreliable) ch.unreliable->write(room);
  }
  const bool has_content = writer.size() > header_bytes;
  if (!has_content) {
    if (!first) return false;
    const bool keepalive_due = !sent_eliciting || now - last_eliciting_sent >= config.keepalive_interval;
    if (keepalive_due) {
      write_ping_entry(writer);
    } else if (!acks.ack_due()) {
      return false;
    }
  }
  TW_ASSERT(writer.ok(), "packet assembly overran its buffer");
  const bool eliciting = writer.size() > header_bytes;
  if (eliciting) {
    sent_eliciting = true;
    last_eliciting_sent = now;
  }
  acks.on_sent(now, writer.size(), eliciting, content_begin, static_cast<uint16_t>(content_count));
  sent_meter.add(now, writer.size());
  ++packets_sent;
  out.on_packet(header.sequence, writer.written());
  return has_content;
}

void ReliableEndpoint::write_packets(MonoTime now, PacketSink& out) {
  Impl& m = *impl_;
  if (m.failed) return;
  m.housekeeping(now);
  if (m.failed) return;
  std::array<std::size_t, kMaxChannels> budgets{};
  for (std::size_t c = 0; c < kMaxChannels; ++c) {
    const uint32_t budget = m.config.channels[c].budget_bytes_per_write;
    budgets[c] = budget == 0 ? std::numeric_limits<std::size_t>::max() : budget;
  }
  for (uint32_t p = 0; p < m.config.max_packets_per_write; ++p) {
    if (!m.write_one_packet(now, budgets, p == 0, out)) break;
  }
  for (Channel& ch : m.channels) {
    if (ch.unreliable) ch.unreliable->expire_unsent(m.counters);
  }
}

std::optional<uint16_t> ReliableEndpoint::pop_acked_packet() {
  if (impl_->acked_packets.empty()) return std::nullopt;
  return impl_->acked_packets.pop();
}

std::optional<AckedMessage> ReliableEndpoint::pop_acked_message() {
  if (impl_->acked_messages.empty()) return std::nullopt;
  return impl_->acked_messages.pop();
}

bool ReliableEndpoint::failed() const { return impl_->failed; }
TransportReason ReliableEndpoint::failure() const { return impl_->failure; }
const TransportCounters& ReliableEndpoint::counters() const { return impl_->counters; }
const SendCounters& ReliableEndpoint::send_refusals() const { return impl_->refusals; }
const ReasonCounters<Error>& ReliableEndpoint::decode_errors() const { return impl_->decode_errors; }
const EndpointConfig& ReliableEndpoint::config() const { return impl_->config; }

std::size_t ReliableEndpoint::memory_bytes() const {
  const Impl& m = *impl_;
  std::size_t total = sizeof(Impl) + m.log.memory_bytes();
  for (const Channel& ch : m.channels) {
    if (ch.reliable_send) total += ch.reliable_send->memory_bytes() + ch.reliable_receive->memory_bytes();
    if (ch.unreliable) total += ch.unreliable->memory_bytes();
  }
  return total;
}

ConnectionStats ReliableEndpoint::stats() const {
  const Impl& m = *impl_;
  ConnectionStats s;
  s.rtt_ms = m.rtt.srtt().milliseconds_f();
  s.rtt_var_ms = m.rtt.rttvar().milliseconds_f();
  s.rto_ms = m.rtt.rto().milliseconds_f();
  s.loss_percent = m.acks.loss_fraction() * 100.0;
  s.sent_kbps = m.sent_meter.kbps();
  s.received_kbps = m.received_meter.kbps();
  s.acked_kbps = m.acked_meter.kbps();
  s.packets_sent = m.packets_sent;
  s.packets_received = m.packets_received;
  s.packets_acked = m.packets_acked;
  s.packets_lost = m.acks.packets_lost();
  s.bytes_sent = m.sent_meter.total_bytes();
  s.bytes_received = m.received_meter.total_bytes();
  s.drops = m.counters.total();
  s.send_refusals = m.refusals.total();
  s.failed = m.failed;
  s.failure = m.failure;
  for (std::size_t c = 0; c < kMaxChannels; ++c) {
    const Channel& ch = m.channels[c];
    ChannelStats& cs = s.channels[c];
    cs.kind = ch.kind;
    if (ch.reliable_send) {
      cs.send_queue_messages = ch.reliable_send->queued_messages();
      cs.send_queue_bytes = ch.reliable_send->queued_bytes();
      cs.receive_queue_messages = ch.reliable_receive->queued_messages();
      cs.receive_queue_bytes = ch.reliable_receive->queued_bytes();
      cs.messages_acked = ch.reliable_send->messages_acked();
      cs.delivered = ch.reliable_receive->delivered();
      cs.resends = ch.reliable_send->resends();
      s.resends += cs.resends;
    } else if (ch.unreliable) {
      cs.send_queue_messages = ch.unreliable->queued_send_messages();
      cs.send_queue_bytes = ch.unreliable->queued_send_bytes();
      cs.receive_queue_messages = ch.unreliable->queued_receive_messages();
      cs.receive_queue_bytes = ch.unreliable->queued_receive_bytes();
      cs.delivered = ch.unreliable->delivered();
    }
  }
  return s;
}

}  // namespace tickwire

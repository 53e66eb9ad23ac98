// The endpoint ties the parts together: packet decode and entry dispatch on the way in, packet
// assembly within the MTU, per-channel budgets and the pacer on the way out, ack and loss fan-out
// to the channels, the rate estimator and the notice queues, and the housekeeping (loss, bandwidth,
// timeouts, resend timers) that runs every write. Unreliable channels fill each packet first: they
// are never resent and the app sized them from send_allowance(); reliable data takes what is left.
#include "tickwire/transport/reliable_endpoint.h"

#include <algorithm>
#include <array>
#include <limits>

#include "tickwire/core/assert.h"
#include "tickwire/core/ring_buffer.h"
#include "tickwire/transport/ack_tracker.h"
#include "tickwire/transport/bandwidth_meter.h"
#include "tickwire/transport/link_rate_estimator.h"
#include "tickwire/transport/packet_entry.h"
#include "tickwire/transport/packet_header.h"
#include "tickwire/transport/packet_room.h"
#include "tickwire/transport/reliable_receive_queue.h"
#include "tickwire/transport/reliable_send_queue.h"
#include "tickwire/transport/rtt_estimator.h"
#include "tickwire/transport/send_pacer.h"
#include "tickwire/transport/sent_content_log.h"
#include "tickwire/transport/unreliable_channel.h"

namespace tickwire {

namespace {

// The pacer always lets at least this much out in a burst (and the in-flight cap never falls below
// it): a few packets, so a slow estimate still moves a tick's snapshot and a little reliable data.
constexpr std::size_t kMinBurstPackets = 4;
constexpr std::size_t kMinInflightPackets = 32;
// A packet sent before the newest acked one is lost once it is this much older than an RTT (9/8)...
constexpr int64_t kLossTimeNumerator = 9;
constexpr int64_t kLossTimeDenominator = 8;
// ...and at least this old: a clock granule, so sub-millisecond RTTs do not resend on jitter.
constexpr Duration kLossTimeFloor = Duration::milliseconds(1);

LinkRateConfig rate_config(const EndpointConfig& c) {
  LinkRateConfig r;
  r.initial_bytes_per_second = c.initial_send_rate_bytes;
  r.min_bytes_per_second = c.min_send_rate_bytes;
  r.max_bytes_per_second = c.max_send_rate_bytes;
  r.min_inflight_bytes = kMinInflightPackets * c.max_packet_bytes;
  return r;
}

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
        acked_meter(c.bandwidth_interval),
        rate(rate_config(c)),
        pacer(c.pacing_burst, kMinBurstPackets * c.max_packet_bytes) {
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
  void on_packet_lost(const SentPacketRecord& record);
  Duration loss_time_threshold() const;
  std::size_t reliable_waiting_bytes() const;
  EntryOutcome dispatch(const EntryView& entry, MonoTime now);
  void housekeeping(MonoTime now);
  bool write_one_packet(MonoTime now, std::array<std::size_t, kMaxChannels>& budgets, bool first, bool reliable,
                        PacketSink& out);
  void write_backfill_acks(MonoTime now, PacketSink& out);
  bool reliable_may_send() const { return pacer.allows() && acks.bytes_in_flight() < rate.inflight_cap_bytes(); }

  EndpointConfig config;
  AckTracker acks;
  SentContentLog log;
  RttEstimator rtt;
  BandwidthMeter sent_meter;
  BandwidthMeter received_meter;
  BandwidthMeter acked_meter;
  LinkRateEstimator rate;
  SendPacer pacer;
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
  m.acks.detect_losses(now, m.loss_time_threshold(),
                       [&](uint16_t, const SentPacketRecord& record) { m.on_packet_lost(record); });
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
  if (record.ack_eliciting) {
    rtt.sample(now - record.sent_at);
    rate.on_rtt_sample(now, now - record.sent_at);
    rate.on_acked(now, record.sent_at, record.bytes, record.delivery, acks.bytes_in_flight());
  }
  if (config.ack_notices && !acked_packets.push(sequence)) counters.add(TransportReason::ack_queue_full);
  if (!log.available(record.content_begin, record.content_count)) {
    counters.add(TransportReason::sent_refs_expired);
    return;
  }
  for (uint16_t k = 0; k < record.content_count; ++k) {
    const ContentRef& ref = log.at(record.content_begin + k);
    Channel& ch = channels[ref.channel];
    if (ref.kind == EntryKind::unreliable) {
      if (config.ack_notices && !acked_messages.push(AckedMessage{ref.channel, ref.message_id, sequence})) {
        counters.add(TransportReason::ack_queue_full);
      }
    } else if (ch.reliable_send) {
      ch.reliable_send->on_acked(ref);
    }
  }
}

void ReliableEndpoint::Impl::on_packet_lost(const SentPacketRecord& record) {
  rate.on_lost(record.bytes);
  if (!log.available(record.content_begin, record.content_count)) return;  // resent on its timer
  for (uint16_t k = 0; k < record.content_count; ++k) {
    const ContentRef& ref = log.at(record.content_begin + k);
    if (ref.kind == EntryKind::unreliable) continue;
    if (Channel& ch = channels[ref.channel]; ch.reliable_send) ch.reliable_send->on_lost(ref, record.sent_at);
  }
}

Duration ReliableEndpoint::Impl::loss_time_threshold() const {
  if (!rtt.has_sample()) return config.initial_rto;
  const Duration base = std::max(rtt.srtt(), rtt.latest());
  return std::max(base * kLossTimeNumerator / kLossTimeDenominator, kLossTimeFloor);
}

std::size_t ReliableEndpoint::Impl::reliable_waiting_bytes() const {
  std::size_t total = 0;
  for (const Channel& ch : channels) {
    if (ch.reliable_send) total += ch.reliable_send->waiting_bytes();
  }
  return total;
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
    ch.reliable_send->collect_timed_out(now, rtt.rto(), config.max_rto);
  }
}

bool ReliableEndpoint::Impl::write_one_packet(MonoTime now, std::array<std::size_t, kMaxChannels>& budgets,
                                              bool first, bool reliable, PacketSink& out) {
  ByteWriter writer(std::span<uint8_t>(packet.data(), config.max_packet_bytes));
  const PacketHeader header = acks.next_header();
  header.write(writer);
  const std::size_t header_bytes = writer.size();
  const uint32_t content_begin = log.position();
  std::size_t content_count = 0;
  std::size_t entries_left = kMaxEntriesPerPacket;
  for (std::size_t c = 0; c < kMaxChannels; ++c) {
    if (!channels[c].unreliable) continue;
    PacketRoom room{writer, log, now, budgets[c], entries_left, content_count};
    channels[c].unreliable->write(room);
  }
  for (std::size_t c = 0; c < kMaxChannels && reliable; ++c) {
    if (!channels[c].reliable_send) continue;
    PacketRoom room{writer, log, now, budgets[c], entries_left, content_count};
    channels[c].reliable_send->write(room);
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
  const DeliveryStamp delivery = eliciting ? rate.on_sent(now, acks.bytes_in_flight()) : DeliveryStamp{};
  acks.on_sent(now, writer.size(), eliciting, content_begin, static_cast<uint16_t>(content_count), delivery);
  pacer.spend(writer.size());
  sent_meter.add(now, writer.size());
  ++packets_sent;
  out.on_packet(header.sequence, writer.written());
  return has_content;
}

// More than 33 packets arrived since our last write: this write's headers reach only the newest
// 33, so older ones get ack-only headers of their own (else the peer would resend what arrived).
// They go first, oldest range first, so the peer learns of older arrivals before a newer ack could
// make it count them lost.
void ReliableEndpoint::Impl::write_backfill_acks(MonoTime now, PacketSink& out) {
  std::array<PacketHeader, kMaxBackfillHeaders> headers;
  const std::size_t count = acks.backfill_headers(headers);
  for (std::size_t i = count; i-- > 0;) {
    PacketHeader header = headers[i];
    header.sequence = acks.next_sequence();
    ByteWriter writer(std::span<uint8_t>(packet.data(), config.max_packet_bytes));
    header.write(writer);
    acks.on_backfill_sent(now, writer.size(), log.position());
    pacer.spend(writer.size());
    sent_meter.add(now, writer.size());
    ++packets_sent;
    out.on_packet(header.sequence, writer.written());
  }
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
  m.pacer.refill(now, m.rate.pacing_bytes_per_second());
  m.acks.start_write();
  m.write_backfill_acks(now, out);
  for (uint32_t p = 0; p < m.config.max_packets_per_write; ++p) {
    if (!m.write_one_packet(now, budgets, p == 0, m.reliable_may_send(), out)) break;
  }
  // Less to send than the pacer allowed: the delivery rate now measures the app, not the link.
  if (m.reliable_may_send() && m.reliable_waiting_bytes() == 0) m.rate.on_app_limited(m.acks.bytes_in_flight());
  for (Channel& ch : m.channels) {
    if (ch.unreliable) ch.unreliable->expire_unsent(m.counters);
  }
}

SendAllowance ReliableEndpoint::send_allowance(Duration interval) const {
  const Impl& m = *impl_;
  SendAllowance a;
  a.link_bytes_per_second = m.rate.planning_bytes_per_second();
  a.interval_bytes = static_cast<std::size_t>(a.link_bytes_per_second * std::max(interval, Duration()).seconds_f());
  a.reliable_waiting_bytes = m.reliable_waiting_bytes();
  const std::size_t share = a.reliable_waiting_bytes == 0 ? 0 : a.interval_bytes * m.config.reliable_share_percent / 100;
  a.unreliable_bytes = a.interval_bytes - share;
  return a;
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
  s.link_bytes_per_second = m.rate.planning_bytes_per_second();
  s.bottleneck_bytes_per_second = m.rate.bottleneck_bytes_per_second();
  s.pacing_bytes_per_second = m.rate.pacing_bytes_per_second();
  s.bytes_in_flight = m.acks.bytes_in_flight();
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
      cs.fast_resends = ch.reliable_send->fast_resends();
      s.resends += cs.resends;
      s.fast_resends += cs.fast_resends;
    } else if (ch.unreliable) {
      cs.send_queue_messages = ch.unreliable->queued_send_messages();
      cs.send_queue_bytes = ch.unreliable->queued_send_bytes();
      cs.receive_queue_messages = ch.unreliable->queued_receive_messages();
      cs.receive_queue_bytes = ch.unreliable->queued_receive_bytes();
      cs.delivered = ch.unreliable->delivered();
      cs.late_taken = ch.unreliable->late_taken();
    }
  }
  return s;
}

}  // namespace tickwire

// Channel presets and the cap relations a configuration must keep: the receive side must hold what
// the peer's send window can put in flight plus a backlog, and every entry must fit one packet.
#include "tickwire/transport/endpoint_config.h"

#include "tickwire/core/assert.h"
#include "tickwire/transport/packet_entry.h"
#include "tickwire/transport/packet_header.h"

namespace tickwire {

ChannelConfig ChannelConfig::reliable() {
  ChannelConfig c;
  c.kind = ChannelKind::reliable_ordered;
  return c;
}

ChannelConfig ChannelConfig::reliable_with_blocks(uint32_t max_block_bytes) {
  ChannelConfig c = reliable();
  c.max_block_bytes = max_block_bytes;
  c.max_fragments = (max_block_bytes + c.fragment_bytes - 1) / c.fragment_bytes;
  c.pool_chunk_bytes = 256;
  c.send_queue_bytes = max_block_bytes + 32 * 1024;
  return c;
}

ChannelConfig ChannelConfig::unreliable(uint32_t max_message_bytes) {
  ChannelConfig c;
  c.kind = ChannelKind::unreliable;
  c.max_message_bytes = max_message_bytes;
  c.send_queue_bytes = 8 * max_message_bytes;
  c.receive_queue_bytes = 8 * max_message_bytes;
  return c;
}

EndpointConfig EndpointConfig::defaults() {
  EndpointConfig config;
  config.channels[0] = ChannelConfig::reliable_with_blocks(64 * 1024);
  config.channels[1] = ChannelConfig::unreliable();
  return config;
}

namespace {

void validate_channel(const ChannelConfig& c, uint32_t max_packet_bytes) {
  const std::size_t room = max_packet_bytes - kMaxPacketHeaderBytes;
  TW_ASSERT(c.max_message_bytes + kMessageEntryOverheadBytes <= room, "max_message_bytes must fit one packet");
  TW_ASSERT(c.pool_chunk_bytes >= 16 && c.pool_chunk_bytes <= 4096, "pool_chunk_bytes out of range");
  TW_ASSERT(c.send_queue_bytes >= c.max_send_bytes(), "the send pool must hold the largest message");
  TW_ASSERT(c.receive_queue_bytes >= c.max_message_bytes, "the receive pool must hold the largest message");
  if (c.kind == ChannelKind::unreliable) {
    TW_ASSERT(c.unreliable_queue_messages > 0, "an unreliable channel needs a queue");
    TW_ASSERT(c.unreliable_receive_window <= kMaxUnreliableReceiveWindow, "unreliable_receive_window over its cap");
    return;
  }
  TW_ASSERT(c.send_queue_messages > 0 && c.send_queue_messages <= 32768, "send_queue_messages out of range");
  TW_ASSERT(c.send_window_messages > 0 && c.send_window_messages <= c.send_queue_messages,
            "send_window_messages must be within the send queue");
  TW_ASSERT(c.receive_window_messages >= 2 * c.send_window_messages && c.receive_window_messages <= 32768,
            "the receive window must hold the peer's send window plus a backlog of as much again");
  TW_ASSERT(c.receive_queue_bytes >= 2 * static_cast<uint64_t>(c.send_span_bytes),
            "the receive pool must hold the peer's send span plus a backlog of as much again");
  TW_ASSERT(c.send_window_bytes >= c.max_message_bytes, "the send window must admit the largest message");
  TW_ASSERT(c.send_span_bytes >= c.max_message_bytes + c.pool_chunk_bytes, "the send span must admit the largest message");
  if (c.max_block_bytes > 0) {
    TW_ASSERT(c.fragment_bytes > 0 && c.fragment_bytes + kFragmentEntryOverheadBytes <= room,
              "fragment_bytes must fit one packet");
    TW_ASSERT(c.max_fragments > 0 && c.max_fragments <= kMaxFragmentsCap, "max_fragments out of range");
    TW_ASSERT(static_cast<uint64_t>(c.max_fragments) * c.fragment_bytes >= c.max_block_bytes,
              "max_fragments * fragment_bytes must cover max_block_bytes");
    TW_ASSERT(c.max_block_bytes > c.max_message_bytes, "blocks are for payloads above max_message_bytes");
  }
}

}  // namespace

void EndpointConfig::validate() const {
  TW_ASSERT(max_packet_bytes >= 64 && max_packet_bytes <= kMaxPacketPayloadBytes, "max_packet_bytes out of range");
  TW_ASSERT(max_packets_per_write > 0, "max_packets_per_write must be positive");
  TW_ASSERT(min_rto > Duration() && min_rto <= max_rto, "min_rto must be positive and <= max_rto");
  TW_ASSERT(keepalive_interval > Duration() && bandwidth_interval > Duration(), "intervals must be positive");
  TW_ASSERT(initial_send_rate_bytes > 0 && min_send_rate_bytes > 0, "send rates must be positive");
  TW_ASSERT(max_send_rate_bytes == 0 || max_send_rate_bytes >= min_send_rate_bytes, "max send rate below the minimum");
  TW_ASSERT(pacing_burst > Duration(), "pacing_burst must be positive");
  TW_ASSERT(reliable_share_percent <= 100, "reliable_share_percent is a percentage");
  for (const ChannelConfig& c : channels) {
    if (c.kind != ChannelKind::none) validate_channel(c, max_packet_bytes);
  }
}

}  // namespace tickwire

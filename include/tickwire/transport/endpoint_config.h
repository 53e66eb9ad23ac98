// The per-connection shape of the reliability layer: which of the (at most four) channels exist,
// what kind each is, and every cap that bounds its memory. Both peers of a connection must use the
// same channel layout; validate() states the relations the caps must keep (a programmer error if not).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "tickwire/clock/time.h"

namespace tickwire {

inline constexpr std::size_t kMaxChannels = 4;              // channel index is 2 bits on the wire
inline constexpr std::size_t kMaxPacketPayloadBytes = 1200;  // the MTU budget of one payload
inline constexpr std::size_t kMaxEntriesPerPacket = 64;      // entries one packet may carry
inline constexpr std::size_t kSentPacketWindow = 1024;       // sent-packet records kept for acks
inline constexpr std::size_t kReceivedPacketWindow = 256;    // received-packet flags kept
inline constexpr std::size_t kSentContentRecords = 4096;     // what-was-in-which-packet records
inline constexpr std::size_t kAckNoticeQueueCap = 1024;      // acked-packet / acked-message notices
inline constexpr uint32_t kMaxFragmentsCap = 4096;           // hard ceiling for max_fragments
inline constexpr uint32_t kMaxUnreliableReceiveWindow = 64;  // ids an unreliable receiver remembers (one 64-bit mask)

enum class ChannelKind : uint8_t { none = 0, reliable_ordered, unreliable };

struct ChannelConfig {
  ChannelKind kind = ChannelKind::none;
  // Largest single message; it must fit one packet entry.
  uint32_t max_message_bytes = 1024;
  // Bytes this channel may put on the wire in one write_packets call; 0 = only the packet room.
  uint32_t budget_bytes_per_write = 0;
  // Storage granularity of the send and receive byte pools.
  uint32_t pool_chunk_bytes = 64;

  // reliable-ordered: send side (caps on what a peer that never acks can make us hold)
  uint32_t send_queue_messages = 1024;
  uint32_t send_queue_bytes = 64 * 1024;
  uint32_t send_window_messages = 128;  // ids in flight ahead of the oldest unacked
  uint32_t send_window_bytes = 16 * 1024;  // sent and not yet acked (a message leaves it when acked)
  // Sent messages from the oldest unacked on, acked or not, in whole pool chunks: what the peer may
  // be holding out of order behind a gap. Its receive pool must hold twice this.
  uint32_t send_span_bytes = 24 * 1024;
  // reliable-ordered: receive side
  uint32_t receive_window_messages = 256;  // held for the app: out of order + not yet drained
  uint32_t receive_queue_bytes = 48 * 1024;
  // reliable-ordered: large blocks (0 disables); a message above max_message_bytes becomes a block
  uint32_t max_block_bytes = 0;
  uint32_t max_fragments = 0;
  uint32_t fragment_bytes = 1024;

  // unreliable: newest wins on both queues
  uint32_t unreliable_queue_messages = 8;
  // unreliable, receive side only (the peers need not agree): a message up to this many ids behind
  // the newest received is still taken if not yet seen, so a late one is not a lost one. 0 takes
  // only messages newer than every one received (newest wins), at most kMaxUnreliableReceiveWindow.
  uint32_t unreliable_receive_window = 32;

  static ChannelConfig reliable();
  static ChannelConfig reliable_with_blocks(uint32_t max_block_bytes);
  static ChannelConfig unreliable(uint32_t max_message_bytes = 1100);
  bool is_reliable() const { return kind == ChannelKind::reliable_ordered; }
  bool blocks_enabled() const { return is_reliable() && max_block_bytes > 0; }
  // Largest payload send() accepts on this channel.
  uint32_t max_send_bytes() const { return blocks_enabled() ? max_block_bytes : max_message_bytes; }
};

struct EndpointConfig {
  std::array<ChannelConfig, kMaxChannels> channels{};
  uint32_t max_packet_bytes = kMaxPacketPayloadBytes;
  uint32_t max_packets_per_write = 8;
  Duration keepalive_interval = Duration::milliseconds(250);  // ack-eliciting ping when idle
  Duration initial_rto = Duration::milliseconds(250);         // resend delay before an RTT sample
  // The resend delay is srtt + 4 rttvar (the samples include the peer's ack delay), at least this:
  // a floor for a clock's granularity, not for the link, which the samples already describe.
  Duration min_rto = Duration::milliseconds(2);
  Duration max_rto = Duration::seconds(5);
  Duration reliable_timeout = Duration::seconds(60);      // oldest unacked older than this: fatal
  Duration fragment_set_timeout = Duration::seconds(30);  // partial block with no progress: fatal
  Duration bandwidth_interval = Duration::milliseconds(250);

  // Send rate (docs/reliability.md, "Send rate"): packets are paced at the link estimate.
  uint32_t initial_send_rate_bytes = 1024 * 1024;  // per second, the floor until the path is measured
  uint32_t min_send_rate_bytes = 32 * 1024;        // per second, the pacer never goes below this
  uint32_t max_send_rate_bytes = 0;                // per second, 0 = no cap
  Duration pacing_burst = Duration::milliseconds(34);  // tokens saved at most: two 60 Hz ticks of the rate
  // While reliable data waits, send_allowance() keeps this share of each interval's bytes for it.
  uint32_t reliable_share_percent = 25;
  // Whether the endpoint queues a notice per packet and per unreliable message the peer acked, for
  // a layer that reads them (pop_acked_packet, pop_acked_message; capped at kAckNoticeQueueCap,
  // overflow counts ack_queue_full). A layer that never reads them (the session stack learns what a
  // client holds from its input frames; deterministic mode from its messages) turns them off, so
  // ack_queue_full counts only a reader that fell behind.
  bool ack_notices = true;

  // Channel 0 reliable-ordered with blocks up to 64 KiB, channel 1 unreliable.
  static EndpointConfig defaults();
  // Asserts the relations between caps (programmer error when broken).
  void validate() const;
};

}  // namespace tickwire

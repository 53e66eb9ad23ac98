// A connection's statistics as a plain value, copied out of the endpoint at any time: RTT, loss,
// bandwidth each way, resends, queue depths per channel, drops and refusals. Rates are kbit/s of
// reliability-layer payload bytes (the secure layer's own header and MAC are not included).
#pragma once

#include <array>
#include <cstdint>

#include "tickwire/transport/endpoint_config.h"
#include "tickwire/transport/transport_reason.h"

namespace tickwire {

struct ChannelStats {
  ChannelKind kind = ChannelKind::none;
  uint32_t send_queue_messages = 0;  // queued or in flight (reliable: until acked)
  uint64_t send_queue_bytes = 0;     // pool bytes held, in whole chunks
  uint32_t receive_queue_messages = 0;
  uint64_t receive_queue_bytes = 0;
  uint64_t messages_acked = 0;  // reliable messages (and whole blocks) acked by the peer
  uint64_t delivered = 0;       // messages handed to the app
  uint64_t resends = 0;         // reliable messages and fragments sent again
  uint64_t fast_resends = 0;    // of those, sent again because later packets' acks showed a gap
  uint64_t late_taken = 0;      // unreliable messages taken behind the newest, inside the receive window
};

struct ConnectionStats {
  double rtt_ms = 0.0;  // smoothed (0 until the first sample)
  double rtt_var_ms = 0.0;
  double rto_ms = 0.0;  // current resend delay
  double loss_percent = 0.0;
  double sent_kbps = 0.0;
  double received_kbps = 0.0;
  double acked_kbps = 0.0;
  double link_bytes_per_second = 0.0;        // the send-rate estimate (SendAllowance::link_bytes_per_second)
  double bottleneck_bytes_per_second = 0.0;  // the largest recent delivery rate measured (0 before a sample)
  double pacing_bytes_per_second = 0.0;      // what the pacer lets out now
  uint64_t bytes_in_flight = 0;              // sent in ack-eliciting packets, neither acked nor given up on
  uint64_t packets_sent = 0;
  uint64_t packets_received = 0;
  uint64_t packets_acked = 0;
  uint64_t packets_lost = 0;
  uint64_t bytes_sent = 0;
  uint64_t bytes_received = 0;
  uint64_t resends = 0;
  uint64_t fast_resends = 0;
  uint64_t drops = 0;          // every TransportReason counted
  uint64_t send_refusals = 0;  // every send that returned an error
  bool failed = false;
  TransportReason failure = TransportReason::count_;
  std::array<ChannelStats, kMaxChannels> channels{};
};

}  // namespace tickwire

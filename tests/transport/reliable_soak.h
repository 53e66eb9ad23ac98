// Test-only: the soak scenario shared by the quick and the long runs. Two endpoints over SimNetwork
// exchange random-sized reliable messages and blocks (two reliable channels, both directions) and
// unreliable messages, then stop and drain. Checked throughout: every reliable message arrives
// exactly once, in order, byte for byte; unreliable ones at most once, never further behind the
// newest taken than the receive window; every acked packet really
// arrived; queues stay within their caps and no endpoint memory is added after start-up.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "endpoint_pair.h"
#include "message_pattern.h"
#include "tickwire/core/bytes.h"
#include "tickwire/core/rng.h"

namespace tickwire::test {

struct SoakProfile {
  std::string name;
  LinkModel link;
};

inline LinkModel soak_link(double latency_ms, double jitter_ms, double loss, double duplicate, double reorder) {
  LinkModel m;
  m.latency_ms = latency_ms;
  m.jitter_ms = jitter_ms;
  m.loss = loss;
  m.duplicate = duplicate;
  m.reorder = reorder;
  m.jitter_keeps_order = false;  // jitter reorders too: the harsher case
  return m;
}

// (a) 1000 +- 100 ms, 25% loss, 25% duplicates; (b) 100 ms, 20% loss, 4% reordering;
// (c) 250 +- 250 ms, 5% loss, 10% duplicates.
inline std::vector<SoakProfile> soak_profiles() {
  return {{"a_1000ms_loss25_dup25", soak_link(1000, 100, 0.25, 0.25, 0.0)},
          {"b_100ms_loss20_reorder4", soak_link(100, 0, 0.20, 0.0, 0.04)},
          {"c_250ms_jitter250_loss5_dup10", soak_link(250, 250, 0.05, 0.10, 0.0)}};
}

inline EndpointConfig soak_config() {
  EndpointConfig config;
  config.channels[0] = ChannelConfig::reliable_with_blocks(64 * 1024);
  config.channels[1] = ChannelConfig::unreliable(600);
  config.channels[2] = ChannelConfig::reliable();
  config.channels[0].budget_bytes_per_write = 6000;
  config.channels[2].budget_bytes_per_write = 2400;
  return config;
}

// One direction's traffic: what the sender has queued and what the receiver has checked.
class SoakStream {
 public:
  SoakStream(uint64_t seed) : rng_(seed) {}

  // Offers this tick's messages; a refused send is retried next tick with the same index.
  void offer(ReliableEndpoint& from, const ChannelConfig& blocks_channel) {
    if (!pending_[0].empty() || rng_.chance(0.3)) try_send(from, 0, blocks_channel);
    if (!pending_[1].empty() || rng_.chance(0.3)) try_send(from, 1, blocks_channel);
    std::vector<uint8_t> state = make_message(unreliable_next_++, 4 + rng_.below(500));
    EXPECT_TRUE(from.send(1, state).ok());
  }
  void drain(ReliableEndpoint& to) {
    for (std::size_t s = 0; s < 2; ++s) {
      while (auto m = to.receive(kReliableChannel[s])) {
        ASSERT_EQ(message_index(*m), received_[s]) << "stream " << s << ": out of order, lost or repeated";
        ASSERT_TRUE(message_intact(*m)) << "stream " << s << " message " << received_[s] << " corrupted";
        ++received_[s];
      }
    }
    while (auto m = to.receive(1)) {
      ASSERT_TRUE(message_intact(*m));
      const uint32_t index = message_index(*m);
      const uint32_t window = soak_config().channels[1].unreliable_receive_window;
      ASSERT_TRUE(!unreliable_any_ || index > unreliable_newest_ || unreliable_newest_ - index <= window)
          << "an unreliable message from behind the window";
      if (unreliable_seen_.size() <= index) unreliable_seen_.resize(index + 1);
      ASSERT_FALSE(unreliable_seen_[index]) << "an unreliable message taken twice";
      unreliable_seen_[index] = true;
      unreliable_any_ = true;
      unreliable_newest_ = std::max(unreliable_newest_, index);
      ++unreliable_received_;
    }
  }
  void stop() { stopped_ = true; }
  bool complete() const { return received_[0] == sent_[0] && received_[1] == sent_[1] && pending_[0].empty() && pending_[1].empty(); }
  uint32_t sent(std::size_t s) const { return sent_[s]; }
  uint32_t received(std::size_t s) const { return received_[s]; }
  uint64_t blocks() const { return blocks_; }
  uint64_t unreliable_received() const { return unreliable_received_; }

 private:
  static constexpr std::array<uint8_t, 2> kReliableChannel = {0, 2};

  void try_send(ReliableEndpoint& from, std::size_t s, const ChannelConfig& blocks_channel) {
    if (pending_[s].empty()) {
      if (stopped_) return;
      std::size_t size = 4 + rng_.below(1020);
      if (s == 0 && rng_.chance(0.02)) {
        size = blocks_channel.max_message_bytes + 1 + rng_.below(blocks_channel.max_block_bytes - blocks_channel.max_message_bytes);
        ++blocks_;
      }
      pending_[s] = make_message(sent_[s], size);
    }
    const SendResult r = from.send(kReliableChannel[s], pending_[s]);
    if (r.ok()) {
      pending_[s].clear();
      ++sent_[s];
    } else {
      EXPECT_EQ(r.error, SendError::send_queue_full);
    }
  }

  Rng rng_;
  std::array<std::vector<uint8_t>, 2> pending_;
  std::array<uint32_t, 2> sent_{};
  std::array<uint32_t, 2> received_{};
  uint32_t unreliable_next_ = 0;
  uint32_t unreliable_newest_ = 0;
  bool unreliable_any_ = false;
  std::vector<bool> unreliable_seen_;  // by index (test-only: grows with the run)
  uint64_t unreliable_received_ = 0;
  uint64_t blocks_ = 0;
  bool stopped_ = false;
};

// Remembers when each packet sequence was last delivered in one direction, so an ack notice can be
// checked against what really arrived.
struct DeliveryLog {
  std::vector<int64_t> delivered_at_ns = std::vector<int64_t>(65536, INT64_MIN);
  bool arrived_recently(uint16_t sequence, MonoTime now) const {
    return delivered_at_ns[sequence] != INT64_MIN && now.ns() - delivered_at_ns[sequence] < Duration::seconds(60).ns();
  }
};

inline void expect_within_caps(const ReliableEndpoint& e, const EndpointConfig& config, std::size_t memory) {
  const ConnectionStats s = e.stats();
  ASSERT_FALSE(s.failed) << reason_name(s.failure);
  for (std::size_t c = 0; c < kMaxChannels; ++c) {
    const ChannelConfig& cc = config.channels[c];
    if (cc.kind != ChannelKind::reliable_ordered) continue;
    ASSERT_LE(s.channels[c].send_queue_messages, cc.send_queue_messages);
    ASSERT_LE(s.channels[c].send_queue_bytes, cc.send_queue_bytes);
    ASSERT_LE(s.channels[c].receive_queue_messages, cc.receive_window_messages);
    ASSERT_LE(s.channels[c].receive_queue_bytes, cc.receive_queue_bytes + cc.max_block_bytes);
  }
  ASSERT_EQ(e.memory_bytes(), memory);
}

inline void print_stats(const EndpointPair& pair) {
  for (const ReliableEndpoint* e : {&pair.a, &pair.b}) {
    const ConnectionStats s = e->stats();
    std::printf("  %s: rtt %.0f rto %.0f loss %.1f%% sent %llu recv %llu acked %llu\n", e == &pair.a ? "A" : "B", s.rtt_ms,
                s.rto_ms, s.loss_percent, static_cast<unsigned long long>(s.packets_sent),
                static_cast<unsigned long long>(s.packets_received), static_cast<unsigned long long>(s.packets_acked));
    for (std::size_t c = 0; c < kMaxChannels; ++c) {
      const ChannelStats& cs = s.channels[c];
      std::printf("    ch%zu send %u msgs %llu B, recv %u msgs %llu B, acked %llu delivered %llu resends %llu\n", c,
                  cs.send_queue_messages, static_cast<unsigned long long>(cs.send_queue_bytes), cs.receive_queue_messages,
                  static_cast<unsigned long long>(cs.receive_queue_bytes), static_cast<unsigned long long>(cs.messages_acked),
                  static_cast<unsigned long long>(cs.delivered), static_cast<unsigned long long>(cs.resends));
    }
    for (std::size_t r = 0; r < TransportCounters::size(); ++r) {
      const auto reason = static_cast<TransportReason>(r);
      if (e->counters()[reason] > 0) {
        std::printf("    %s=%llu\n", std::string(reason_name(reason)).c_str(),
                    static_cast<unsigned long long>(e->counters()[reason]));
      }
    }
  }
}

// Runs `traffic` of simulated time with traffic, then up to `drain` more without new messages.
// Asserts the invariants throughout; returns the reliable messages delivered (both ways).
inline uint64_t run_reliable_soak(const SoakProfile& profile, Duration traffic, Duration drain, uint64_t seed) {
  const EndpointConfig config = soak_config();
  EndpointPair pair(config, profile.link, profile.link, seed);
  const std::size_t memory = pair.a.memory_bytes();
  std::array<DeliveryLog, 2> delivered;  // [0]: to B (A's packets), [1]: to A
  const Address address_b = *Address::parse("127.0.0.1:4001");
  pair.network().set_wiretap([&](const SimDelivery& d) {
    if (d.bytes.size() >= 3) delivered[d.to == address_b ? 0 : 1].delivered_at_ns[load_le<uint16_t>(d.bytes.data() + 1)] = d.at.ns();
  });
  Rng seeds(seed);
  SoakStream a_to_b(seeds.next_u64());
  SoakStream b_to_a(seeds.next_u64());
  const Duration tick = Duration::milliseconds(20);
  const MonoTime start = pair.now();
  uint64_t acked_notices = 0;
  while (pair.now() - start < traffic + drain) {
    pair.deliver(tick);
    const bool stopping = pair.now() - start >= traffic;
    if (stopping) {
      a_to_b.stop();
      b_to_a.stop();
      if (a_to_b.complete() && b_to_a.complete()) break;
    }
    a_to_b.drain(pair.b);
    b_to_a.drain(pair.a);
    if (::testing::Test::HasFatalFailure()) return 0;
    a_to_b.offer(pair.a, config.channels[0]);
    b_to_a.offer(pair.b, config.channels[0]);
    pair.write();
    while (auto seq = pair.a.pop_acked_packet()) {
      if (!delivered[0].arrived_recently(*seq, pair.now())) {
        ADD_FAILURE() << "A was told packet " << *seq << " arrived, but it did not";
        return 0;
      }
      ++acked_notices;
    }
    while (auto seq = pair.b.pop_acked_packet()) {
      if (!delivered[1].arrived_recently(*seq, pair.now())) {
        ADD_FAILURE() << "B was told packet " << *seq << " arrived, but it did not";
        return 0;
      }
    }
    while (pair.a.pop_acked_message()) {
    }
    while (pair.b.pop_acked_message()) {
    }
    expect_within_caps(pair.a, config, memory);
    expect_within_caps(pair.b, config, memory);
    if (::testing::Test::HasFatalFailure()) return 0;
  }
  for (const SoakStream* s : {&a_to_b, &b_to_a}) {
    EXPECT_TRUE(s->complete()) << "sent " << s->sent(0) << "/" << s->sent(1) << " received " << s->received(0) << "/"
                               << s->received(1);
    EXPECT_GT(s->sent(0), 0u);
    EXPECT_GT(s->blocks(), 0u);
    EXPECT_GT(s->unreliable_received(), 0u);
  }
  const ConnectionStats sa = pair.a.stats();
  const ConnectionStats sb = pair.b.stats();
  if (::testing::Test::HasFailure()) print_stats(pair);
  std::printf("[ soak ] %s: %.0f s simulated; A->B %u+%u messages (%llu blocks), B->A %u+%u; rtt %.0f ms, "
              "loss %.1f%%, resends %llu, acked notices %llu, drops %llu/%llu, memory %zu bytes/endpoint\n",
              profile.name.c_str(), (pair.now() - start).seconds_f(), a_to_b.sent(0), a_to_b.sent(1),
              static_cast<unsigned long long>(a_to_b.blocks()), b_to_a.sent(0), b_to_a.sent(1), sa.rtt_ms,
              sa.loss_percent, static_cast<unsigned long long>(sa.resends + sb.resends),
              static_cast<unsigned long long>(acked_notices), static_cast<unsigned long long>(sa.drops),
              static_cast<unsigned long long>(sb.drops), memory);
  return uint64_t{a_to_b.received(0)} + a_to_b.received(1) + b_to_a.received(0) + b_to_a.received(1);
}

}  // namespace tickwire::test

// Unreliable channels: nothing is resent, a message that misses its write is discarded (counted),
// the receiver takes each message once, newer than the newest or late inside its window, refusing
// duplicates and those behind the window by reason, and the sender learns which unreliable messages
// were acked and in which packet.
#include <gtest/gtest.h>

#include <algorithm>
#include <initializer_list>
#include <vector>

#include "endpoint_pair.h"
#include "message_pattern.h"
#include "support.h"
#include "tickwire/transport/unreliable_channel.h"

namespace tickwire {
namespace {

constexpr Duration kTick = Duration::milliseconds(16);

EndpointConfig unreliable_config() {
  EndpointConfig c;
  c.channels[1] = ChannelConfig::unreliable(500);
  return c;
}

// Delivered over a link that loses, duplicates and reorders (jitter wider than the send spacing):
// never resent, each message taken at most once, a late one taken only inside the window. (Before
// the window every late one was refused as stale; now only duplicates and those behind the window
// are refused, each by its own reason.)
struct LossyRun {
  uint32_t delivered = 0;
  uint32_t late = 0;  // delivered after a newer one
  ConnectionStats sender;
  ConnectionStats receiver;
  TransportCounters counters;
};

LossyRun run_lossy(uint32_t window, uint64_t seed) {
  LinkModel lossy;
  lossy.latency_ms = 30;
  lossy.jitter_ms = 30;
  lossy.jitter_keeps_order = false;
  lossy.loss = 0.3;
  lossy.duplicate = 0.3;
  EndpointConfig config = unreliable_config();
  config.channels[1].unreliable_receive_window = window;
  test::EndpointPair pair(config, lossy, lossy, seed);
  LossyRun run;
  uint32_t next = 0;
  bool any = false;
  uint32_t newest = 0;
  std::vector<bool> seen(1000);
  for (int tick = 0; tick < 1000; ++tick) {
    pair.deliver(kTick);
    while (auto m = pair.b.receive(1)) {
      EXPECT_TRUE(test::message_intact(*m));
      const uint32_t index = test::message_index(*m);
      EXPECT_TRUE(!any || index > newest || newest - index <= window) << "from behind the window";
      EXPECT_FALSE(seen.at(index)) << "taken twice";
      seen.at(index) = true;
      if (any && index < newest) ++run.late;
      any = true;
      newest = std::max(newest, index);
      ++run.delivered;
    }
    EXPECT_TRUE(pair.a.send(1, test::make_message(next++, 100)).ok());
    pair.write();
  }
  run.sender = pair.a.stats();
  run.receiver = pair.b.stats();
  run.counters = pair.b.counters();
  return run;
}

TEST(UnreliableChannel, NeverResentEachTakenOnceAndLateOnesInsideTheWindow) {
  const LossyRun run = run_lossy(ChannelConfig::unreliable().unreliable_receive_window, test::test_seed(41));
  EXPECT_GT(run.delivered, 400u);
  EXPECT_LT(run.delivered, 1000u);
  EXPECT_EQ(run.sender.resends, 0u);
  EXPECT_GT(run.late, 0u) << "jitter of 60 ms over 16 ms sends overtakes: late ones are taken";
  EXPECT_EQ(run.receiver.channels[1].late_taken, run.late);
  // A duplicated datagram is refused whole by the packet layer; the channel's own duplicate check
  // (UnreliableReceiveWindow below) is for a peer that repeats a message id in another packet.
  EXPECT_GT(run.counters[TransportReason::duplicate_packet], 0u) << "duplicates are refused";
  EXPECT_EQ(run.counters[TransportReason::duplicate_unreliable], 0u);
  EXPECT_EQ(run.counters[TransportReason::stale_unreliable], 0u) << "nothing is 32 sends late on this link";
}

// Window 0 is the old rule, newest wins: only ever newer, late ones refused as stale.
TEST(UnreliableChannel, WindowZeroDeliversOnlyNewer) {
  const LossyRun run = run_lossy(0, test::test_seed(41));
  EXPECT_GT(run.delivered, 300u);
  EXPECT_EQ(run.late, 0u);
  EXPECT_EQ(run.receiver.channels[1].late_taken, 0u);
  EXPECT_GT(run.counters[TransportReason::stale_unreliable], 0u) << "late ones are stale";
  EXPECT_GT(run.counters[TransportReason::duplicate_packet], 0u);
  const LossyRun windowed = run_lossy(ChannelConfig::unreliable().unreliable_receive_window, test::test_seed(41));
  EXPECT_GT(windowed.delivered, run.delivered) << "the same link, the same seed: the window loses fewer";
}

// The receive window alone, fed message ids directly: what is taken, in arrival order, and why
// the rest is refused.
struct WindowProbe {
  explicit WindowProbe(uint32_t window, uint32_t queue = 8) : channel(config(window, queue), 1) {}
  static ChannelConfig config(uint32_t window, uint32_t queue) {
    ChannelConfig c = ChannelConfig::unreliable(100);
    c.unreliable_receive_window = window;
    c.unreliable_queue_messages = queue;
    c.receive_queue_bytes = queue * 128;
    return c;
  }
  // Offers `id` (its bytes carry the id) and drains: the ids delivered.
  std::vector<uint32_t> offer(std::initializer_list<uint16_t> ids) {
    for (uint16_t id : ids) channel.on_message(id, test::make_message(id, 8), counters);
    std::vector<uint32_t> out;
    while (auto m = channel.receive()) out.push_back(test::message_index(*m));
    return out;
  }
  uint64_t stale() const { return counters[TransportReason::stale_unreliable]; }
  uint64_t duplicates() const { return counters[TransportReason::duplicate_unreliable]; }
  UnreliableChannel channel;
  TransportCounters counters;
};

using Ids = std::vector<uint32_t>;

TEST(UnreliableReceiveWindow, ALateMessageInsideTheWindowIsDeliveredInArrivalOrder) {
  WindowProbe probe(32);
  EXPECT_EQ(probe.offer({10, 12, 11, 13}), (Ids{10, 12, 11, 13}));
  EXPECT_EQ(probe.offer({9}), (Ids{9})) << "older than anything delivered, still inside the window";
  EXPECT_EQ(probe.channel.late_taken(), 2u);
  EXPECT_EQ(probe.stale() + probe.duplicates(), 0u);
}

TEST(UnreliableReceiveWindow, DuplicatesAreRefusedWhereverTheyFall) {
  WindowProbe probe(32);
  EXPECT_EQ(probe.offer({5, 7, 6}), (Ids{5, 7, 6}));
  EXPECT_EQ(probe.offer({7, 6, 5, 7}), Ids{}) << "the newest, a late one taken, the first";
  EXPECT_EQ(probe.duplicates(), 4u);
  EXPECT_EQ(probe.stale(), 0u);
  EXPECT_EQ(probe.offer({4}), (Ids{4})) << "never seen: taken";
}

TEST(UnreliableReceiveWindow, BehindTheWindowIsStale) {
  WindowProbe probe(4);
  EXPECT_EQ(probe.offer({100, 96, 95}), (Ids{100, 96})) << "4 behind is the edge; 5 behind is out";
  EXPECT_EQ(probe.stale(), 1u);
  EXPECT_EQ(probe.offer({101, 97, 97, 96}), (Ids{101, 97})) << "97 taken once; 96 is now 5 behind";
  EXPECT_EQ(probe.duplicates(), 1u);
  EXPECT_EQ(probe.stale(), 2u) << "a taken one behind the window counts as stale";
  EXPECT_EQ(probe.offer({1000, 999, 100}), (Ids{1000, 999}));
  EXPECT_EQ(probe.stale(), 3u);
}

TEST(UnreliableReceiveWindow, WindowZeroIsNewestWins) {
  WindowProbe probe(0);
  EXPECT_EQ(probe.offer({10, 12, 11, 12, 13}), (Ids{10, 12, 13}));
  EXPECT_EQ(probe.stale(), 1u);       // 11: late
  EXPECT_EQ(probe.duplicates(), 1u);  // the second 12
  EXPECT_EQ(probe.channel.late_taken(), 0u);
}

TEST(UnreliableReceiveWindow, IdsWrapAt65535) {
  WindowProbe probe(64);
  EXPECT_EQ(probe.offer({65533, 65535, 1, 0, 65534}), (Ids{65533, 65535, 1, 0, 65534}));
  EXPECT_EQ(probe.offer({65535, 0, 65533}), Ids{}) << "seen before the wrap and after it";
  EXPECT_EQ(probe.duplicates(), 3u);
  // 1 -> 63 moves the newest 62 ids on: 65533 is now 66 behind (out), 0 is 63 behind (seen).
  EXPECT_EQ(probe.offer({63, 65533, 0, 65535}), (Ids{63}));
  EXPECT_EQ(probe.stale(), 1u);
  EXPECT_EQ(probe.duplicates(), 5u);
  EXPECT_EQ(probe.offer({2}), (Ids{2})) << "61 behind, never seen";
}

TEST(UnreliableReceiveWindow, AJumpPastTheWholeWindowForgetsEverything) {
  WindowProbe probe(64);
  EXPECT_EQ(probe.offer({0, 1, 2}), (Ids{0, 1, 2}));
  EXPECT_EQ(probe.offer({66, 2, 3}), (Ids{66, 3})) << "2 is 64 behind: the edge, seen; 3 never seen";
  EXPECT_EQ(probe.duplicates(), 1u);
  EXPECT_EQ(probe.offer({200, 136, 137, 66}), (Ids{200, 136, 137})) << "136 is 64 behind; 66, seen, 134";
  EXPECT_EQ(probe.stale(), 1u);
  EXPECT_EQ(probe.offer({135}), Ids{});
  EXPECT_EQ(probe.stale(), 2u);
  EXPECT_EQ(probe.duplicates(), 1u);
}

// Late messages share the receive ring's cap: a full ring drops its oldest, counted, whatever
// arrives; the window is capped at one 64-bit mask.
TEST(UnreliableReceiveWindow, TheReceiveRingAndTheWindowKeepTheirCaps) {
  WindowProbe probe(64, 4);
  for (uint16_t id : {uint16_t{50}, uint16_t{40}, uint16_t{45}, uint16_t{41}, uint16_t{49}, uint16_t{42}}) {
    probe.channel.on_message(id, test::make_message(id, 8), probe.counters);
    EXPECT_LE(probe.channel.queued_receive_messages(), 4u);
  }
  EXPECT_EQ(probe.counters[TransportReason::unreliable_receive_full], 2u);
  EXPECT_EQ(probe.offer({}), (Ids{45, 41, 49, 42})) << "the oldest arrivals made room";
  test::ThrowOnAssert throws;
  EXPECT_THROW(WindowProbe(kMaxUnreliableReceiveWindow + 1), test::AssertionFailure);
  EndpointConfig config = unreliable_config();
  config.channels[1].unreliable_receive_window = kMaxUnreliableReceiveWindow + 1;
  EXPECT_THROW(config.validate(), test::AssertionFailure);
}

TEST(UnreliableChannel, FullQueuesDropTheOldestAndUnsentMessagesExpire) {
  EndpointConfig config = unreliable_config();
  config.channels[1].unreliable_queue_messages = 4;
  config.channels[1].budget_bytes_per_write = 2 * (100 + 5);  // two messages per write
  test::EndpointPair pair(config, LinkModel{}, LinkModel{}, test::test_seed(42));
  for (uint32_t i = 0; i < 6; ++i) ASSERT_TRUE(pair.a.send(1, test::make_message(i, 100)).ok());
  EXPECT_EQ(pair.a.counters()[TransportReason::unreliable_replaced], 2u);  // 0 and 1 made room
  pair.write();
  EXPECT_EQ(pair.a.counters()[TransportReason::unreliable_expired], 2u);  // 4 and 5 missed the budget
  pair.deliver(kTick);
  std::vector<uint32_t> got;
  while (auto m = pair.b.receive(1)) got.push_back(test::message_index(*m));
  EXPECT_EQ(got, (std::vector<uint32_t>{2, 3}));
}

TEST(UnreliableChannel, ReportsWhichMessagesWereAckedInWhichPacket) {
  test::EndpointPair pair(unreliable_config(), LinkModel{}, LinkModel{}, test::test_seed(43));
  std::vector<uint16_t> ids;
  for (uint32_t i = 0; i < 3; ++i) {
    const SendResult r = pair.a.send(1, test::make_message(i, 50));
    ASSERT_TRUE(r.ok());
    ids.push_back(r.message_id);
    pair.step(kTick);
  }
  for (int i = 0; i < 3; ++i) pair.step(kTick);
  std::vector<uint16_t> acked_ids;
  std::vector<uint16_t> packets;
  while (auto m = pair.a.pop_acked_message()) {
    EXPECT_EQ(m->channel, 1);
    acked_ids.push_back(m->message_id);
    packets.push_back(m->packet_sequence);
  }
  EXPECT_EQ(acked_ids, ids);
  std::vector<uint16_t> acked_packets;
  while (auto p = pair.a.pop_acked_packet()) acked_packets.push_back(*p);
  for (uint16_t p : packets) EXPECT_NE(std::find(acked_packets.begin(), acked_packets.end(), p), acked_packets.end());
}

}  // namespace
}  // namespace tickwire

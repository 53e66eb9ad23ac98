// Packet acks: the ack + 32 bits we report, acks applied once each, duplicates and stale packets
// recognised, the sequence wrap, and the loss estimate.
#include "tickwire/transport/ack_tracker.h"

#include <gtest/gtest.h>

#include <set>
#include <vector>

#include "support.h"
#include "tickwire/core/rng.h"

namespace tickwire {
namespace {

std::vector<uint16_t> acked_by(AckTracker& t, const PacketHeader& h) {
  std::vector<uint16_t> out;
  t.apply_acks(h, [&](uint16_t sequence, const SentPacketRecord&) { out.push_back(sequence); });
  return out;
}

TEST(AckTracker, ReportsNewestAndThirtyTwoBits) {
  AckTracker t;
  EXPECT_FALSE(t.next_header().has_ack);
  for (const int s : {10, 12, 13, 40, 41}) t.mark_received(static_cast<uint16_t>(s), true);
  const PacketHeader h = t.next_header();
  ASSERT_TRUE(h.has_ack);
  EXPECT_EQ(h.ack, 41);
  // bit i = sequence 40 - i: 40 -> bit 0, 13 -> bit 27, 12 -> bit 28, 10 is 31 below 41 - 1 -> bit 30.
  EXPECT_EQ(h.ack_bits, (1u << 0) | (1u << 27) | (1u << 28) | (1u << 30));
  EXPECT_TRUE(t.ack_due());
}

TEST(AckTracker, AcksEachSentPacketOnceAcrossTheWrap) {
  AckTracker sender;
  AckTracker receiver;
  MonoTime now = MonoTime::from_ns(0);
  constexpr int kPackets = 70000;  // the 16-bit sequence wraps once
  std::vector<int> index_of(65536, -1);
  std::vector<int> acks(kPackets, 0);
  for (int i = 0; i < kPackets; ++i) {
    const uint16_t sequence = sender.next_header().sequence;
    index_of[sequence] = i;
    sender.on_sent(now, 100, true, 0, 0);
    if (i % 3 != 0) receiver.mark_received(sequence, true);
    if (i % 8 == 0) {
      for (uint16_t s : acked_by(sender, receiver.next_header())) ++acks[index_of[s]];
    }
    now += Duration::milliseconds(1);
  }
  EXPECT_EQ(sender.next_sequence(), static_cast<uint16_t>(kPackets));
  for (int i = 0; i + 40 < kPackets; ++i) {
    // Received packets are acked exactly once (each stays within 33 of a header for 8 sends);
    // lost ones never are.
    ASSERT_EQ(acks[i], i % 3 != 0 ? 1 : 0) << "packet " << i;
  }
}

TEST(AckTracker, AppliesAnAckOnlyOnce) {
  AckTracker t;
  for (int i = 0; i < 5; ++i) t.on_sent(MonoTime::from_ns(i), 50, true, 0, 0);
  const PacketHeader h{0, true, 4, 0b0101};  // acks 4, 3, 1
  EXPECT_EQ(acked_by(t, h), (std::vector<uint16_t>{4, 3, 1}));
  EXPECT_TRUE(acked_by(t, h).empty());
  EXPECT_TRUE(acked_by(t, PacketHeader{0, true, 900, 0}).empty());  // never sent: ignored
}

TEST(AckTracker, ClassifiesDuplicatesAndStalePackets) {
  AckTracker t;
  EXPECT_EQ(t.classify(5), AckTracker::Incoming::fresh);
  t.mark_received(5, false);
  EXPECT_EQ(t.classify(5), AckTracker::Incoming::duplicate);
  EXPECT_FALSE(t.ack_due()) << "a packet without entries does not elicit an ack";
  t.mark_received(1000, true);
  EXPECT_EQ(t.classify(5), AckTracker::Incoming::stale);
  EXPECT_EQ(t.classify(999), AckTracker::Incoming::fresh);
  EXPECT_EQ(t.classify(static_cast<uint16_t>(1000 - kReceivedPacketWindow)), AckTracker::Incoming::stale);
}

TEST(AckTracker, EstimatesLossFromPacketsThatAgedOutUnacked) {
  AckTracker sender;
  AckTracker receiver;
  Rng rng(test::test_seed(21));
  MonoTime now = MonoTime::from_ns(0);
  const Duration horizon = Duration::milliseconds(200);
  for (int i = 0; i < 20000; ++i) {
    const uint16_t sequence = sender.next_header().sequence;
    sender.on_sent(now, 100, true, 0, 0);
    if (!rng.chance(0.2)) receiver.mark_received(sequence, true);
    (void)acked_by(sender, receiver.next_header());
    now += Duration::milliseconds(10);
    sender.update_loss(now, horizon);
  }
  EXPECT_NEAR(sender.loss_fraction(), 0.2, 0.08);
  EXPECT_NEAR(static_cast<double>(sender.packets_lost()) / 20000.0, 0.2, 0.02);
}

}  // namespace
}  // namespace tickwire

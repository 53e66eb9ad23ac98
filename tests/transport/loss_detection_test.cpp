// Fast loss detection on the ack bits: on a path that has not reordered, a packet is lost as soon as
// one packet sent after it is acked; once the path has reordered, only when three (then more) later
// packets were acked or it is older than the time threshold with a later packet acked (QUIC's two
// rules); each is declared once, bytes in flight follow, and acks for packets we never sent move
// nothing.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <vector>

#include "tickwire/transport/ack_tracker.h"

namespace tickwire {
namespace {

MonoTime at_ms(int64_t ms) { return MonoTime::from_ns(Duration::milliseconds(ms).ns()); }

// A header from the peer acking `newest` and the listed older sequences.
PacketHeader acking(uint16_t newest, const std::vector<uint16_t>& older) {
  PacketHeader h;
  h.has_ack = true;
  h.ack = newest;
  for (uint16_t s : older) h.ack_bits |= 1u << static_cast<uint16_t>(newest - 1 - s);
  return h;
}

std::vector<uint16_t> lost_after(AckTracker& t, const PacketHeader& h, MonoTime now, Duration threshold) {
  t.apply_acks(h, [](uint16_t, const SentPacketRecord&) {});
  std::vector<uint16_t> lost;
  t.detect_losses(now, threshold, [&](uint16_t s, const SentPacketRecord&) { lost.push_back(s); });
  return lost;
}

void send(AckTracker& t, int count, MonoTime now) {
  for (int i = 0; i < count; ++i) t.on_sent(now, 100, true, 0, 0);
}

// Two packets, the second acked first and the first acked after all: the path reorders, and the
// thresholds are now 6 packets and 1.5x the time threshold. Returns the next sequence.
uint16_t show_reordering(AckTracker& t, MonoTime now) {
  send(t, 2, now);
  EXPECT_EQ(lost_after(t, acking(1, {}), now, Duration::seconds(1)), (std::vector<uint16_t>{0}));
  EXPECT_TRUE(lost_after(t, acking(1, {0}), now, Duration::seconds(1)).empty());
  EXPECT_EQ(t.reorder_steps(), 1u);
  EXPECT_EQ(t.loss_packet_threshold(), 6);
  EXPECT_EQ(t.bytes_in_flight(), 0u);
  return 2;
}

TEST(LossDetection, OnAPathThatKeepsOrderOneLaterAckMakesAGapALoss) {
  AckTracker t;
  EXPECT_EQ(t.loss_packet_threshold(), kOrderedPathLossThreshold);
  // One write of five packets: the 4th is missing behind the acked 5th, long before any timer.
  send(t, 5, at_ms(0));
  EXPECT_EQ(lost_after(t, acking(4, {0, 1, 2}), at_ms(1), Duration::seconds(1)), (std::vector<uint16_t>{3}));
  // The next write's only packet is acked, the one before it is not: lost at once too.
  send(t, 2, at_ms(16));
  EXPECT_EQ(lost_after(t, acking(6, {0, 1, 2, 4}), at_ms(17), Duration::seconds(1)), (std::vector<uint16_t>{5}));
  EXPECT_EQ(t.bytes_in_flight(), 0u);
  EXPECT_EQ(t.spurious_losses(), 0u);
  EXPECT_EQ(t.reorder_steps(), 0u);
}

TEST(LossDetection, AGapBehindThreeLaterAcksIsLostAtOnce) {
  AckTracker t;
  send(t, 10, at_ms(0));
  EXPECT_EQ(t.bytes_in_flight(), 1000u);
  const auto lost = lost_after(t, acking(9, {0, 1, 3, 4, 5, 6, 7, 8}), at_ms(1), Duration::seconds(1));
  EXPECT_EQ(lost, (std::vector<uint16_t>{2}));
  EXPECT_EQ(t.bytes_in_flight(), 0u);
  // Reported again (the same bits in the next header): nothing new.
  EXPECT_TRUE(lost_after(t, acking(9, {0, 1, 3, 4, 5, 6, 7, 8}), at_ms(2), Duration::seconds(1)).empty());
  // A late ack of the packet given up on still counts as an ack, and does not go negative.
  std::vector<uint16_t> acked;
  t.apply_acks(acking(9, {2}), [&](uint16_t s, const SentPacketRecord&) { acked.push_back(s); });
  EXPECT_EQ(acked, (std::vector<uint16_t>{2}));
  EXPECT_EQ(t.bytes_in_flight(), 0u);
}

TEST(LossDetection, OnAPathThatReorderedARecentGapWaitsForTheTimeThresholdOrMoreAcks) {
  AckTracker t;
  ASSERT_EQ(show_reordering(t, at_ms(0)), 2);  // 0 and 1 are acked
  send(t, 4, at_ms(0));                         // 2..5
  const Duration threshold = Duration::milliseconds(10);  // 15 ms after one reordering
  EXPECT_TRUE(lost_after(t, acking(4, {0, 1, 3}), at_ms(5), threshold).empty()) << "only two later packets acked";
  EXPECT_EQ(lost_after(t, acking(4, {0, 1, 3}), at_ms(15), threshold), (std::vector<uint16_t>{2}));
  // Packet 5 was sent before nothing acked: it is never judged by these rules (its timer covers it).
  EXPECT_TRUE(lost_after(t, acking(4, {0, 1, 3}), at_ms(50), threshold).empty());
  EXPECT_EQ(t.bytes_in_flight(), 100u);
}

TEST(LossDetection, OnAPathThatReorderedReorderingWithinTheThresholdsIsNotLoss) {
  AckTracker t;
  ASSERT_EQ(show_reordering(t, at_ms(0)), 2);
  send(t, 6, at_ms(0));  // 2..7
  EXPECT_TRUE(lost_after(t, acking(4, {0, 1, 3}), at_ms(1), Duration::milliseconds(10)).empty());
  // 2 arrives late but before the thresholds: acked, never declared lost.
  EXPECT_TRUE(lost_after(t, acking(7, {0, 1, 2, 3, 4, 5, 6}), at_ms(2), Duration::milliseconds(10)).empty());
  EXPECT_EQ(t.bytes_in_flight(), 0u);
  EXPECT_EQ(t.spurious_losses(), 1u) << "only the one that showed the reordering";
}

TEST(LossDetection, APathThatReordersWidensTheThresholds) {
  AckTracker t;
  send(t, 10, at_ms(0));
  const Duration threshold = Duration::milliseconds(10);
  EXPECT_EQ(lost_after(t, acking(4, {1, 2, 3}), at_ms(1), threshold), (std::vector<uint16_t>{0}));
  // 0 arrives after all: the path reorders, so the next gap needs 6 later acks (or 15 ms).
  EXPECT_TRUE(lost_after(t, acking(4, {0, 1, 2, 3}), at_ms(2), threshold).empty());
  EXPECT_EQ(t.spurious_losses(), 1u);
  EXPECT_EQ(t.reorder_steps(), 1u);
  EXPECT_TRUE(lost_after(t, acking(9, {6, 7, 8}), at_ms(3), threshold).empty()) << "5 is 4 behind: within 6";
  EXPECT_TRUE(lost_after(t, acking(9, {6, 7, 8}), at_ms(14), threshold).empty()) << "14 ms: within 15";
  EXPECT_EQ(lost_after(t, acking(9, {6, 7, 8}), at_ms(15), threshold), (std::vector<uint16_t>{5}));
}

TEST(LossDetection, AcksForPacketsNeverSentMoveNothing) {
  AckTracker t;
  send(t, 5, at_ms(0));
  for (uint16_t newest : {uint16_t{700}, uint16_t{40000}, uint16_t{65535}}) {
    PacketHeader h;
    h.has_ack = true;
    h.ack = newest;
    h.ack_bits = 0xffffffffu;
    EXPECT_TRUE(lost_after(t, h, at_ms(100), Duration::milliseconds(1)).empty()) << newest;
  }
  EXPECT_EQ(t.bytes_in_flight(), 500u);
  // The real acks still work afterwards.
  EXPECT_EQ(lost_after(t, acking(4, {1, 2, 3}), at_ms(101), Duration::seconds(1)), (std::vector<uint16_t>{0}));
}

TEST(LossDetection, PacketsOverwrittenBeforeTheirAckLeaveTheFlight) {
  AckTracker t;
  send(t, static_cast<int>(kSentPacketWindow) + 10, at_ms(0));
  EXPECT_EQ(t.bytes_in_flight(), kSentPacketWindow * 100);
}

TEST(LossDetection, MoreThan33ArrivalsBetweenTwoWritesAreAllAckedByBackfillHeaders) {
  AckTracker sender;
  AckTracker receiver;
  send(sender, 100, at_ms(0));
  for (uint16_t s = 0; s < 100; ++s) {
    if (s != 50) receiver.mark_received(s, true);
  }
  receiver.start_write();
  std::array<PacketHeader, kMaxBackfillHeaders> backfill;
  const std::size_t extra = receiver.backfill_headers(backfill);
  EXPECT_GE(extra, 2u);
  std::vector<uint16_t> acked;
  const auto collect = [&](uint16_t s, const SentPacketRecord&) { acked.push_back(s); };
  sender.apply_acks(receiver.next_header(), collect);
  for (std::size_t i = 0; i < extra; ++i) {
    EXPECT_NE(backfill[i].ack, 50) << "a header only names a packet that arrived";
    sender.apply_acks(backfill[i], collect);
  }
  std::sort(acked.begin(), acked.end());
  std::vector<uint16_t> expected;
  for (uint16_t s = 0; s < 100; ++s) {
    if (s != 50) expected.push_back(s);
  }
  EXPECT_EQ(acked, expected);
  // Once a write reported them, the next write adds nothing for them.
  for (std::size_t i = 0; i < extra; ++i) receiver.on_backfill_sent(at_ms(1), 9, 0);
  EXPECT_TRUE(receiver.ack_due()) << "backfill headers do not carry the newest ack";
  receiver.on_sent(at_ms(1), 9, false, 0, 0);
  receiver.start_write();
  EXPECT_EQ(receiver.backfill_headers(backfill), 0u);
}

}  // namespace
}  // namespace tickwire

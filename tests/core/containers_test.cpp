// RingBuffer caps and order; SequenceBuffer windows across the 16-bit wrap.
#include <gtest/gtest.h>

#include "tickwire/core/ring_buffer.h"
#include "tickwire/core/sequence.h"
#include "tickwire/core/sequence_buffer.h"

namespace tickwire {

TEST(RingBuffer, FifoAndCap) {
  RingBuffer<int, 3> ring;
  EXPECT_TRUE(ring.push(1));
  EXPECT_TRUE(ring.push(2));
  EXPECT_TRUE(ring.push(3));
  EXPECT_FALSE(ring.push(4));  // full: refused, nothing overwritten
  EXPECT_EQ(ring.size(), 3u);
  EXPECT_EQ(ring.pop(), 1);
  EXPECT_TRUE(ring.push(5));
  EXPECT_EQ(ring[0], 2);
  EXPECT_EQ(ring[2], 5);
  EXPECT_EQ(ring.back(), 5);
  EXPECT_EQ(ring.pop(), 2);
  EXPECT_EQ(ring.pop(), 3);
  EXPECT_EQ(ring.pop(), 5);
  EXPECT_TRUE(ring.empty());
}

TEST(Sequence, ComparisonSurvivesWrap) {
  EXPECT_TRUE(sequence_greater_than(1, 0));
  EXPECT_TRUE(sequence_greater_than(0, 65535));
  EXPECT_TRUE(sequence_greater_than(100, 65500));
  EXPECT_FALSE(sequence_greater_than(65500, 100));
  EXPECT_EQ(sequence_difference(2, 65534), 4);
  EXPECT_EQ(sequence_difference(65534, 2), -4);
}

TEST(SequenceBuffer, WindowAcrossWrap) {
  SequenceBuffer<int, 32> buf;
  uint16_t seq = 65520;
  for (int i = 0; i < 40; ++i, ++seq) {
    int* slot = buf.insert(seq);
    ASSERT_NE(slot, nullptr);
    *slot = i;
  }
  // The newest 32 are present, the older ones are gone.
  EXPECT_EQ(*buf.find(static_cast<uint16_t>(seq - 1)), 39);
  EXPECT_EQ(*buf.find(static_cast<uint16_t>(seq - 32)), 8);
  EXPECT_EQ(buf.find(static_cast<uint16_t>(seq - 33)), nullptr);
  // Too old to insert.
  EXPECT_EQ(buf.insert(static_cast<uint16_t>(seq - 40)), nullptr);
  // A jump forward clears the skipped slots.
  ASSERT_NE(buf.insert(static_cast<uint16_t>(seq + 10)), nullptr);
  EXPECT_EQ(buf.find(static_cast<uint16_t>(seq + 5)), nullptr);
  EXPECT_EQ(*buf.find(static_cast<uint16_t>(seq - 1)), 39);  // 11 back: still inside the window
}

}  // namespace tickwire

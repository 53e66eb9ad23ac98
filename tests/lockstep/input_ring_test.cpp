// InputRing: contiguity across out-of-order arrivals, duplicates, the room ahead and the history
// behind, and the zero inputs before the first sampled frame.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>

#include "tickwire/lockstep/input_ring.h"

namespace tickwire::lockstep {
namespace {

std::array<uint8_t, 2> in(uint8_t a) { return {a, static_cast<uint8_t>(a + 1)}; }

TEST(InputRing, FramesBeforeTheFirstSampledOneReadAsZeros) {
  InputRing ring(8, 2, 3);
  EXPECT_EQ(ring.contiguous(), 3u);
  const auto zero = ring.find(2);
  ASSERT_TRUE(zero.has_value());
  EXPECT_EQ((*zero)[0], 0);
  EXPECT_FALSE(ring.find(4).has_value());
}

TEST(InputRing, WithNoInputDelayFrameZeroIsTheZeroInputBeforeTheFirst) {
  InputRing ring(8, 2, 0);
  ASSERT_TRUE(ring.find(0).has_value()) << "a seat's newest contiguous input (frame 0) is always found";
  EXPECT_FALSE(ring.find(1).has_value());
}

TEST(InputRing, SkippedFramesAreForgottenAndTheHistoryStartsAfterThem) {
  InputRing ring(16, 2, 2);
  ring.skip_to(40);
  EXPECT_EQ(ring.contiguous(), 40u);
  EXPECT_EQ(ring.oldest_kept(), 41u);
  EXPECT_FALSE(ring.find(1).has_value()) << "even the zero frames before the first are forgotten";
  EXPECT_FALSE(ring.find(40).has_value());
  EXPECT_EQ(ring.put(41, in(41)), InputRing::Put::stored);
  EXPECT_EQ(ring.contiguous(), 41u);
}

TEST(InputRing, OutOfOrderArrivalsCloseTheGap) {
  InputRing ring(16, 2, 0);
  EXPECT_EQ(ring.put(2, in(20)), InputRing::Put::stored);
  EXPECT_EQ(ring.contiguous(), 0u);
  EXPECT_TRUE(ring.find(2).has_value());
  EXPECT_EQ(ring.put(1, in(10)), InputRing::Put::stored);
  EXPECT_EQ(ring.contiguous(), 2u);
  EXPECT_EQ(ring.put(2, in(99)), InputRing::Put::duplicate);
  EXPECT_EQ((*ring.find(2))[0], 20) << "a duplicate never rewrites a held input";
}

TEST(InputRing, RefusesFramesPastHalfItsRoomAheadAndForgetsPastHalfBehind) {
  InputRing ring(8, 2, 0);
  EXPECT_EQ(ring.put(5, in(5)), InputRing::Put::too_far_ahead);
  for (uint8_t f = 1; f <= 12; ++f) ASSERT_EQ(ring.put(f, in(f)), InputRing::Put::stored);
  EXPECT_EQ(ring.contiguous(), 12u);
  EXPECT_EQ(ring.oldest_kept(), 9u);
  EXPECT_FALSE(ring.find(8).has_value());
  EXPECT_EQ((*ring.find(9))[0], 9);
}

}  // namespace
}  // namespace tickwire::lockstep

// Replay window: duplicates inside the 256-entry window and anything older than it are refused,
// out-of-order packets inside it are accepted once, and the top of the 64-bit range is exact.
#include <gtest/gtest.h>

#include "tickwire/transport/replay_protection.h"

namespace tickwire::netcode {
namespace {

bool accept(ReplayProtection& r, uint64_t seq) {
  if (r.already_received(seq)) return false;
  r.advance(seq);
  return true;
}

TEST(ReplayProtection, DuplicatesAndOldPacketsAreRefused) {
  ReplayProtection r;
  EXPECT_TRUE(accept(r, 0));
  EXPECT_FALSE(accept(r, 0));
  for (uint64_t s = 1; s < 1000; ++s) ASSERT_TRUE(accept(r, s));
  for (uint64_t s = 0; s < 1000; ++s) ASSERT_FALSE(accept(r, s)) << s;
  EXPECT_TRUE(accept(r, 1500));
  // Inside the window, never seen: accepted once.
  EXPECT_TRUE(accept(r, 1500 - 255));
  EXPECT_FALSE(accept(r, 1500 - 255));
  // Exactly the window size behind, or more: refused.
  EXPECT_FALSE(accept(r, 1500 - 256));
  EXPECT_FALSE(accept(r, 1000));
}

TEST(ReplayProtection, OutOfOrderInsideTheWindowIsAcceptedOnce) {
  ReplayProtection r;
  std::vector<uint64_t> order;
  for (uint64_t s = 0; s < 256; s += 2) order.push_back(s);
  for (uint64_t s = 1; s < 256; s += 2) order.push_back(s);
  for (uint64_t s : order) ASSERT_TRUE(accept(r, s)) << s;
  for (uint64_t s : order) ASSERT_FALSE(accept(r, s)) << s;
}

TEST(ReplayProtection, SequencesNearTheTopOfTheRangeAreExact) {
  ReplayProtection r;
  const uint64_t top = UINT64_MAX;
  EXPECT_TRUE(accept(r, top - 300));
  EXPECT_TRUE(accept(r, top - 2));
  EXPECT_TRUE(accept(r, top - 1));
  EXPECT_TRUE(accept(r, top));
  EXPECT_FALSE(accept(r, top));
  EXPECT_FALSE(accept(r, top - 1));
  EXPECT_FALSE(accept(r, top - 2));
  EXPECT_FALSE(accept(r, top - 300));  // outside the window now
  EXPECT_TRUE(accept(r, top - 255));   // inside, unseen
  EXPECT_FALSE(accept(r, top - 256));  // just outside
  EXPECT_FALSE(accept(r, 0));
  EXPECT_FALSE(accept(r, 5));
}

TEST(ReplayProtection, ResetForgetsEverything) {
  ReplayProtection r;
  EXPECT_TRUE(accept(r, 100));
  r.reset();
  EXPECT_TRUE(accept(r, 100));
  EXPECT_EQ(r.most_recent(), 100u);
}

}  // namespace
}  // namespace tickwire::netcode

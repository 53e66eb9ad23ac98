// DelayQueue: releases by time, equal times in push order, respects its cap, and lets the release
// callback push more.
#include "tickwire/transport/delay_queue.h"

#include <gtest/gtest.h>

#include <vector>

namespace tickwire {
namespace {

MonoTime at_ms(int64_t ms) { return MonoTime{} + Duration::milliseconds(ms); }

TEST(DelayQueue, ReleasesByTimeThenPushOrder) {
  DelayQueue<int> queue(16);
  ASSERT_TRUE(queue.push(at_ms(5), 1));
  ASSERT_TRUE(queue.push(at_ms(3), 2));
  ASSERT_TRUE(queue.push(at_ms(5), 3));
  ASSERT_TRUE(queue.push(at_ms(3), 4));
  ASSERT_TRUE(queue.push(at_ms(9), 5));
  EXPECT_EQ(queue.next_time(), at_ms(3));
  std::vector<int> out;
  EXPECT_EQ(queue.release_due(at_ms(5), [&](MonoTime, int&& v) { out.push_back(v); }), 4u);
  EXPECT_EQ(out, (std::vector<int>{2, 4, 1, 3}));
  EXPECT_EQ(queue.size(), 1u);
  EXPECT_EQ(queue.next_time(), at_ms(9));
}

TEST(DelayQueue, CapRefusesAndCallbackMayPush) {
  DelayQueue<int> queue(2);
  EXPECT_TRUE(queue.push(at_ms(1), 1));
  EXPECT_TRUE(queue.push(at_ms(1), 2));
  EXPECT_FALSE(queue.push(at_ms(1), 3));
  std::vector<int> out;
  queue.release_due(at_ms(1), [&](MonoTime, int&& v) {
    out.push_back(v);
    if (v == 1) queue.push(at_ms(1), 10);  // due now: released in the same call, after 2
  });
  EXPECT_EQ(out, (std::vector<int>{1, 2, 10}));
  EXPECT_TRUE(queue.empty());
  EXPECT_FALSE(queue.next_time().has_value());
}

}  // namespace
}  // namespace tickwire

// EventStream: a value published reaches a waiting reader once; a reader behind skips to the
// newest; the seat cap is exact and counted; release() wakes a waiting reader at once; a value past
// its cap is refused and the newest stays.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "tickwire/fleet/event_stream.h"

namespace tickwire::fleet {
namespace {

using namespace std::chrono_literals;

TEST(EventStream, AWaitingReaderGetsTheNewValueOnceAndALateOneSkipsToTheNewest) {
  EventStream stream;
  EXPECT_FALSE(stream.wanted());
  ASSERT_TRUE(stream.join());
  EXPECT_TRUE(stream.wanted());
  uint64_t seen = 0;
  EXPECT_EQ(stream.wait_newer(seen, 10ms), nullptr);  // nothing published yet
  std::thread publisher([&] {
    std::this_thread::sleep_for(20ms);
    EXPECT_TRUE(stream.publish("one"));
  });
  auto value = stream.wait_newer(seen, 2000ms);
  publisher.join();
  ASSERT_NE(value, nullptr);
  EXPECT_EQ(*value, "one");
  EXPECT_EQ(stream.wait_newer(seen, 10ms), nullptr);  // seen already
  EXPECT_TRUE(stream.publish("two"));
  EXPECT_TRUE(stream.publish("three"));
  value = stream.wait_newer(seen, 10ms);
  ASSERT_NE(value, nullptr);
  EXPECT_EQ(*value, "three");
  EXPECT_EQ(seen, stream.published());
  stream.leave();
  EXPECT_FALSE(stream.wanted());
}

TEST(EventStream, TheSeatCapIsExactAndCounted) {
  EventStream stream(2);
  EXPECT_TRUE(stream.join());
  EXPECT_TRUE(stream.join());
  EXPECT_FALSE(stream.join());
  EXPECT_EQ(stream.readers(), 2u);
  EXPECT_EQ(stream.refused_readers(), 1u);
  stream.leave();
  EXPECT_TRUE(stream.join());
}

TEST(EventStream, ReleaseWakesAWaitingReaderAtOnce) {
  EventStream stream;
  ASSERT_TRUE(stream.join());
  std::thread releaser([&] {
    std::this_thread::sleep_for(20ms);
    stream.release();
  });
  uint64_t seen = 0;
  const auto began = std::chrono::steady_clock::now();
  EXPECT_EQ(stream.wait_newer(seen, 10s), nullptr);
  EXPECT_LT(std::chrono::steady_clock::now() - began, 5s);
  releaser.join();
  EXPECT_TRUE(stream.released());
  stream.leave();
}

TEST(EventStream, AValuePastTheCapIsRefusedAndTheNewestStays) {
  EventStream stream;
  ASSERT_TRUE(stream.publish("kept"));
  EXPECT_FALSE(stream.publish(std::string(kMaxStreamEventBytes + 1, 'x')));
  uint64_t seen = 0;
  const auto value = stream.wait_newer(seen, 10ms);
  ASSERT_NE(value, nullptr);
  EXPECT_EQ(*value, "kept");
}

}  // namespace
}  // namespace tickwire::fleet

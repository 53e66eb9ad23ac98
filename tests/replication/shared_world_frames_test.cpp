// SharedWorldFrames: a published frame holds the tick's states; a frame is reused only once nobody
// else holds it; past the cap publish() shares nothing (the caller copies instead).
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "tickwire/replication/frames/shared_world_frames.h"

namespace tickwire {
namespace {

std::vector<ReplicaState> states_of(uint32_t first_id, std::size_t n) {
  std::vector<ReplicaState> states(n);
  for (std::size_t i = 0; i < n; ++i) states[i].id = first_id + static_cast<uint32_t>(i);
  return states;
}

TEST(SharedWorldFrames, PublishesCopiesAndReusesOnlyUnheldFrames) {
  SharedWorldFrames frames(2);
  const std::vector<ReplicaState> a = states_of(1, 3);
  std::shared_ptr<const WorldStates> first = frames.publish(7, a);
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(first->tick, 7u);
  ASSERT_EQ(first->states.size(), 3u);
  EXPECT_EQ(first->states[2].id, 3u);
  EXPECT_TRUE(first->holds(&first->states[1]));
  EXPECT_FALSE(first->holds(&a[1])) << "the caller's states are copied, not referenced";
  const ReplicaState* first_data = first->states.data();

  std::shared_ptr<const WorldStates> second = frames.publish(8, states_of(10, 2));
  ASSERT_NE(second, nullptr);
  EXPECT_NE(second.get(), first.get()) << "a held frame is never overwritten";
  EXPECT_EQ(frames.publish(9, a), nullptr) << "both frames held and the cap reached: nothing to share";
  EXPECT_EQ(first->tick, 7u);
  EXPECT_EQ(first->states[0].id, 1u);

  const WorldStates* released = first.get();
  first.reset();  // no sent frame holds it any more
  std::shared_ptr<const WorldStates> third = frames.publish(9, states_of(20, 3));
  ASSERT_NE(third, nullptr);
  EXPECT_EQ(third.get(), released) << "the released frame is reused in place";
  EXPECT_EQ(third->states.data(), first_data) << "with its capacity: no allocation";
  EXPECT_EQ(third->states[0].id, 20u);
  EXPECT_EQ(frames.frames(), 2u);
}

TEST(SharedWorldFrames, ZeroFramesNeverShare) {
  SharedWorldFrames frames(0);
  EXPECT_EQ(frames.publish(1, states_of(1, 2)), nullptr);
  EXPECT_EQ(frames.frames(), 0u);
}

}  // namespace
}  // namespace tickwire

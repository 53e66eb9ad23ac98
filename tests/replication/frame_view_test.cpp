// FrameView reads a frame's records the same whether the frame owns them or points at them, and a
// default view is no frame at all.
#include <gtest/gtest.h>

#include <vector>

#include "tickwire/replication/frames/frame_view.h"

namespace tickwire {
namespace {

ReplicaFrame owned_frame() {
  ReplicaFrame frame;
  frame.tick = 12;
  frame.owner = protocol::OwnerDetail{};
  frame.owner->queue_depth = 3;
  for (uint32_t id : {4u, 9u, 15u}) {
    ReplicaState s;
    s.id = id;
    s.position = {static_cast<int32_t>(id), 0, -1};
    frame.states.push_back(s);
  }
  return frame;
}

TEST(FrameView, OwnedAndPointedFramesReadAlike) {
  const ReplicaFrame owned = owned_frame();
  const std::vector<ReplicaState> kept = owned.states;  // states living elsewhere
  const std::vector<const ReplicaState*> pointers = {&kept[0], &kept[1], &kept[2]};
  const FrameView a(owned);
  const FrameView b(owned.tick, owned.owner, pointers, owned.world, &pointers);
  ASSERT_TRUE(a && b);
  EXPECT_EQ(b.size(), 3u);
  EXPECT_EQ(&b[1], &kept[1]) << "a pointed frame reads the state in place";
  EXPECT_EQ(b[2].id, 15u);
  EXPECT_EQ(b.owner()->queue_depth, 3);
  EXPECT_TRUE(same_frame(a, b));
  EXPECT_TRUE(frame_of(b) == owned);
  EXPECT_TRUE(a.same_object(FrameView(&owned)));
  EXPECT_FALSE(a.same_object(b));

  std::vector<ReplicaState> moved = kept;
  moved[1].position[2] = 5;
  const std::vector<const ReplicaState*> other = {&moved[0], &moved[1], &moved[2]};
  EXPECT_FALSE(same_frame(a, FrameView(owned.tick, owned.owner, other, owned.world, &other)));
  // Frames whose world settings differ are not the same frame.
  EXPECT_FALSE(same_frame(a, FrameView(owned.tick, owned.owner, pointers, protocol::WorldSettings{0.5f, 1.0f}, &pointers)));
  EXPECT_EQ(frame_of(FrameView(owned.tick, owned.owner, pointers, protocol::WorldSettings{0.5f, 2.0f}, &pointers)).world,
            (protocol::WorldSettings{0.5f, 2.0f}));
}

TEST(FrameView, ADefaultViewIsNoFrame) {
  const FrameView none;
  const FrameView null_pointer(static_cast<const ReplicaFrame*>(nullptr));
  EXPECT_FALSE(none);
  EXPECT_EQ(none, nullptr);
  EXPECT_EQ(null_pointer, nullptr);
  EXPECT_TRUE(none.empty());
  EXPECT_FALSE(none.owner().has_value());
  EXPECT_FALSE(none.same_object(null_pointer)) << "no frame is not the same object as another";
}

}  // namespace
}  // namespace tickwire

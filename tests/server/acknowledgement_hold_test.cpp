// What a durable room's server holds back: events and messages go in the order made once the update
// that made them is durable, past the cap they are dropped (never sent); the edit set goes out only
// at its newest durable revision, each revision as it stood when made.
#include <gtest/gtest.h>

#include "tickwire/server/acknowledgement_hold.h"

namespace tickwire {
namespace {

TEST(AcknowledgementHold, ItemsLeaveInOrderOnceTheirUpdateIsDurable) {
  HeldAcknowledgements<int> held;
  std::vector<int> fresh{1, 2};
  EXPECT_EQ(held.pass(fresh, 1, 0), 0u);
  EXPECT_TRUE(fresh.empty()) << "nothing durable yet";
  fresh = {3};
  held.pass(fresh, 2, 1);
  EXPECT_EQ(fresh, (std::vector<int>{1, 2}));
  fresh.clear();
  held.pass(fresh, 3, 3);
  EXPECT_EQ(fresh, (std::vector<int>{3}));
  EXPECT_EQ(held.size(), 0u);
}

TEST(AcknowledgementHold, PastTheCapNothingIsSentAndTheDropIsCounted) {
  HeldAcknowledgements<int> held;
  std::vector<int> fresh(kMaxHeldAcknowledgements + 5, 7);
  EXPECT_EQ(held.pass(fresh, 1, 0), 5u);
  EXPECT_EQ(held.size(), kMaxHeldAcknowledgements);
}

TEST(AcknowledgementHold, TheEditSetGoesOutAtItsNewestDurableRevisionAsItStoodThen) {
  HeldSceneStates held;
  protocol::SceneNodeState state;
  EXPECT_EQ(held.releasable(5), nullptr) << "nothing ever edited";
  state.revision = 1;
  held.note(state, 1);
  state.revision = 2;
  state.objects.push_back({});
  held.note(state, 2);
  held.note(state, 3);  // the same revision again: nothing new
  EXPECT_EQ(held.size(), 2u);
  EXPECT_EQ(held.releasable(0), nullptr);
  const protocol::SceneNodeState* out = held.releasable(1);
  ASSERT_NE(out, nullptr);
  EXPECT_EQ(out->revision, 1u);
  EXPECT_TRUE(out->objects.empty()) << "revision 1 as it stood, not the newest set";
  out = held.releasable(2);
  ASSERT_NE(out, nullptr);
  EXPECT_EQ(out->revision, 2u);
  for (uint32_t r = 3; r < 3 + kMaxHeldSceneStates + 1; ++r) {
    state.revision = r;
    held.note(state, r);
  }
  EXPECT_EQ(held.superseded(), 1u);
  EXPECT_EQ(held.releasable(1000)->revision, 3 + kMaxHeldSceneStates);
}

}  // namespace
}  // namespace tickwire

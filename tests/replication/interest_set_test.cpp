// Interest composition rules: radius, plus always-relevant and the own pawn, plus required parents,
// minus entities private to another owner, subtracted last (so even an always-relevant private
// entity, or a pulled-in private parent, of another owner stays out); checked case by case and
// against a reference built from the rules over seeded random worlds.
#include "tickwire/replication/interest/interest_set.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <vector>

#include "support.h"
#include "tickwire/core/rng.h"

namespace tickwire {
namespace {

InterestWorldConfig world_config(uint32_t max_entities, uint32_t max_always_relevant = 16) {
  InterestWorldConfig c;
  c.grid = InterestGridConfig{0.0f, 0.0f, 1000.0f, 1000.0f, 25.0f, max_entities};
  c.max_always_relevant = max_always_relevant;
  c.max_scene_frames = 8;
  return c;
}

void put(InterestWorld& w, uint32_t e, float x, float z, uint8_t flags = 0, uint16_t owner = kNoOwnerClient) {
  ASSERT_TRUE(w.insert(e, InterestEntity{x, z, owner, flags, 1.0f}));
}

std::set<uint32_t> compose(const InterestWorld& w, const InterestViewer& viewer, uint32_t capacity = 64) {
  InterestComposer composer(w.max_entities());
  InterestSet set(capacity);
  composer.compose(w, viewer, set);
  const std::set<uint32_t> unique(set.entities().begin(), set.entities().end());
  EXPECT_EQ(unique.size(), set.size()) << "an entity appears twice";
  return unique;
}

TEST(InterestSet, RadiusAlwaysRelevantAndOwnPawn) {
  InterestWorld w(world_config(16));
  put(w, 0, 500.0f, 500.0f);                            // at the viewer
  put(w, 1, 599.0f, 500.0f);                            // inside 100 m
  put(w, 2, 571.0f, 571.0f);                            // 100.4 m: outside
  put(w, 3, 950.0f, 50.0f, kInterestAlwaysRelevant);    // far, global
  put(w, 4, 10.0f, 990.0f);                             // far: the viewer's pawn
  put(w, 5, 10.0f, 10.0f);                              // far, nothing special
  const InterestViewer viewer{7, 500.0f, 500.0f, 100.0f, 4};
  EXPECT_EQ(compose(w, viewer), (std::set<uint32_t>{0, 1, 3, 4}));
  // Without a pawn, the pawn's entity is just another far entity.
  EXPECT_EQ(compose(w, InterestViewer{7, 500.0f, 500.0f, 100.0f, kNoEntity}), (std::set<uint32_t>{0, 1, 3}));
}

TEST(InterestSet, OwnerPrivateOfOthersIsSubtractedLast) {
  InterestWorld w(world_config(16));
  const uint16_t me = 5;
  const uint16_t other = 3;
  put(w, 0, 500.0f, 500.0f, kInterestOwnerPrivate, other);                            // in radius
  put(w, 1, 900.0f, 900.0f, kInterestOwnerPrivate | kInterestAlwaysRelevant, other);  // always relevant
  put(w, 2, 900.0f, 100.0f, kInterestOwnerPrivate | kInterestAlwaysRelevant, me);     // mine
  put(w, 3, 510.0f, 500.0f, kInterestOwnerPrivate, me);                               // mine, in radius
  put(w, 4, 520.0f, 500.0f, kInterestOwnerPrivate);                                   // private, no owner
  put(w, 5, 100.0f, 100.0f, kInterestOwnerPrivate, other);                            // another's, named as my pawn
  put(w, 6, 530.0f, 500.0f, 0, other);                                                // another's, public
  EXPECT_EQ(compose(w, InterestViewer{me, 500.0f, 500.0f, 100.0f, 5}), (std::set<uint32_t>{2, 3, 6}));
  EXPECT_EQ(compose(w, InterestViewer{other, 500.0f, 500.0f, 100.0f, kNoEntity}), (std::set<uint32_t>{0, 1, 6}));
  // Making entity 1 public lets everyone see it; making 6 private hides it from me.
  ASSERT_TRUE(w.set_flags(1, kInterestAlwaysRelevant));
  ASSERT_TRUE(w.set_flags(6, kInterestOwnerPrivate));
  EXPECT_EQ(compose(w, InterestViewer{me, 500.0f, 500.0f, 100.0f, 5}), (std::set<uint32_t>{1, 2, 3}));
}

TEST(InterestSet, RequiredParentsArePulledInUnlessPrivateToAnother) {
  InterestWorld w(world_config(16));
  put(w, 0, 500.0f, 500.0f);  // child, in radius
  put(w, 1, 900.0f, 900.0f);  // its parent, far
  put(w, 2, 50.0f, 900.0f);   // grandparent, far
  put(w, 3, 505.0f, 500.0f);  // second child, whose parent is another's private entity
  put(w, 4, 50.0f, 50.0f, kInterestOwnerPrivate, 9);
  w.set_parent(0, 1);
  w.set_parent(1, 2);
  w.set_parent(3, 4);
  // Entity 3 stays in the set; budget fitting never sends it without its parent.
  EXPECT_EQ(compose(w, InterestViewer{1, 500.0f, 500.0f, 100.0f, kNoEntity}), (std::set<uint32_t>{0, 1, 2, 3}));
  EXPECT_EQ(compose(w, InterestViewer{9, 500.0f, 500.0f, 100.0f, kNoEntity}), (std::set<uint32_t>{0, 1, 2, 3, 4}));
  // A removed parent is not pulled in, and its link goes stale rather than adopting a newcomer.
  w.remove(1);
  put(w, 1, 700.0f, 700.0f);
  bool broken = false;
  EXPECT_EQ(w.parent(0, &broken), kNoEntity);
  EXPECT_TRUE(broken);
  EXPECT_EQ(compose(w, InterestViewer{1, 500.0f, 500.0f, 100.0f, kNoEntity}), (std::set<uint32_t>{0, 3}));
}

// The world counts its parent links (live or stale) so composition can skip parent walks when
// there are none; the count follows every way a link is made, changed, cleared or removed.
TEST(InterestSet, TheWorldKnowsWhetherAnyParentLinkExists) {
  InterestWorld w(world_config(8));
  for (uint32_t e = 0; e < 4; ++e) put(w, e, 500.0f, 500.0f);
  EXPECT_FALSE(w.any_parent_links());
  w.set_parent(1, 0);
  w.set_parent(2, 0);
  EXPECT_TRUE(w.any_parent_links());
  w.set_parent(2, 1);  // re-parented: still one link for entity 2
  w.set_parent(1, kNoEntity);
  EXPECT_TRUE(w.any_parent_links()) << "entity 2's link remains";
  w.remove(1);  // 2's link to 1 goes stale: it still counts (the child must not be sent)
  EXPECT_TRUE(w.any_parent_links());
  w.remove(2);  // a removed entity's link goes with it
  EXPECT_FALSE(w.any_parent_links());
  w.set_parent(3, kNoEntity);  // clearing nothing changes nothing
  EXPECT_FALSE(w.any_parent_links());
}

TEST(InterestSet, AFullSetKeepsPawnAndAlwaysRelevantAndCountsTheRest) {
  InterestWorld w(world_config(32));
  for (uint32_t e = 0; e < 20; ++e) put(w, e, 500.0f + static_cast<float>(e), 500.0f);
  put(w, 20, 10.0f, 10.0f, kInterestAlwaysRelevant);
  put(w, 21, 990.0f, 10.0f);
  InterestComposer composer(w.max_entities());
  InterestSet set(8);
  composer.compose(w, InterestViewer{0, 500.0f, 500.0f, 100.0f, 21}, set);
  EXPECT_EQ(set.size(), 8u);
  EXPECT_EQ(set.overflowed(), 14u);  // 22 visible, 8 kept
  EXPECT_EQ(set.entities()[0], 21u);
  EXPECT_EQ(set.entities()[1], 20u);
}

TEST(InterestSet, TheAlwaysRelevantListIsCapped) {
  InterestWorld w(world_config(8, 2));
  put(w, 0, 1.0f, 1.0f, kInterestAlwaysRelevant);
  put(w, 1, 2.0f, 2.0f, kInterestAlwaysRelevant);
  EXPECT_FALSE(w.insert(2, InterestEntity{3.0f, 3.0f, kNoOwnerClient, kInterestAlwaysRelevant, 1.0f}));
  EXPECT_FALSE(w.contains(2));
  put(w, 2, 3.0f, 3.0f);
  EXPECT_FALSE(w.set_flags(2, kInterestAlwaysRelevant));
  EXPECT_EQ(w.flags(2), 0);
  w.remove(0);
  EXPECT_TRUE(w.set_flags(2, kInterestAlwaysRelevant));
  EXPECT_EQ(std::set<uint32_t>(w.always_relevant().begin(), w.always_relevant().end()), (std::set<uint32_t>{1, 2}));
}

TEST(InterestSet, ACycleOfParentsIsAProgrammerError) {
  test::ThrowOnAssert guard;
  InterestWorld w(world_config(8));
  put(w, 0, 1.0f, 1.0f);
  put(w, 1, 2.0f, 2.0f);
  put(w, 2, 3.0f, 3.0f);
  w.set_parent(0, 1);
  w.set_parent(1, 2);
  EXPECT_THROW(w.set_parent(2, 0), test::AssertionFailure);
  EXPECT_THROW(w.set_parent(2, 2), test::AssertionFailure);
}

// The rules spelled out directly, for the randomized cross-check.
std::set<uint32_t> reference(const InterestWorld& w, const InterestViewer& v) {
  std::set<uint32_t> in;
  for (uint32_t e = 0; e < w.max_entities(); ++e) {
    if (!w.contains(e)) continue;
    const float dx = w.x_m(e) - v.x_m;
    const float dz = w.z_m(e) - v.z_m;
    if (dx * dx + dz * dz <= v.radius_m * v.radius_m || (w.flags(e) & kInterestAlwaysRelevant) != 0 || e == v.pawn) {
      in.insert(e);
    }
  }
  for (uint32_t e : std::set<uint32_t>(in)) {
    for (uint32_t up = w.parent(e), d = 0; up != kNoEntity && d < InterestWorld::kMaxParentDepth; up = w.parent(up), ++d) {
      in.insert(up);
    }
  }
  std::erase_if(in, [&](uint32_t e) {
    return (w.flags(e) & kInterestOwnerPrivate) != 0 && w.owner_client(e) != v.client;
  });
  return in;
}

TEST(InterestSet, CompositionMatchesTheRulesOverRandomWorlds) {
  const uint64_t seed = test::test_seed(0x1e7e'a002);
  Rng rng(seed);
  for (int world = 0; world < 40; ++world) {
    InterestWorld w(world_config(256, 64));
    for (uint32_t e = 0; e < 256; ++e) {
      if (rng.chance(0.2)) continue;
      uint8_t flags = 0;
      if (rng.chance(0.05)) flags |= kInterestAlwaysRelevant;
      if (rng.chance(0.2)) flags |= kInterestOwnerPrivate;
      const auto owner = rng.chance(0.3) ? kNoOwnerClient : static_cast<uint16_t>(rng.below(4));
      const InterestEntity attrs{static_cast<float>(rng.unit() * 1000), static_cast<float>(rng.unit() * 1000), owner, flags, 1.0f};
      if (!w.insert(e, attrs)) {  // the always-relevant list is full: insert it plain
        ASSERT_TRUE(w.insert(e, InterestEntity{attrs.x_m, attrs.z_m, owner, 0, 1.0f}));
      }
    }
    // Parents only point to lower indices, so no cycle can form; chains stay within the depth cap.
    std::vector<uint32_t> depth(256, 0);
    for (uint32_t e = 1; e < 256; ++e) {
      const auto p = static_cast<uint32_t>(rng.below(e));
      if (!w.contains(e) || !w.contains(p) || !rng.chance(0.3) || depth[p] >= InterestWorld::kMaxParentDepth) continue;
      w.set_parent(e, p);
      depth[e] = depth[p] + 1;
    }
    for (int q = 0; q < 20; ++q) {
      const auto pawn = static_cast<uint32_t>(rng.below(256));
      const InterestViewer v{static_cast<uint16_t>(rng.below(4)), static_cast<float>(rng.unit() * 1000),
                             static_cast<float>(rng.unit() * 1000), static_cast<float>(rng.unit() * 300),
                             w.contains(pawn) ? pawn : kNoEntity};
      ASSERT_EQ(compose(w, v, 256), reference(w, v)) << "world " << world << " query " << q;
    }
  }
}

}  // namespace
}  // namespace tickwire

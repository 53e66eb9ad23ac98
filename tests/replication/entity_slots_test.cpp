// The slot allocator against ABA: 2^20 reuses, and no (handle, generation) pair is ever issued
// twice, so no stale EntityRef resolves to a later occupant; a slot at its last generation is
// retired, never wrapped; hostile refs are refused with a reason.
#include "tickwire/replication/handles/entity_slots.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "support.h"
#include "tickwire/core/rng.h"

namespace tickwire {
namespace {

constexpr uint32_t kReuses = uint32_t{1} << 20;
constexpr uint32_t kUsesPerSlot = EntitySlots::kLastGeneration - EntitySlots::kFirstGeneration + 1;  // 65535

TEST(EntitySlots, SpawnCarriesTheGenerationAndDespawnInvalidatesIt) {
  EntitySlots slots(/*owner=*/3, /*capacity=*/4);
  const EntityRef a = slots.spawn(kEntityRefOwned).value();
  EXPECT_EQ(a.handle().owner(), 3);
  EXPECT_EQ(a.handle().index(), 1u);
  EXPECT_EQ(a.generation(), EntitySlots::kFirstGeneration);
  EXPECT_TRUE(a.is_owned());
  EXPECT_TRUE(slots.resolves(a));
  EXPECT_TRUE(slots.resolves(a.with_flags(0)));  // flags do not take part in identity
  EXPECT_EQ(slots.despawn(a), EntityLookup::ok);
  EXPECT_EQ(slots.lookup(a), EntityLookup::not_live);
  EXPECT_EQ(slots.despawn(a), EntityLookup::not_live);  // a double despawn changes nothing
  const EntityRef b = slots.spawn().value();
  EXPECT_EQ(b.handle(), a.handle());  // the same slot, reused
  EXPECT_EQ(b.generation(), a.generation() + 1);
  EXPECT_EQ(slots.lookup(a), EntityLookup::stale_generation);
  EXPECT_EQ(slots.despawn(a), EntityLookup::stale_generation);
  EXPECT_TRUE(slots.resolves(b));
  EXPECT_EQ(slots.live(), 1u);
}

TEST(EntitySlots, CapacityIsFixed) {
  EntitySlots slots(0, 3);
  std::vector<EntityRef> refs;
  for (int i = 0; i < 3; ++i) refs.push_back(slots.spawn().value());
  EXPECT_FALSE(slots.spawn().has_value());
  EXPECT_EQ(slots.spawn_failures(), 1u);
  ASSERT_EQ(slots.despawn(refs[1]), EntityLookup::ok);
  const EntityRef again = slots.spawn().value();
  EXPECT_EQ(again.handle().index(), refs[1].handle().index());
  EXPECT_EQ(slots.live(), 3u);
}

TEST(EntitySlots, RefsFromElsewhereAreRefusedWithAReason) {
  EntitySlots slots(1, 8);
  const EntityRef live = slots.spawn().value();
  EXPECT_EQ(slots.lookup(EntityRef{}), EntityLookup::none_handle);
  EXPECT_EQ(slots.lookup(EntityRef::make(EntityNetHandle::make(2, 1), live.generation())),
            EntityLookup::foreign_owner);
  EXPECT_EQ(slots.lookup(EntityRef::make(EntityNetHandle::make(1, 5), 1)), EntityLookup::index_out_of_range);
  EXPECT_EQ(slots.lookup(EntityRef::make(live.handle(), 9)), EntityLookup::stale_generation);
  // Arbitrary 64-bit refs (hostile bytes) never resolve unless they name the live incarnation.
  Rng rng(test::test_seed(0xe71'7e));
  for (int i = 0; i < 100'000; ++i) {
    const EntityRef noise = EntityRef::from_raw(rng.next_u64());
    ASSERT_EQ(slots.resolves(noise), noise.same_entity(live));
  }
}

// 2^20 spawn/despawn cycles, each immediately reusing the slot just freed (last-in first-out: the
// worst case for ABA). Every issued ref is kept: after its despawn it never resolves again, and
// no (handle, generation) pair is issued twice.
TEST(EntitySlots, TwoToTheTwentyReusesNeverResolveAStaleRef) {
  const uint64_t seed = test::test_seed(0xaba);
  Rng rng(seed);
  EntitySlots slots(/*owner=*/0, /*capacity=*/32);
  const EntityRef pinned = slots.spawn().value();  // one long-lived neighbour that must stay valid
  std::vector<EntityRef> issued;
  issued.reserve(kReuses);
  for (uint32_t i = 0; i < kReuses; ++i) {
    const EntityRef ref = slots.spawn().value();
    if (!issued.empty()) {
      const EntityRef previous = issued.back();
      ASSERT_FALSE(slots.resolves(previous)) << "cycle " << i << " seed=" << seed;
      if (previous.handle() == ref.handle()) {
        ASSERT_EQ(slots.lookup(previous), EntityLookup::stale_generation) << "cycle " << i;
      }
    }
    if (i % 1024 == 0 && !issued.empty()) {
      for (int k = 0; k < 32; ++k) {
        const EntityRef old = issued[rng.below(issued.size())];
        ASSERT_FALSE(slots.resolves(old)) << "cycle " << i << " seed=" << seed;
      }
    }
    ASSERT_TRUE(slots.resolves(ref));
    issued.push_back(ref);
    ASSERT_EQ(slots.despawn(ref), EntityLookup::ok);
  }
  EXPECT_TRUE(slots.resolves(pinned));
  for (const EntityRef ref : issued) ASSERT_FALSE(slots.resolves(ref));
  // Slot after slot ran through all 65535 generations and was retired.
  EXPECT_EQ(slots.retired(), kReuses / kUsesPerSlot);
  std::vector<uint64_t> identities;
  identities.reserve(issued.size());
  for (const EntityRef ref : issued) identities.push_back(ref.raw() >> 16);
  std::sort(identities.begin(), identities.end());
  EXPECT_EQ(std::adjacent_find(identities.begin(), identities.end()), identities.end())
      << "an (index, generation) pair was issued twice";
}

// One slot, 2^20 attempts: it serves exactly 65535 incarnations, then retires instead of wrapping
// to a generation an old ref still carries; later spawns fail and are counted.
TEST(EntitySlots, ASlotAtItsLastGenerationIsRetiredNotWrapped) {
  EntitySlots slots(0, 1);
  uint32_t served = 0;
  EntityRef first;
  EntityRef last;
  for (uint32_t i = 0; i < kReuses; ++i) {
    const std::optional<EntityRef> ref = slots.spawn();
    if (!ref) continue;
    if (served == 0) first = *ref;
    last = *ref;
    ++served;
    ASSERT_EQ(slots.despawn(*ref), EntityLookup::ok);
  }
  EXPECT_EQ(served, kUsesPerSlot);
  EXPECT_EQ(first.generation(), EntitySlots::kFirstGeneration);
  EXPECT_EQ(last.generation(), EntitySlots::kLastGeneration);
  EXPECT_EQ(slots.retired(), 1u);
  EXPECT_EQ(slots.spawn_failures(), kReuses - kUsesPerSlot);
  EXPECT_EQ(slots.lookup(first), EntityLookup::not_live);
  EXPECT_EQ(slots.lookup(last), EntityLookup::not_live);
}

TEST(EntitySlots, CapacityOutOfRangeIsAProgrammerError) {
  test::ThrowOnAssert guard;
  EXPECT_THROW(EntitySlots(0, 0), test::AssertionFailure);
  EXPECT_THROW(EntitySlots(0, EntitySlots::kMaxCapacity + 1), test::AssertionFailure);
}

}  // namespace
}  // namespace tickwire

// Handle layouts: owner 10 | index 22 in EntityNetHandle; handle 32 | generation 16 | flags 16 in
// EntityRef.
#include "tickwire/replication/handles/entity_handle.h"

#include <gtest/gtest.h>

#include "support.h"

namespace tickwire {
namespace {

static_assert(sizeof(EntityNetHandle) == 4 && sizeof(EntityRef) == 8);

TEST(EntityNetHandle, PacksATenBitOwnerAboveA22BitIndex) {
  const EntityNetHandle h = EntityNetHandle::make(7, 0x123456);
  EXPECT_EQ(h.raw(), 7u << 22 | 0x123456u);
  EXPECT_EQ(h.owner(), 7);
  EXPECT_EQ(h.index(), 0x123456u);
  const EntityNetHandle past_a_byte = EntityNetHandle::make(1000, 5);
  EXPECT_EQ(past_a_byte.owner(), 1000);
  EXPECT_EQ(past_a_byte.index(), 5u);
  EXPECT_FALSE(h.is_authority());
  EXPECT_TRUE(EntityNetHandle::make(EntityNetHandle::kAuthorityOwner, 1).is_authority());
  const EntityNetHandle top = EntityNetHandle::make(kMaxClientOwner, EntityNetHandle::kMaxIndex);
  EXPECT_EQ(top.raw(), 0xFFFFFFFFu);
  EXPECT_EQ(EntityNetHandle::kGameIndexBase, 1u << 21);
  EXPECT_EQ(EntityNetHandle::from_raw(top.raw()), top);
  EXPECT_TRUE(EntityNetHandle{}.is_none());
  EXPECT_TRUE(EntityNetHandle::make(3, 0).is_none());
}

TEST(EntityNetHandle, AnIndexOrAnOwnerPastItsBitsIsAProgrammerError) {
  test::ThrowOnAssert guard;
  EXPECT_THROW(EntityNetHandle::make(1, EntityNetHandle::kMaxIndex + 1), test::AssertionFailure);
  EXPECT_THROW(EntityNetHandle::make(kOwnerIdCount, 1), test::AssertionFailure);
}

TEST(EntityRef, PacksHandleGenerationAndFlags) {
  const EntityNetHandle h = EntityNetHandle::make(2, 0x000ABC);
  const EntityRef ref = EntityRef::make(h, 0xBEEF, kEntityRefPredicted | kEntityRefOwned);
  EXPECT_EQ(ref.raw(), (uint64_t{2} << 54) | uint64_t{0x000ABC} << 32 | 0xBEEF'0003ull);
  EXPECT_EQ(ref.handle(), h);
  EXPECT_EQ(ref.generation(), 0xBEEF);
  EXPECT_TRUE(ref.is_predicted());
  EXPECT_TRUE(ref.is_owned());
  EXPECT_FALSE(ref.has_unknown_flags());
  EXPECT_EQ(EntityRef::from_raw(ref.raw()), ref);
  const EntityRef plain = ref.with_flags(0);
  EXPECT_FALSE(plain.is_predicted());
  EXPECT_TRUE(plain.same_entity(ref));
  EXPECT_NE(plain, ref);
  EXPECT_FALSE(EntityRef::make(h, 0xBEF0).same_entity(ref));
  EXPECT_TRUE(EntityRef::from_raw(0x8000).has_unknown_flags());
}

}  // namespace
}  // namespace tickwire

// ConstructHandle and ConstructRegistry (seed 002, "ConstructHandle", "AuthorityClass Tags"): a
// handle packs owner, index and generation in 32 bits; a destroyed construct's handle is refused as
// stale even once its index is reused; another owner's, index 0 and an index never issued are
// refused by name; a full registry refuses; when the authority moves, host constructs move with it
// under their handles and the rest die with the old host; when an owner leaves, its transferable
// constructs go to the authority under new handles and its own die.
#include <gtest/gtest.h>

#include <variant>

#include "support.h"
#include "tickwire/replication/handles/construct_registry.h"

namespace tickwire {
namespace {

ConstructHandle made(const std::variant<ConstructHandle, ConstructRefusal>& v) {
  EXPECT_TRUE(std::holds_alternative<ConstructHandle>(v));
  return std::get<ConstructHandle>(v);
}

ConstructRefusal refused(const std::variant<ConstructInfo, ConstructRefusal>& v) {
  EXPECT_TRUE(std::holds_alternative<ConstructRefusal>(v));
  return std::holds_alternative<ConstructRefusal>(v) ? std::get<ConstructRefusal>(v) : ConstructRefusal::count_;
}

TEST(ConstructHandle, PacksOwnerIndexAndGenerationInThirtyTwoBits) {
  // Owner 10 bits | index 14 | generation 8.
  const ConstructHandle h = ConstructHandle::make(7, 0x2EEF, 3);
  EXPECT_EQ(h.raw(), 7u << 22 | 0x2EEFu << 8 | 3u);
  EXPECT_EQ(h.owner(), 7);
  EXPECT_EQ(h.index(), 0x2EEF);
  EXPECT_EQ(h.generation(), 3);
  const ConstructHandle top = ConstructHandle::make(kMaxClientOwner, ConstructHandle::kMaxIndex, 0xFF);
  EXPECT_EQ(top.raw(), 0xFFFFFFFFu);
  EXPECT_EQ(top.owner(), kMaxClientOwner);
  EXPECT_EQ(top.index(), ConstructHandle::kMaxIndex);
  EXPECT_TRUE(ConstructHandle{}.is_none());
  static_assert(sizeof(ConstructHandle) == 4);
}

TEST(ConstructHandle, AnIndexOrAnOwnerPastItsBitsIsAProgrammerError) {
  test::ThrowOnAssert guard;
  EXPECT_THROW((void)ConstructHandle::make(1, ConstructHandle::kMaxIndex + 1, 1), test::AssertionFailure);
  EXPECT_THROW((void)ConstructHandle::make(kOwnerIdCount, 1, 1), test::AssertionFailure);
  EXPECT_THROW(ConstructRegistry(1, ConstructHandle::kMaxIndex + 1), test::AssertionFailure);
}

TEST(ConstructRegistry, AStaleHandleIsRefusedEvenWhenItsIndexIsReused) {
  ConstructRegistry r(0, 4);
  const ConstructHandle mode = made(r.create({1, AuthorityClass::host}));
  EXPECT_EQ(std::get<ConstructInfo>(r.resolve(mode)).kind, 1);
  EXPECT_FALSE(r.destroy(mode).has_value());
  EXPECT_EQ(refused(r.resolve(mode)), ConstructRefusal::not_live);
  const ConstructHandle next = made(r.create({2, AuthorityClass::fixed}));
  EXPECT_EQ(next.index(), mode.index()) << "the index is reused";
  EXPECT_EQ(refused(r.resolve(mode)), ConstructRefusal::stale_generation);
  EXPECT_EQ(r.destroy(mode), ConstructRefusal::stale_generation) << "a stale handle destroys nothing";
  EXPECT_EQ(std::get<ConstructInfo>(r.resolve(next)).kind, 2);
}

TEST(ConstructRegistry, ForeignNoneUnknownAndFullAreRefusedByName) {
  ConstructRegistry r(3, 2);
  EXPECT_EQ(refused(r.resolve(ConstructHandle{})), ConstructRefusal::none_handle);
  EXPECT_EQ(refused(r.resolve(ConstructHandle::make(4, 1, 1))), ConstructRefusal::foreign_owner);
  EXPECT_EQ(refused(r.resolve(ConstructHandle::make(3, 9, 1))), ConstructRefusal::unknown_index);
  (void)made(r.create({}));
  (void)made(r.create({}));
  EXPECT_EQ(std::get<ConstructRefusal>(r.create({})), ConstructRefusal::registry_full);
  EXPECT_EQ(r.refusals()[ConstructRefusal::registry_full], 1u);
  EXPECT_EQ(r.refusals().total(), 4u);
}

TEST(ConstructRegistry, ASlotWhoseGenerationWouldWrapRetires) {
  ConstructRegistry r(0, 1);
  ConstructHandle h;
  for (int life = 0; life < 255; ++life) {
    h = made(r.create({}));
    ASSERT_FALSE(r.destroy(h).has_value());
  }
  EXPECT_EQ(h.generation(), 255);
  EXPECT_EQ(std::get<ConstructRefusal>(r.create({})), ConstructRefusal::registry_full) << "never a 256th life";
}

TEST(ConstructRegistry, HostConstructsMoveWithTheAuthorityUnderTheirHandlesAndTheRestDie) {
  ConstructRegistry old_host(0, 8), new_host(0, 8);
  const ConstructHandle mode = made(old_host.create({10, AuthorityClass::host}));
  const ConstructHandle turret = made(old_host.create({11, AuthorityClass::fixed}));
  const std::vector<ConstructHandle> died = new_host.adopt(old_host);
  ASSERT_EQ(died.size(), 1u);
  EXPECT_EQ(died[0], turret);
  EXPECT_EQ(std::get<ConstructInfo>(new_host.resolve(mode)).kind, 10) << "an RPC to the game mode still reaches it";
  EXPECT_EQ(refused(new_host.resolve(turret)), ConstructRefusal::not_live);
  EXPECT_EQ(old_host.live(), 0u);
  const ConstructHandle next = made(new_host.create({12, AuthorityClass::fixed}));
  EXPECT_NE(next, turret) << "the dead construct's index comes back with a later generation";
  EXPECT_EQ(refused(new_host.resolve(turret)), next.index() == turret.index() ? ConstructRefusal::stale_generation
                                                                               : ConstructRefusal::not_live);
}

TEST(ConstructRegistry, ALeavingOwnersTransferableConstructsGoToTheAuthority) {
  ConstructRegistry player(5, 8), authority(0, 8);
  const ConstructHandle soul = made(player.create({20, AuthorityClass::owner}));
  const ConstructHandle squad = made(player.create({21, AuthorityClass::transferable}));
  const std::vector<ConstructMove> moved = player.owner_left(authority);
  ASSERT_EQ(moved.size(), 1u);
  EXPECT_EQ(moved[0].from, squad);
  EXPECT_EQ(moved[0].to.owner(), 0);
  EXPECT_EQ(std::get<ConstructInfo>(authority.resolve(moved[0].to)).kind, 21);
  EXPECT_EQ(refused(player.resolve(soul)), ConstructRefusal::not_live);
}

}  // namespace
}  // namespace tickwire

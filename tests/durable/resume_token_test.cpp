// Resume tokens: one issued is redeemed once, with what it was issued for, by any server holding
// the key; every refusal by its name (malformed, forged, expired, foreign, replayed), the single use
// held by the store across connections (two processes) on both backends, and the store's record of
// a used token forgotten once the token would have expired anyway.
#include <gtest/gtest.h>

#include <vector>

#include "backend_stores.h"
#include "tickwire/durable/resume_token.h"

namespace tickwire::durable {
namespace {

const WallTime kT0 = WallTime::from_ns(1'700'000'000'000'000'000);
constexpr Duration kLife = Duration::seconds(120);
constexpr uint64_t kPawn = (uint64_t{0x800007} << 32) | 3;

ResumeRefusal refusal(const std::variant<ResumeClaims, ResumeRefusal>& r) {
  return std::holds_alternative<ResumeRefusal>(r) ? std::get<ResumeRefusal>(r) : ResumeRefusal::count_;
}

TEST(ResumeTokens, ATokenSaysWhatItWasIssuedForAndEveryRefusalHasItsName) {
  const ResumeTokens tokens(random_resume_key());
  const std::vector<uint8_t> token = *tokens.issue("room.a", "player.7", kPawn, kT0, kLife);
  EXPECT_LE(token.size(), kMaxResumeTokenBytes);
  EXPECT_LE(token.size(), 256u) << "it rides in a connect token's user data";
  const auto checked = tokens.check(token, "room.a", kT0 + Duration::seconds(5));
  ASSERT_TRUE(std::holds_alternative<ResumeClaims>(checked));
  const ResumeClaims& claims = std::get<ResumeClaims>(checked);
  EXPECT_EQ(claims.room, "room.a");
  EXPECT_EQ(claims.player, "player.7");
  EXPECT_EQ(claims.pawn, kPawn);
  EXPECT_EQ(claims.issued_at, kT0);
  EXPECT_EQ(claims.expires_at, kT0 + kLife);

  // Forged: any byte changed, or signed with another key.
  for (std::size_t i = 1; i < token.size(); ++i) {
    std::vector<uint8_t> changed = token;
    changed[i] ^= 0x20;
    EXPECT_EQ(refusal(tokens.check(changed, "room.a", kT0)), ResumeRefusal::forged) << "byte " << i;
  }
  const ResumeTokens other(random_resume_key());
  EXPECT_EQ(refusal(other.check(token, "room.a", kT0)), ResumeRefusal::forged);
  // Expired, not yet issued, foreign.
  EXPECT_EQ(refusal(tokens.check(token, "room.a", kT0 + kLife)), ResumeRefusal::expired);
  EXPECT_EQ(refusal(tokens.check(token, "room.a", kT0 - Duration::seconds(1))), ResumeRefusal::expired);
  EXPECT_EQ(refusal(tokens.check(token, "room.b", kT0)), ResumeRefusal::foreign);
  // Malformed: cut short, empty, another version, too long.
  EXPECT_EQ(refusal(tokens.check(std::span<const uint8_t>(token).first(token.size() - 1), "room.a", kT0)), ResumeRefusal::forged);
  EXPECT_EQ(refusal(tokens.check(std::span<const uint8_t>(token).first(20), "room.a", kT0)), ResumeRefusal::malformed);
  EXPECT_EQ(refusal(tokens.check({}, "room.a", kT0)), ResumeRefusal::malformed);
  std::vector<uint8_t> version = token;
  version[0] = 2;
  EXPECT_EQ(refusal(tokens.check(version, "room.a", kT0)), ResumeRefusal::malformed);
  std::vector<uint8_t> long_one(kMaxResumeTokenBytes + 1, 1);
  EXPECT_EQ(refusal(tokens.check(long_one, "room.a", kT0)), ResumeRefusal::malformed);
  // What cannot be issued.
  EXPECT_FALSE(tokens.issue(std::string(kMaxResumeNameBytes + 1, 'r'), "p", kPawn, kT0, kLife));
  EXPECT_FALSE(tokens.issue("room.a", "p", kPawn, kT0, kMaxResumeLifetime + Duration::seconds(1)));
  EXPECT_FALSE(tokens.issue("room.a", "p", kPawn, kT0, Duration{}));
}

class ResumeRedeem : public ::testing::TestWithParam<std::string> {};

// Two server processes (two store connections) share the key: the token is good at either, once.
TEST_P(ResumeRedeem, ATokenIsUsedOnceAcrossServersAndItsRecordGoesWhenItExpires) {
  test_support::BackendStores stores(GetParam());
  ASSERT_FALSE(stores.url().empty()) << stores.why();
  const std::unique_ptr<Store> first = stores.open(), second = stores.open();
  ASSERT_TRUE(first && second);
  const ResumeTokens tokens(random_resume_key());
  const std::vector<uint8_t> token = *tokens.issue("room.a", "player.7", kPawn, kT0, kLife);
  const auto redeemed = tokens.redeem(token, "room.a", kT0 + Duration::seconds(1), *second);
  ASSERT_TRUE(std::holds_alternative<ResumeClaims>(redeemed));
  EXPECT_EQ(std::get<ResumeClaims>(redeemed).pawn, kPawn);
  EXPECT_EQ(refusal(tokens.redeem(token, "room.a", kT0 + Duration::seconds(2), *first)), ResumeRefusal::replayed);
  EXPECT_EQ(refusal(tokens.redeem(token, "room.a", kT0 + Duration::seconds(2), *second)), ResumeRefusal::replayed);
  // Another token of the same player is its own.
  const std::vector<uint8_t> next = *tokens.issue("room.a", "player.7", kPawn, kT0 + Duration::seconds(3), kLife);
  EXPECT_TRUE(std::holds_alternative<ResumeClaims>(tokens.redeem(next, "room.a", kT0 + Duration::seconds(4), *first)));
  // The store keeps a used id only while its token could still be presented.
  const ResumeTokenId id{1, 2, 3};
  EXPECT_TRUE(stored(first->use_resume_token("room.a", id, kT0 + kLife, kT0)));
  EXPECT_EQ(failure_of(first->use_resume_token("room.a", id, kT0 + kLife, kT0))->reason, StoreRefusal::duplicate);
  EXPECT_TRUE(stored(first->use_resume_token("room.b", id, kT0 + kLife, kT0))) << "ids are per room";
  EXPECT_TRUE(stored(first->use_resume_token("room.a", id, kT0 + kLife * 2, kT0 + kLife))) << "forgotten once expired";
}

INSTANTIATE_TEST_SUITE_P(Backends, ResumeRedeem, ::testing::Values("sqlite", "postgresql"),
                         [](const ::testing::TestParamInfo<std::string>& backend) { return backend.param; });

}  // namespace
}  // namespace tickwire::durable

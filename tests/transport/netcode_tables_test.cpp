// The server's capped tables: the fixed hash index under churn (against a reference map), the
// pending-handshake table's recency eviction and deadlines, the token-use history, the challenge
// token and the sequence-stream allocator that keeps nonces unique.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "netcode_test_support.h"
#include "support.h"
#include "tickwire/core/rng.h"
#include "tickwire/transport/challenge_token.h"
#include "tickwire/transport/fixed_hash_index.h"
#include "tickwire/transport/pending_handshakes.h"
#include "tickwire/transport/sequence_streams.h"
#include "tickwire/transport/token_use_table.h"

namespace tickwire::netcode {
namespace {

using test::fixed_key;

struct SmallHash {  // deliberately poor, to force long probe runs
  std::size_t operator()(uint32_t k) const { return k % 7; }
};

TEST(FixedHashIndex, MatchesAReferenceMapUnderChurn) {
  Rng rng(test::test_seed(11));
  FixedHashIndex<uint32_t, SmallHash> index(64);
  std::map<uint32_t, uint32_t> reference;
  for (int step = 0; step < 20000; ++step) {
    const auto key = static_cast<uint32_t>(rng.below(200));
    if (rng.chance(0.5)) {
      const auto value = static_cast<uint32_t>(rng.below(1000));
      const bool inserted = index.insert(key, value);
      if (reference.count(key) || reference.size() < 64) {
        ASSERT_TRUE(inserted);
        reference[key] = value;
      } else {
        ASSERT_FALSE(inserted);
      }
    } else {
      ASSERT_EQ(index.erase(key), reference.erase(key) == 1);
    }
    ASSERT_EQ(index.size(), reference.size());
    const auto probe = static_cast<uint32_t>(rng.below(200));
    const auto found = index.find(probe);
    const auto it = reference.find(probe);
    ASSERT_EQ(found.has_value(), it != reference.end());
    if (found) {
      ASSERT_EQ(*found, it->second);
    }
  }
}

PendingHandshake pending_for(uint32_t i, MonoTime expire_at, uint8_t mac_seed = 0) {
  PendingHandshake p;
  p.address = test::client_address(i);
  p.client_to_server_key = fixed_key(static_cast<uint8_t>(i));
  p.token_mac[0] = mac_seed;
  p.expire_at = expire_at;
  return p;
}

TEST(PendingHandshakes, EvictsTheLeastRecentWhenFull) {
  PendingHandshakes table(4);
  const MonoTime t0 = MonoTime::from_ns(0);
  const MonoTime later = t0 + Duration::seconds(5);
  for (uint32_t i = 0; i < 4; ++i) table.upsert(pending_for(i, later), t0);
  ASSERT_NE(table.find(test::client_address(0), t0), nullptr);  // 0 becomes most recent
  table.upsert(pending_for(4, later), t0);                     // evicts 1, the least recent
  EXPECT_EQ(table.size(), 4u);
  EXPECT_EQ(table.evictions(), 1u);
  EXPECT_EQ(table.find(test::client_address(1), t0), nullptr);
  EXPECT_NE(table.find(test::client_address(0), t0), nullptr);
  EXPECT_NE(table.find(test::client_address(4), t0), nullptr);
}

TEST(PendingHandshakes, DeadlinesAndRefreshes) {
  PendingHandshakes table(8);
  const MonoTime t0 = MonoTime::from_ns(0);
  table.upsert(pending_for(1, t0 + Duration::seconds(1), 1), t0);
  // Same token again: recency only, the deadline stays.
  table.upsert(pending_for(1, t0 + Duration::seconds(9), 1), t0 + Duration::milliseconds(500));
  EXPECT_NE(table.find(test::client_address(1), t0 + Duration::milliseconds(999)), nullptr);
  EXPECT_EQ(table.find(test::client_address(1), t0 + Duration::seconds(1)), nullptr);
  EXPECT_EQ(table.size(), 0u);
  // Another token from the same address replaces the mapping.
  table.upsert(pending_for(2, t0 + Duration::seconds(1), 1), t0);
  PendingHandshake other = pending_for(2, t0 + Duration::seconds(3), 2);
  other.client_to_server_key = fixed_key(99);
  table.upsert(other, t0);
  const PendingHandshake* found = table.find(test::client_address(2), t0 + Duration::seconds(2));
  ASSERT_NE(found, nullptr);
  EXPECT_EQ(found->client_to_server_key, fixed_key(99));
  for (uint32_t i = 10; i < 15; ++i) table.upsert(pending_for(i, t0 + Duration::seconds(i - 9)), t0);
  EXPECT_EQ(table.expire(t0 + Duration::seconds(3)), 4u);  // 10, 11, 12 and address 2
  EXPECT_EQ(table.size(), 2u);
  table.clear();
  EXPECT_EQ(table.size(), 0u);
}

TEST(TokenUseTable, SecondAddressIsRefusedUntilTheRecordExpires) {
  TokenUseTable table(3);
  Mac a{};
  a[0] = 1;
  const Address x = test::client_address(1);
  const Address y = test::client_address(2);
  EXPECT_TRUE(table.check_and_record(a, x, 100, 10));
  EXPECT_TRUE(table.check_and_record(a, x, 100, 11));   // same address again: fine
  EXPECT_FALSE(table.check_and_record(a, y, 100, 12));  // another address: refused
  EXPECT_TRUE(table.check_and_record(a, y, 100, 100));  // expired record: no longer binding
  // Capacity: the oldest record is overwritten.
  for (uint8_t i = 2; i <= 4; ++i) {
    Mac m{};
    m[0] = i;
    EXPECT_TRUE(table.check_and_record(m, x, 100, 10));
  }
  EXPECT_EQ(table.size(), 3u);
  EXPECT_TRUE(table.check_and_record(a, x, 100, 10));  // `a` was evicted
}

TEST(ChallengeToken, RoundTripsAndRefusesTampering) {
  const Key key = fixed_key(21);
  ChallengeToken token;
  token.client_id = 0xfeedfacecafebeefull;
  for (std::size_t i = 0; i < token.user_data.size(); ++i) token.user_data[i] = static_cast<uint8_t>(i);
  SealedChallengeToken sealed;
  seal_challenge_token(token, 77, key, sealed);
  ChallengeToken out;
  ASSERT_TRUE(open_challenge_token(sealed, 77, key, out));
  EXPECT_EQ(out.client_id, token.client_id);
  EXPECT_EQ(out.user_data, token.user_data);
  EXPECT_FALSE(open_challenge_token(sealed, 78, key, out));
  EXPECT_FALSE(open_challenge_token(sealed, 77, fixed_key(22), out));
  for (std::size_t i = 0; i < sealed.size(); i += 11) {
    auto bad = sealed;
    bad[i] ^= 1;
    EXPECT_FALSE(open_challenge_token(bad, 77, key, out)) << i;
  }
}

TEST(SequenceStreams, StreamsNeverShareASequence) {
  SequenceStreams streams(kEpochFloor - 2);  // starts just below the fold: exercises the wrap
  std::set<uint64_t> bases;
  for (int i = 0; i < 1000; ++i) {
    SendSequence s = streams.open_stream();
    EXPECT_GE(s.peek(), uint64_t{1} << 62);
    EXPECT_LE(s.end(), uint64_t{1} << 63);  // exclusive end: every sequence < 2^63
    EXPECT_EQ(s.end() - s.peek(), kStreamSequences);
    EXPECT_TRUE(bases.insert(s.peek()).second);
  }
  SendSequence s(uint64_t{1} << 62);
  const uint64_t first = s.take();
  EXPECT_EQ(s.take(), first + 1);
  EXPECT_FALSE(s.exhausted());
  SendSequence empty;
  EXPECT_TRUE(empty.exhausted());
}

}  // namespace
}  // namespace tickwire::netcode

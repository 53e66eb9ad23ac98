// The chunk pool: messages of any size stored and released in any order within one fixed cap, read
// back byte for byte at any offset, and a store that does not fit refused without side effects.
#include "tickwire/transport/chunk_pool.h"

#include <gtest/gtest.h>

#include <deque>
#include <vector>

#include "message_pattern.h"
#include "support.h"
#include "tickwire/core/rng.h"

namespace tickwire {
namespace {

std::vector<uint8_t> read_all(const ChunkPool& pool, const ChunkPool::Handle& h) {
  std::vector<uint8_t> out(h.bytes);
  pool.copy_out(h, 0, out);
  return out;
}

TEST(ChunkPool, StoresHeadAndBodyAsOneMessage) {
  ChunkPool pool(256, 16);
  const std::vector<uint8_t> head = {1, 2, 3};
  const std::vector<uint8_t> body = test::make_message(9, 40);
  ChunkPool::Handle h;
  ASSERT_TRUE(pool.store(head, body, h));
  EXPECT_EQ(h.bytes, 43u);
  EXPECT_EQ(pool.used_bytes(), 48u);  // three 16-byte chunks
  std::vector<uint8_t> expected = head;
  expected.insert(expected.end(), body.begin(), body.end());
  EXPECT_EQ(read_all(pool, h), expected);
  std::vector<uint8_t> middle(20);
  pool.copy_out(h, 10, middle);
  EXPECT_EQ(middle, std::vector<uint8_t>(expected.begin() + 10, expected.begin() + 30));
  pool.release(h);
  EXPECT_EQ(pool.used_bytes(), 0u);
  EXPECT_EQ(h.bytes, 0u);
}

TEST(ChunkPool, RefusesWhatDoesNotFitAndKeepsWhatItHas) {
  ChunkPool pool(64, 16);
  ChunkPool::Handle a, b, zero;
  ASSERT_TRUE(pool.store({}, test::make_message(1, 40), a));
  EXPECT_FALSE(pool.can_store(17));
  EXPECT_FALSE(pool.store({}, test::make_message(2, 17), b));
  EXPECT_EQ(pool.used_bytes(), 48u);
  ASSERT_TRUE(pool.store({}, {}, zero));  // zero-length messages take no chunk
  EXPECT_EQ(pool.used_bytes(), 48u);
  EXPECT_TRUE(test::message_intact(read_all(pool, a)));
}

TEST(ChunkPool, RandomStoresAndReleasesNeverLeakOrCorrupt) {
  Rng rng(test::test_seed(11));
  ChunkPool pool(4096, 64);
  std::deque<ChunkPool::Handle> held;
  uint32_t next = 0;
  for (int step = 0; step < 20000; ++step) {
    if (held.empty() || rng.chance(0.55)) {
      const std::size_t size = 4 + rng.below(700);
      ChunkPool::Handle h;
      if (pool.store({}, test::make_message(next, size), h)) {
        held.push_back(h);
        ++next;
      } else {
        EXPECT_FALSE(pool.can_store(size));
      }
    } else {
      const std::size_t i = rng.below(held.size());
      ASSERT_TRUE(test::message_intact(read_all(pool, held[i])));
      pool.release(held[i]);
      held.erase(held.begin() + static_cast<std::ptrdiff_t>(i));
    }
    ASSERT_LE(pool.used_bytes(), pool.capacity_bytes());
  }
  for (ChunkPool::Handle& h : held) pool.release(h);
  EXPECT_EQ(pool.used_bytes(), 0u);
  EXPECT_TRUE(pool.can_store(pool.capacity_bytes()));
}

// Chunks are handed out released-first, then never-used: a chain may mix both, and every chunk of
// the cap is reachable whatever the order of stores and releases.
TEST(ChunkPool, AChainMixesReleasedAndNeverUsedChunksAndTheWholeCapIsReachable) {
  ChunkPool pool(64, 16);  // four chunks
  ChunkPool::Handle a, b, c, d;
  ASSERT_TRUE(pool.store({}, test::make_message(1, 16), a));  // chunk 0
  ASSERT_TRUE(pool.store({}, test::make_message(2, 32), b));  // chunks 1, 2
  pool.release(a);
  const std::vector<uint8_t> mixed = test::make_message(3, 32);
  ASSERT_TRUE(pool.store({}, mixed, c));  // released chunk 0, then never-used chunk 3
  EXPECT_EQ(read_all(pool, c), mixed);
  EXPECT_EQ(read_all(pool, b), test::make_message(2, 32));
  EXPECT_EQ(pool.used_bytes(), 64u);
  EXPECT_FALSE(pool.can_store(1));
  EXPECT_FALSE(pool.store({}, test::make_message(4, 1), d));
  pool.release(b);
  pool.release(c);
  const std::vector<uint8_t> whole = test::make_message(5, 64);
  ASSERT_TRUE(pool.store({}, whole, d));
  EXPECT_EQ(read_all(pool, d), whole);
  EXPECT_EQ(pool.used_bytes(), pool.capacity_bytes());
}

}  // namespace
}  // namespace tickwire

// Fragment reassembly: out-of-order and duplicate fragments reassemble the exact block, and every
// bad fragment (count over cap, id >= count, zero length, block too large, overflowing or
// overlapping offsets, disagreement with its set, another block while one is held) is refused
// with its own reason and leaves the set in progress untouched.
#include "tickwire/transport/fragment_reassembly.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "message_pattern.h"
#include "support.h"
#include "tickwire/core/rng.h"

namespace tickwire {
namespace {

using Outcome = FragmentReassembly::Outcome;
using R = TransportReason;

const MonoTime kNow = MonoTime::from_ns(5);

FragmentHeader frag(uint16_t index, uint16_t count, uint32_t block_bytes, uint32_t offset) {
  return FragmentHeader{index, count, block_bytes, offset};
}

TEST(FragmentReassembly, ReassemblesOutOfOrderWithDuplicates) {
  Rng rng(test::test_seed(31));
  FragmentReassembly r(10'000, 16);
  const std::vector<uint8_t> block = test::make_message(77, 9'500);
  std::vector<uint16_t> order;
  for (uint16_t i = 0; i < 10; ++i) order.push_back(i);
  for (std::size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[rng.below(i)]);
  order.insert(order.begin() + 3, order[1]);  // a duplicate
  std::size_t completed = 0;
  for (uint16_t i : order) {
    const uint32_t offset = i * 1000u;
    const std::size_t length = std::min<std::size_t>(1000, block.size() - offset);
    const auto result = r.add(3, frag(i, 10, 9'500, offset), std::span(block).subspan(offset, length), kNow);
    ASSERT_NE(result.outcome, Outcome::rejected) << reason_name(result.reason);
    completed += result.outcome == Outcome::completed;
  }
  ASSERT_EQ(completed, 1u);
  ASSERT_TRUE(r.complete());
  EXPECT_EQ(std::vector<uint8_t>(r.block().begin(), r.block().end()), block);
  EXPECT_EQ(r.add(3, frag(0, 10, 9'500, 0), std::span(block).first(1000), kNow).outcome, Outcome::duplicate);
}

TEST(FragmentReassembly, RefusesBadFragmentsByReason) {
  FragmentReassembly r(4096, 8);
  const std::vector<uint8_t> bytes(512, 0x5a);
  const auto reason = [&](const FragmentHeader& f, std::size_t length) {
    const auto result = r.add(1, f, std::span(bytes).first(length), kNow);
    EXPECT_EQ(result.outcome, Outcome::rejected);
    return result.reason;
  };
  EXPECT_EQ(reason(frag(0, 9, 4096, 0), 512), R::fragment_count_over_cap);
  EXPECT_EQ(reason(frag(8, 8, 4096, 0), 512), R::fragment_id_out_of_range);
  EXPECT_EQ(reason(frag(0, 0, 4096, 0), 512), R::fragment_id_out_of_range);
  EXPECT_EQ(reason(frag(0, 8, 4096, 0), 0), R::fragment_empty);
  EXPECT_EQ(reason(frag(0, 8, 4097, 0), 512), R::block_too_large);
  EXPECT_EQ(reason(frag(0, 8, 0, 0), 512), R::block_too_large);
  EXPECT_EQ(reason(frag(7, 8, 4096, 3600), 512), R::fragment_overflows_block);
  EXPECT_EQ(reason(frag(7, 8, 4096, 0xffffff00u), 512), R::fragment_overflows_block);  // no wrap-around
  EXPECT_FALSE(r.active()) << "refused fragments never open a set";

  ASSERT_EQ(r.add(1, frag(2, 8, 4096, 1024), bytes, kNow).outcome, Outcome::stored);
  EXPECT_EQ(reason(frag(3, 8, 4096, 1500), 512), R::fragment_overlap);   // starts inside fragment 2
  EXPECT_EQ(reason(frag(1, 8, 4096, 600), 512), R::fragment_overlap);    // runs into fragment 2
  EXPECT_EQ(reason(frag(5, 8, 4096, 1024), 512), R::fragment_overlap);   // out of index order
  EXPECT_EQ(reason(frag(2, 8, 4096, 1100), 512), R::fragment_set_mismatch);  // same index, other place
  EXPECT_EQ(reason(frag(3, 7, 4096, 2048), 512), R::fragment_set_mismatch);  // other count
  EXPECT_EQ(reason(frag(3, 8, 4000, 2048), 512), R::fragment_set_mismatch);  // other block size
  const auto busy = r.add(2, frag(0, 8, 4096, 0), bytes, kNow);
  EXPECT_EQ(busy.reason, R::fragment_set_busy);
  EXPECT_TRUE(r.active());
  EXPECT_EQ(r.message_id(), 1);
}

TEST(FragmentReassembly, ASetThatCannotCoverItsBlockIsBroken) {
  FragmentReassembly r(4096, 8);
  const std::vector<uint8_t> bytes(100, 1);
  ASSERT_EQ(r.add(4, frag(0, 2, 1000, 0), bytes, kNow).outcome, Outcome::stored);
  const auto result = r.add(4, frag(1, 2, 1000, 500), bytes, kNow);  // leaves a gap at 100..500
  EXPECT_EQ(result.outcome, Outcome::broken);
  EXPECT_EQ(result.reason, R::fragment_set_gap);
  EXPECT_FALSE(r.active());
}

}  // namespace
}  // namespace tickwire

// The ten-minute (simulated) reliability soaks: the quick runs' scenario run ten times longer, so
// rarer interleavings of loss, duplication, reordering, blocks and full queues come round.
// (Sequence and message id wrap-around is covered by the quick unit tests.) Label `soak`.
#include <gtest/gtest.h>

#include "../reliable_soak.h"
#include "support.h"

namespace tickwire {
namespace {

class ReliableSoak : public ::testing::TestWithParam<std::size_t> {};

TEST_P(ReliableSoak, TenMinutesExactlyOnceInOrderWithBoundedMemory) {
  const test::SoakProfile profile = test::soak_profiles()[GetParam()];
  const uint64_t delivered = test::run_reliable_soak(profile, Duration::seconds(600), Duration::seconds(180), test::test_seed(200 + GetParam()));
  EXPECT_GT(delivered, 1000u) << "a soak that delivers almost nothing proves nothing";
}

INSTANTIATE_TEST_SUITE_P(Profiles, ReliableSoak, ::testing::Values(0, 1, 2),
                         [](const auto& p) { return test::soak_profiles()[p.param].name; });

}  // namespace
}  // namespace tickwire

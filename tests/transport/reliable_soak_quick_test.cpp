// Short runs of the three reliability soaks (the 10-minute runs live under soak/): random-sized
// reliable messages and blocks both ways over SimNetwork, exactly once, in order, byte for byte.
#include <gtest/gtest.h>

#include "reliable_soak.h"
#include "support.h"

namespace tickwire {
namespace {

class ReliableSoakQuick : public ::testing::TestWithParam<std::size_t> {};

TEST_P(ReliableSoakQuick, ExactlyOnceInOrderWithBoundedMemory) {
  const test::SoakProfile profile = test::soak_profiles()[GetParam()];
  const uint64_t delivered = test::run_reliable_soak(profile, Duration::seconds(60), Duration::seconds(120), test::test_seed(100 + GetParam()));
  EXPECT_GT(delivered, 1000u) << "a soak that delivers almost nothing proves nothing";
}

INSTANTIATE_TEST_SUITE_P(Profiles, ReliableSoakQuick, ::testing::Values(0, 1, 2),
                         [](const auto& p) { return test::soak_profiles()[p.param].name; });

}  // namespace
}  // namespace tickwire

// Crash recovery, soak: a hundred kill -9 trials of a busy durable room on each backend and each
// way of journaling (in-lane, canonical.v1; behind the cadence, kernel.v1). Nothing acknowledged is
// lost (crash_trials.h prints the figures).
#include <gtest/gtest.h>

#include "../crash_trials.h"

namespace tickwire::durable {
namespace {

using namespace tickwire::durable::test_support;

class CrashRecoverySoak : public ::testing::TestWithParam<std::tuple<std::string, std::string>> {};

TEST_P(CrashRecoverySoak, AHundredKillsLoseNothingAcknowledged) {
  const auto& [backend, epoch] = GetParam();
  const CrashFigures f = run_crash_trials(backend, epoch, 100, test::test_seed(2131));
  EXPECT_EQ(f.trials, 100u);
  EXPECT_EQ(f.lost, 0u);
  EXPECT_GT(f.edits_acked, 0u);
  EXPECT_GT(f.chunks_acked, 0u);
}

INSTANTIATE_TEST_SUITE_P(Backends, CrashRecoverySoak,
                         ::testing::Combine(::testing::Values("sqlite", "postgresql"), ::testing::Values("kernel", "canonical")),
                         [](const auto& param_info) { return std::get<0>(param_info.param) + "_" + std::get<1>(param_info.param); });

}  // namespace
}  // namespace tickwire::durable

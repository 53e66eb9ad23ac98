// Crash recovery, quick: ten kill -9 trials of a busy durable room on each backend, at kernel.v1
// (the journal behind the cadence: the case where an acknowledgement waits for the disk), and five
// in-lane (canonical.v1); nothing acknowledged is lost (crash_trials.h). The hundred-trial runs are
// the soak label's (soak/crash_recovery_soak_test.cpp).
#include <gtest/gtest.h>

#include "crash_trials.h"

namespace tickwire::durable {
namespace {

using namespace tickwire::durable::test_support;

class CrashRecovery : public ::testing::TestWithParam<std::string> {};

TEST_P(CrashRecovery, NothingAcknowledgedIsLostToAKillBehindTheCadence) {
  const CrashFigures f = run_crash_trials(GetParam(), "kernel", 10, test::test_seed(2121));
  EXPECT_EQ(f.trials, 10u);
  EXPECT_EQ(f.lost, 0u);
  EXPECT_GT(f.edits_acked, 0u);
  EXPECT_GT(f.chunks_acked, 0u);
}

TEST_P(CrashRecovery, NothingAcknowledgedIsLostToAKillInLane) {
  const CrashFigures f = run_crash_trials(GetParam(), "canonical", 5, test::test_seed(2122));
  EXPECT_EQ(f.trials, 5u);
  EXPECT_EQ(f.lost, 0u);
  EXPECT_GT(f.edits_acked, 0u);
}

INSTANTIATE_TEST_SUITE_P(Backends, CrashRecovery, ::testing::Values("sqlite", "postgresql"),
                         [](const auto& param_info) { return param_info.param; });

}  // namespace
}  // namespace tickwire::durable

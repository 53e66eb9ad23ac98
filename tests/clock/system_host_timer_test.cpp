// The real host timer: its clock never runs backwards and a sleep never returns before it was due.
#include "tickwire/clock/system_host_timer.h"

#include <gtest/gtest.h>

namespace tickwire {
namespace {

TEST(SystemHostTimer, ClockIsMonotonicAndSleepsAtLeastTheRequest) {
  SystemHostTimer host;
  MonoTime previous = host.now();
  for (int i = 0; i < 1000; ++i) {
    const MonoTime t = host.now();
    ASSERT_GE(t, previous);
    previous = t;
  }
  const MonoTime before = host.now();
  host.sleep(Duration::milliseconds(2));
  EXPECT_GE(host.now() - before, Duration::milliseconds(2));
  host.sleep(Duration{});  // a zero request returns
  host.pause();
}

}  // namespace
}  // namespace tickwire

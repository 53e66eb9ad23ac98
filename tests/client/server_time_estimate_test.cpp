// The client's reading of the server's clock in a server-time room: a snapshot's time plus half the
// round trip; a late snapshot (jitter) does not pull it back, a faster path raises it at once, and
// an unconfirmed reading sags by the stated rate.
#include "tickwire/client/server_time_estimate.h"

#include <gtest/gtest.h>

namespace tickwire {
namespace {

MonoTime at_ms(int64_t ms) { return MonoTime() + Duration::milliseconds(ms); }

TEST(ServerTimeEstimate, ASnapshotReadsItsTimePlusHalfTheRoundTrip) {
  ServerTimeEstimate clock;
  EXPECT_FALSE(clock.ready());
  EXPECT_EQ(clock.at(at_ms(5)), 0u);
  clock.on_snapshot(2'000'000, Duration::milliseconds(40), at_ms(10'000));
  EXPECT_TRUE(clock.ready());
  EXPECT_EQ(clock.at(at_ms(10'000)), 2'020'000u);
  EXPECT_EQ(clock.at(at_ms(10'500)), 2'520'000u);  // runs with the local clock between snapshots
}

TEST(ServerTimeEstimate, ALateSnapshotDoesNotPullItBackAndAFastOneRaisesIt) {
  ServerTimeEstimate clock;
  clock.on_snapshot(1'000'000, Duration::milliseconds(40), at_ms(1'000));
  // 33 ms later the next snapshot, held up 15 ms by jitter: it reads 15 ms low.
  clock.on_snapshot(1'033'333, Duration::milliseconds(40), at_ms(1'048));
  const uint64_t expected = 1'020'000 + 48'000;
  EXPECT_NEAR(static_cast<double>(clock.at(at_ms(1'048))), static_cast<double>(expected), 200.0);  // sagged < 0.1 ms
  // One that came 5 ms faster than the first: the estimate rises to it.
  clock.on_snapshot(1'100'000, Duration::milliseconds(40), at_ms(1'095));
  EXPECT_EQ(clock.at(at_ms(1'095)), 1'120'000u);
}

TEST(ServerTimeEstimate, AnUnconfirmedReadingSagsAtTheStatedRate) {
  ServerTimeEstimate clock;
  clock.on_snapshot(0, Duration(), at_ms(0));
  // Ten seconds on, every snapshot reads 50 ms low (a path that got longer): the estimate has
  // given up 20 ms of its old reading, no more.
  clock.on_snapshot(9'950'000, Duration(), at_ms(10'000));
  EXPECT_EQ(clock.at(at_ms(10'000)), 10'000'000u - 20'000u);
  clock.reset();
  EXPECT_FALSE(clock.ready());
}

}  // namespace
}  // namespace tickwire

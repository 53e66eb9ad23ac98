// Counters an operator reads must mean something: over half a minute (about 1,800 packets each way,
// past the 1,024 ack notices an endpoint queues), neither the server nor its client counts
// transport.ack_queue_full, because neither stack reads the notices and both turn them off.
#include <gtest/gtest.h>

#include <string>

#include "facade_sim.h"
#include "support.h"
#include "test_simulation.h"

namespace tickwire {
namespace {

using namespace tickwire::test;

TEST(AckNotices, AServerAndItsClientCountNoAckQueueOverflowOverHalfAMinute) {
  const uint64_t seed = test_seed(0xacc);
  TestSimulation game;
  FacadeSim sim(seed, test_room_policy(), game);
  sim.add_client(test_vocabulary(), nullptr, {});
  sim.run_for(Duration::seconds(30));
  ASSERT_TRUE(sim.all_playing()) << "seed " << seed;
  for (const ReasonCount& r : sim.server->stats().reasons) {
    EXPECT_EQ(r.name.find("ack_queue_full"), std::string::npos) << r.name << " " << r.count;
  }
  for (const ReasonCount& r : sim.peers[0]->client->stats().reasons) {
    EXPECT_EQ(r.name.find("ack_queue_full"), std::string::npos) << r.name << " " << r.count;
  }
}

}  // namespace
}  // namespace tickwire

// The owner id space (core/owner_id.h, seed 002's NetOwnerID at 10 bits): a Server opens with a
// room's 1,023 client slots and refuses one more by name. (A room serving owner ids past a byte end
// to end: tests/apps/bench_command_test.cpp's 300-client room.)
#include <gtest/gtest.h>

#include "game_sim.h"
#include "support.h"

namespace tickwire {
namespace {

using namespace tickwire::test;

TEST(OwnerSpace, AServerOpensWithARoomsSlotsAndRefusesOneMore) {
  test::TestSimulation game;
  SimServerSetup setup;
  setup.config.max_clients = kRoomMaxSessions + 1;
  const ServerOpen refused = Server::open(setup.config, game);
  EXPECT_FALSE(refused);
  EXPECT_EQ(refused.error, "max_clients must be 1..1023");
  setup.config.max_clients = kRoomMaxSessions;
  const ServerOpen opened = Server::open(setup.config, game);
  ASSERT_TRUE(opened) << opened.error;
}

}  // namespace
}  // namespace tickwire

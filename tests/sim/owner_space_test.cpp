// The owner id space (core/owner_id.h, seed 002's NetOwnerID at 10 bits): a Server opens with a
// room's 1,023 client slots and refuses one more by name, and its calls that name an owner refuse
// one past the space. (A room serving owner ids past a byte end
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
  // The facade's calls that name an owner take any u16: one past the space names nobody.
  for (const OwnerId stray : {OwnerId{kOwnerIdCount}, OwnerId{0xFFFF}, kMaxClientOwner}) {
    opened.server->inspect_snapshots(stray, true);
    EXPECT_FALSE(opened.server->snapshot_inspection(stray).has_value()) << stray;
    const uint8_t payload[1] = {1};
    EXPECT_FALSE(opened.server->send(stray, kFirstGameMessageType, payload)) << stray;
  }
}

}  // namespace
}  // namespace tickwire

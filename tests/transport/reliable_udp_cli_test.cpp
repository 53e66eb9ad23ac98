// The exactly-once check through the real `tickwire conditioner` process: the test spawns the CLI
// binary on a free loopback port with loss and duplicates, connects clients through it to a server
// in this process, and checks every reliable message and block. The child is always stopped.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "child_process.h"
#include "reliable_udp_world.h"
#include "support.h"

#ifndef TICKWIRE_CLI_PATH
#error "tests/CMakeLists.txt passes the tickwire binary's path as TICKWIRE_CLI_PATH"
#endif

namespace tickwire {
namespace {

using namespace tickwire::test;

// A loopback UDP port that was free a moment ago (bound, read, released).
uint16_t free_udp_port() {
  auto probe = UdpSocket::open(Address::ipv4(127, 0, 0, 1, 0));
  TW_ASSERT(probe, "probe socket on loopback");
  return probe.socket->local_address().port();
}

TEST(ReliableUdpCli, ExactlyOnceThroughConditionerProcess) {
  const uint64_t seed = test_seed(77);
  std::printf("seed %llu\n", static_cast<unsigned long long>(seed));
  ReliableUdpWorld w;
  const Address server_address = w.open_server_socket();
  const Address listen = Address::ipv4(127, 0, 0, 1, free_udp_port());
  ChildProcess conditioner;
  ASSERT_TRUE(conditioner.spawn(TICKWIRE_CLI_PATH, {"conditioner", "--listen", listen.to_string(), "--forward",
                                                    server_address.to_string(), "--loss", "0.05", "--dup", "0.05",
                                                    "--seed", "7", "--seconds", "20"}))
      << TICKWIRE_CLI_PATH;
  ASSERT_TRUE(conditioner.wait_for_output("->", 10'000)) << "conditioner did not start: " << conditioner.output();
  w.start(listen, 2, seed, 1);
  run_reliable_udp_exchange(w, 400, Duration::seconds(12));
  conditioner.stop();
  std::printf("%s", conditioner.output().c_str());
}

}  // namespace
}  // namespace tickwire

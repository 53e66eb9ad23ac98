// The reliability layer inside netcode payloads over real UDP on loopback, through the in-process
// LinkConditioner (real sockets, its step function on the real clock) set to 10% loss, duplicates
// and reordering: every reliable message and block arrives exactly once, in order, byte for byte.
#include <gtest/gtest.h>

#include <cstdio>

#include "reliable_udp_world.h"
#include "support.h"
#include "tickwire/transport/link_conditioner.h"

namespace tickwire {
namespace {

using namespace tickwire::test;

LinkModel lossy_link() {
  LinkModel m;
  m.latency_ms = 2.0;
  m.jitter_ms = 1.0;
  m.loss = 0.10;
  m.duplicate = 0.10;
  m.reorder = 0.05;
  m.reorder_delay_ms = 10.0;
  return m;
}

TEST(ReliableUdpConditioner, ExactlyOnceThroughLossDuplicatesAndReordering) {
  const uint64_t seed = test_seed(4242);
  std::printf("seed %llu\n", static_cast<unsigned long long>(seed));
  ReliableUdpWorld w;
  const Address server_address = w.open_server_socket();
  auto listen = UdpSocket::open(Address::ipv4(127, 0, 0, 1, 0));
  ASSERT_TRUE(listen) << listen.message;
  ConditionerConfig config;
  config.forward = server_address;
  config.to_server = lossy_link();
  config.to_client = lossy_link();
  config.seed = seed;
  LinkConditioner conditioner(config, *listen.socket, []() -> std::unique_ptr<DatagramSocket> {
    return std::move(UdpSocket::open(Address::ipv4(127, 0, 0, 1, 0)).socket);
  });
  w.relay = [&conditioner](MonoTime now) { conditioner.step(now); };
  w.start(listen.socket->local_address(), 3, seed, 2);
  run_reliable_udp_exchange(w, 600, Duration::seconds(20));
  const ConditionerStats& s = conditioner.stats();
  std::printf("[ udp ] conditioner: from_clients %llu to_server %llu from_server %llu to_clients %llu duplicated %llu lost %llu\n",
              static_cast<unsigned long long>(s.from_clients), static_cast<unsigned long long>(s.to_server),
              static_cast<unsigned long long>(s.from_server), static_cast<unsigned long long>(s.to_clients),
              static_cast<unsigned long long>(s.duplicated), static_cast<unsigned long long>(s.dropped[ConditionerDrop::loss]));
  // The bad link really was in the path.
  EXPECT_GT(s.dropped[ConditionerDrop::loss], 0u);
  EXPECT_GT(s.duplicated, 0u);
  EXPECT_EQ(s.sessions_opened, 3u);
}

}  // namespace
}  // namespace tickwire

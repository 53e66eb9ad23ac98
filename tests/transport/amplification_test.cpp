// Amplification: 100k connection requests whose source addresses belong to victims that never
// asked for anything (valid tokens, a token replayed across victims, invalid tokens, garbage of
// every size). The server must never send a victim more bytes than it received "from" it, counted
// on the wire over the whole run including everything sent later (there are no resends).
#include <gtest/gtest.h>

#include <cstdio>

#include "netcode_test_support.h"
#include "support.h"
#include "tickwire/core/rng.h"
#include "tickwire/transport/netcode_packet.h"

namespace tickwire {
namespace {

using namespace tickwire::test;

// One request "from" victim v: its own valid token (repeated on later picks), one token shared by
// every victim, a tampered token, or garbage of any size and prefix.
std::vector<uint8_t> forged_request(Rng& rng, const netcode::Key& key, uint32_t v,
                                    std::vector<std::vector<uint8_t>>& own_request, const std::vector<uint8_t>& shared,
                                    WallTime wall) {
  switch (rng.below(4)) {
    case 0:
      if (own_request[v].empty()) own_request[v] = request_bytes(mint_token(key, 10 + v, {server_address()}, wall));
      return own_request[v];
    case 1:
      return shared;
    case 2: {
      auto bytes = shared;
      bytes[100 + rng.below(900)] ^= 0x20;
      return bytes;
    }
    default: {
      std::vector<uint8_t> bytes(1 + rng.below(netcode::kMaxPacketBytes));
      for (auto& b : bytes) b = static_cast<uint8_t>(rng.next_u32());
      return bytes;
    }
  }
}

TEST(Amplification, ForgedSourcesNeverReceiveMoreThanTheySent) {
  const uint64_t seed = test_seed(7);
  SimWorld world(seed);
  Rng rng(seed);
  const netcode::Key key = fixed_key(17);
  auto server_socket = world.net.bind(server_address());
  NetcodeServer server(*server_socket, server_config(key, server_address(), 64));
  server.start(world.now);

  constexpr uint32_t kVictims = 10'000;
  constexpr uint32_t kRequests = 100'000;
  std::vector<std::unique_ptr<SimSocket>> victims;
  std::vector<std::vector<uint8_t>> own_request(kVictims);
  for (uint32_t i = 0; i < kVictims; ++i) {
    victims.push_back(world.net.bind(Address::ipv4(172, 16, static_cast<uint8_t>(i >> 8), static_cast<uint8_t>(i), 9)));
  }
  const auto shared = request_bytes(mint_token(key, 1, {server_address()}, world.wall()));
  std::vector<Datagram> sink(64);

  uint32_t sent = 0;
  while (sent < kRequests) {
    for (uint32_t k = 0; k < 2000 && sent < kRequests; ++k, ++sent) {
      const uint32_t v = static_cast<uint32_t>(rng.below(kVictims));
      const auto bytes = forged_request(rng, key, v, own_request, shared, world.wall());
      ASSERT_TRUE(victims[v]->send(server_address(), bytes));
    }
    step_all(world, &server, {});
  }
  // Keep the server running past every handshake timeout: anything it would send later counts.
  run_until(world, &server, {}, Duration::seconds(6), [] { return false; });

  uint64_t bytes_in = 0, bytes_out = 0, datagrams_out = 0;
  double worst = 0.0;
  for (uint32_t i = 0; i < kVictims; ++i) {
    const Address a = victims[i]->local_address();
    const auto in = world.wire.between(a, server_address());
    const auto out = world.wire.between(server_address(), a);
    bytes_in += in.bytes;
    bytes_out += out.bytes;
    datagrams_out += out.datagrams;
    ASSERT_LE(out.bytes, in.bytes) << "victim " << a.to_string();
    if (in.bytes > 0) worst = std::max(worst, static_cast<double>(out.bytes) / static_cast<double>(in.bytes));
  }
  EXPECT_EQ(server.connected_clients(), 0u);
  EXPECT_GT(datagrams_out, 0u);  // valid tokens were challenged: the ratio is measured, not vacuous
  const double ratio = static_cast<double>(bytes_out) / static_cast<double>(bytes_in);
  std::printf("seed=%llu amplification: %u requests from %u forged sources, %llu bytes in, %llu bytes out "
              "(%llu datagrams): ratio %.4f overall, worst source %.4f\n",
              static_cast<unsigned long long>(seed), kRequests, kVictims, static_cast<unsigned long long>(bytes_in),
              static_cast<unsigned long long>(bytes_out), static_cast<unsigned long long>(datagrams_out), ratio, worst);
  EXPECT_LE(ratio, 1.0);
  EXPECT_LE(worst, 1.0);
}

}  // namespace
}  // namespace tickwire

// Shared pieces of the netcode tests: a fixed wall-clock anchor, token minting for a server
// address, a SimNetwork world that steps a server and clients on one virtual clock, and a wire
// log (from the network's wiretap) that counts bytes per direction.
#pragma once

#include <map>
#include <span>
#include <memory>
#include <utility>
#include <vector>

#include "tickwire/clock/host_timer.h"
#include "tickwire/clock/time.h"
#include "tickwire/transport/connect_token.h"
#include "tickwire/transport/netcode_client.h"
#include "tickwire/transport/netcode_packet.h"
#include "tickwire/transport/netcode_server.h"
#include "tickwire/transport/sim_network.h"

namespace tickwire::test {

// 2023-11-14T22:13:20Z at simulated time zero.
inline constexpr TimeAnchor kAnchor{MonoTime::from_ns(0), WallTime::from_ns(1'700'000'000'000'000'000)};

inline netcode::Key fixed_key(uint8_t seed) {
  netcode::Key key;
  for (std::size_t i = 0; i < key.size(); ++i) key[i] = static_cast<uint8_t>(seed * 31 + i * 7 + 1);
  return key;
}

inline netcode::ConnectToken mint_token(const netcode::Key& private_key, uint64_t client_id,
                                        std::vector<Address> servers, WallTime wall, int32_t timeout_s = 5,
                                        uint64_t expire_s = 30,
                                        uint64_t protocol_id = netcode::kDefaultProtocolId) {
  netcode::ConnectTokenParams params;
  params.protocol_id = protocol_id;
  params.client_id = client_id;
  for (const Address& a : servers) params.server_addresses.add(a);
  params.timeout_seconds = timeout_s;
  params.expire_seconds = expire_s;
  for (std::size_t i = 0; i < params.user_data.size(); ++i) {
    params.user_data[i] = static_cast<uint8_t>(client_id + i);
  }
  auto token = netcode::generate_connect_token(params, private_key, wall);
  TW_ASSERT(token.ok(), "test token minting");
  return std::move(token).value();
}

// Bytes and datagrams delivered per directed address pair.
struct WireLog {
  struct Count {
    uint64_t datagrams = 0;
    uint64_t bytes = 0;
  };
  std::map<std::pair<Address, Address>, Count> pairs;
  std::vector<std::pair<std::pair<Address, Address>, std::vector<uint8_t>>> recorded;  // when recording
  bool record = false;

  void on_delivery(const SimDelivery& d) {
    Count& c = pairs[{d.from, d.to}];
    ++c.datagrams;
    c.bytes += d.bytes.size();
    if (record) recorded.push_back({{d.from, d.to}, std::vector<uint8_t>(d.bytes.begin(), d.bytes.end())});
  }
  Count between(const Address& from, const Address& to) const {
    auto it = pairs.find({from, to});
    return it == pairs.end() ? Count{} : it->second;
  }
  Count from(const Address& a) const {
    Count total;
    for (const auto& [key, c] : pairs) {
      if (key.first == a) {
        total.datagrams += c.datagrams;
        total.bytes += c.bytes;
      }
    }
    return total;
  }
};

// A SimNetwork plus the virtual clock the server and clients step on.
struct SimWorld {
  explicit SimWorld(uint64_t seed) : net(seed) {
    net.set_wiretap([this](const SimDelivery& d) { wire.on_delivery(d); });
  }
  SimNetwork net;
  WireLog wire;
  MonoTime now = MonoTime::from_ns(0);
  WallTime wall() const { return kAnchor.to_wall(now); }
  void advance(Duration dt) {
    now += dt;
    net.advance_to(now);
  }
};

// The host timer of a process living on the simulated world's clock: now() is the world's, a sleep
// lets the world (and its network) run on, a pause steps it by a spin's quantum.
class WorldTimer final : public HostTimer {
 public:
  explicit WorldTimer(SimWorld& world) : world_(world) {}
  MonoTime now() override { return world_.now; }
  void sleep(Duration request) override {
    if (request > Duration{}) world_.advance(request);
  }
  void pause() override { world_.advance(Duration::microseconds(20)); }

 private:
  SimWorld& world_;
};

// One step of a whole system: the network delivers what is due, then everyone updates.
inline void step_all(SimWorld& world, NetcodeServer* server, std::span<NetcodeClient* const> clients,
                     Duration dt = Duration::milliseconds(10)) {
  world.advance(dt);
  if (server != nullptr) server->update(world.now, world.wall());
  for (NetcodeClient* c : clients) c->update(world.now);
}

// Steps until `done()` or `limit` of simulated time passes; returns whether done() became true.
template <class Done>
bool run_until(SimWorld& world, NetcodeServer* server, std::span<NetcodeClient* const> clients, Duration limit,
               Done done, Duration dt = Duration::milliseconds(10)) {
  const MonoTime end = world.now + limit;
  while (world.now < end) {
    if (done()) return true;
    step_all(world, server, clients, dt);
  }
  return done();
}

inline NetcodeServerConfig server_config(const netcode::Key& key, const Address& public_address,
                                         uint32_t max_clients = 16) {
  NetcodeServerConfig config;
  config.private_key = key;
  config.public_address = public_address;
  config.max_clients = max_clients;
  return config;
}

// The connection request packet a client would send for `token`.
inline std::vector<uint8_t> request_bytes(const netcode::ConnectToken& token) {
  netcode::ConnectionRequest request{token.protocol_id, token.expire_timestamp, token.nonce, token.private_data};
  std::vector<uint8_t> out(netcode::kConnectionRequestBytes);
  netcode::write_connection_request(request, out);
  return out;
}

inline Address server_address(uint16_t port = 40000) { return Address::ipv4(10, 0, 0, 1, port); }
inline Address client_address(uint32_t i) {
  return Address::ipv4(10, 1, static_cast<uint8_t>(i >> 8), static_cast<uint8_t>(i), 50000);
}

}  // namespace tickwire::test

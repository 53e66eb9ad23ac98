// Any game through the facades on the simulated network: one Server (its socket on the SimNetwork,
// its clock the world's) running the game's Simulation, and Clients (each on its own seeded link,
// framing at its own rate) built from a ClientConfig exactly as a game's client builds one. What the
// reference-game sims do for the reference game, for a game a test writes itself.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include "room_sim.h"
#include "tickwire/client.h"
#include "tickwire/server.h"

namespace tickwire::test {

struct FacadePeer {
  std::unique_ptr<SimSocket> socket;
  std::unique_ptr<Client> client;
  InputSource input;
  Duration frame_period;
  MonoTime next_frame;
};

class FacadeSim {
 public:
  FacadeSim(uint64_t seed, const RoomPolicy& policy, Simulation& game, uint32_t max_clients = 16)
      : world(seed),
        key(fixed_key(static_cast<uint8_t>(seed))),
        server_socket(world.net.bind(server_address())),
        timer(world),
        server(open_sim_server(policy, game, *server_socket, timer, world, key, max_clients)) {}

  // A client of `vocabulary` predicting with `model` (may be null), framing at `frame_hz`.
  FacadePeer& add_client(const GameVocabulary& vocabulary, const PredictionModel* model, InputSource input,
                         double frame_hz = 60.0, const LinkModel& up = steady_link(10), const LinkModel& down = steady_link(10)) {
    const uint32_t i = static_cast<uint32_t>(peers.size());
    const Address address = client_address(i);
    world.net.set_link(address, server_address(), up);
    world.net.set_link(server_address(), address, down);
    auto peer = std::make_unique<FacadePeer>();
    peer->socket = world.net.bind(address);
    ClientConfig config;
    config.server_address = server_address().to_string();
    config.dev_private_key = key;
    config.client_id = 5000 + i;
    config.vocabulary = vocabulary;
    config.model = model;
    config.socket = peer->socket.get();
    ClientOpen opened = Client::open(config, world.now, world.wall());
    TW_ASSERT(opened, "a facade sim client opens");
    peer->client = std::move(opened.client);
    peer->input = input ? std::move(input) : InputSource([](uint32_t) { return protocol::InputCmd{}; });
    peer->frame_period = Duration::from_seconds(1.0 / frame_hz);
    peer->next_frame = world.now;
    peers.push_back(std::move(peer));
    return *peers.back();
  }

  void run_for(Duration duration) {
    const MonoTime end = world.now + duration;
    while (world.now < end) {
      MonoTime next = std::min(end, server_wake_);
      for (const auto& p : peers) next = std::min(next, p->next_frame);
      if (next > world.now) world.advance(next - world.now);
      if (world.now >= server_wake_) {
        (void)server->update(world.now);
        server_wake_ = std::max(server->room().next_due(), world.now + Duration::microseconds(1));
      }
      for (const auto& p : peers) {
        if (world.now < p->next_frame) continue;
        p->client->frame(world.now, p->input);
        if (after_frame) after_frame(*p);
        p->next_frame = p->next_frame + p->frame_period;
      }
    }
  }

  bool all_playing() const {
    return std::all_of(peers.begin(), peers.end(),
                       [](const auto& p) { return p->client->status().phase == ClientPhase::playing; });
  }

  std::function<void(FacadePeer&)> after_frame;
  SimWorld world;
  netcode::Key key;
  std::unique_ptr<SimSocket> server_socket;
  WorldTimer timer;
  std::unique_ptr<Server> server;
  std::vector<std::unique_ptr<FacadePeer>> peers;

 private:
  MonoTime server_wake_;
};

// The count of `name` among a stats list's reasons (0 when absent).
inline uint64_t reason_count(const std::vector<ReasonCount>& reasons, std::string_view name) {
  for (const ReasonCount& r : reasons) {
    if (r.name == name) return r.count;
  }
  return 0;
}

}  // namespace tickwire::test

// The tiny game's client: connects to tiny_server with a connect token (minted here with the
// example's key, as a backend would), then plays for 10 s walking in a circle, predicting its dot
// and drawing the others on the server-tick timeline, and prints what it sees once a second.
#include <cmath>
#include <cstdio>

#include "tickwire/client/game_client.h"
#include "tickwire/clock/system_clock.h"
#include "tickwire/clock/system_host_timer.h"
#include "tickwire/protocol/wire_messages.h"
#include "tickwire/transport/connect_token.h"
#include "tickwire/transport/udp_socket.h"
#include "tiny_game.h"

int main() {
  using namespace tickwire;
  UdpOpenResult socket = UdpSocket::open(Address::ipv4(127, 0, 0, 1, 0));
  if (!socket) {
    std::fprintf(stderr, "tiny_client: %s\n", socket.message.c_str());
    return 2;
  }
  NetcodeClient netcode(*socket.socket);
  ReliableClient reliable(netcode, session_endpoint_config());
  SchemaCache schemas(protocol::protocol_messages().schema_text());
  const tiny::DotModel model;
  SystemHostTimer timer;
  const MonoTime start = timer.now();
  GameClient client(reliable, schemas, start, &model);

  netcode::ConnectTokenParams token;
  token.client_id = 1 + static_cast<uint64_t>(start.ns() % 1'000'000);
  token.server_addresses.add(Address::ipv4(127, 0, 0, 1, tiny::kPort));
  auto minted = netcode::generate_connect_token(token, tiny::demo_key(), wall_now());
  if (!minted.ok()) return 2;
  netcode.connect(minted.value(), start);

  // The player: walk in a circle.
  const InputSource walk_in_a_circle = [](uint32_t sequence) {
    protocol::InputCmd cmd;
    cmd.move_x = static_cast<float>(std::cos(sequence * 0.02));
    cmd.move_y = static_cast<float>(std::sin(sequence * 0.02));
    return cmd;
  };
  double next_print_s = 1.0;
  while ((timer.now() - start).seconds_f() < 10.0) {
    const MonoTime now = timer.now();
    client.frame(now, walk_in_a_circle);
    if ((now - start).seconds_f() >= next_print_s) {
      next_print_s += 1.0;
      if (!client.session().welcomed()) {
        std::printf("connecting...\n");
        continue;
      }
      const protocol::Vec3 me = client.predictor()->drawn_position();
      std::printf("me (%.2f, %.2f), snapshots %llu, corrections %llu, %s\n", me.x, me.z,
                  static_cast<unsigned long long>(client.counters().snapshots),
                  static_cast<unsigned long long>(client.predictor()->stats().corrections),
                  client.interpolator()->overlay_line().c_str());
    }
    timer.sleep(Duration::milliseconds(10));
  }
  netcode.disconnect(timer.now());
  return 0;
}

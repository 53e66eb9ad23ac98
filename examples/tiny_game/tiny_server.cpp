// The tiny game's dedicated server: its Dots simulation in a tickwire room on UDP port 40100,
// paced at 60 Hz, until Ctrl-C (or --seconds N). Run tiny_client next to it.
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "tickwire/clock/system_clock.h"
#include "tickwire/clock/system_host_timer.h"
#include "tickwire/protocol/session_channels.h"
#include "tickwire/protocol/wire_messages.h"
#include "tickwire/server/room_loop.h"
#include "tickwire/transport/udp_socket.h"
#include "tiny_game.h"

namespace {
volatile std::sig_atomic_t g_stop = 0;
void stop(int) { g_stop = 1; }
}  // namespace

int main(int argc, char** argv) {
  using namespace tickwire;
  const double seconds = argc > 2 && std::strcmp(argv[1], "--seconds") == 0 ? std::atof(argv[2]) : 0.0;
  std::signal(SIGINT, stop);
  std::signal(SIGTERM, stop);

  // The network: a UDP socket, netcode 1.02 connections, the session's reliable/unreliable channels.
  UdpOpenResult socket = UdpSocket::open(Address::ipv4(127, 0, 0, 1, tiny::kPort));
  if (!socket) {
    std::fprintf(stderr, "tiny_server: %s\n", socket.message.c_str());
    return 2;
  }
  NetcodeServerConfig net_config;
  net_config.private_key = tiny::demo_key();
  net_config.max_clients = 8;
  NetcodeServer netcode(*socket.socket, net_config);
  ReliableServer reliable(netcode, session_endpoint_config());

  // The room: a contract from a policy, the game's simulation, the paced loop.
  RoomPolicy policy;
  policy.identity = {"tiny-room", "tiny-game", "local", "1", "example", "", ""};
  const ContractResolution contract = resolve_netcode_contract(policy);
  SystemHostTimer timer;
  const MonoTime start = timer.now();
  tiny::Dots game;
  Room room(RoomConfig{*contract.contract, start}, game);
  SchemaCache schemas(protocol::protocol_messages().schema_text());
  RoomServer server(reliable, room, schemas);
  RoomLoop loop(timer, server, TimeAnchor{start, wall_now()});
  netcode.start(start);
  std::printf("tiny_server: listening on 127.0.0.1:%u, contract %s\n", tiny::kPort, room.contract_hash().hex().c_str());

  while (g_stop == 0 && (seconds <= 0 || (timer.now() - start).seconds_f() < seconds)) {
    loop.run_once();
    if (room.last_tick().value() % 300 == 0 && room.session_count() > 0) {
      std::printf("tick %lld: %u players\n", static_cast<long long>(room.last_tick().value()), room.session_count());
    }
  }
  netcode.stop(timer.now());  // every client hears the disconnect
  return 0;
}

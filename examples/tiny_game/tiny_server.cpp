// The tiny game's dedicated server: its Dots simulation in a tickwire room on UDP port 40100 (or
// --port N; 0: any free port, printed), paced at 60 Hz, until Ctrl-C (or --seconds N). Run
// tiny_client next to it.
#include <csignal>
#include <cstdio>

#include "tickwire/clock/system_clock.h"
#include "tiny_game.h"

namespace {
volatile std::sig_atomic_t g_stop = 0;
void stop(int) { g_stop = 1; }
}  // namespace

int main(int argc, char** argv) {
  const double seconds = tiny::arg(argc, argv, "--seconds", 0.0);
  std::signal(SIGINT, stop);
  std::signal(SIGTERM, stop);

  tickwire::ServerConfig config;
  config.bind = "127.0.0.1:" + std::to_string(static_cast<int>(tiny::arg(argc, argv, "--port", tiny::kPort)));
  config.private_key = tiny::demo_key();
  config.max_clients = 8;
  config.policy.identity = {"tiny-room", "tiny-game", "local", "1", "example", "", ""};
  config.policy.vocabulary = tiny::vocabulary();
  config.policy.prediction = {tickwire::PawnBody::kinematic_controller, tickwire::MovementAuthority::client_predicted};
  tiny::Dots game;
  auto opened = tickwire::Server::open(config, game);
  if (!opened) return std::fprintf(stderr, "tiny_server: %s\n", opened.error.c_str()), 2;
  tickwire::Server& server = *opened.server;
  std::printf("tiny_server: listening on %s, contract %s\n", server.local_address().c_str(), server.contract_hash_hex().c_str());
  std::fflush(stdout);

  const tickwire::MonoTime start = tickwire::mono_now();
  while (g_stop == 0 && (seconds <= 0 || (tickwire::mono_now() - start).seconds_f() < seconds)) {
    const tickwire::ServerUpdate update = server.run_once();
    if (update.ticks_run > 0 && update.last_tick % 300 == 0 && server.stats().clients > 0) {
      std::printf("tick %lld: %u players\n", static_cast<long long>(update.last_tick), server.stats().clients);
      std::fflush(stdout);
    }
  }
  return 0;  // the server's destructor tells every client it stopped
}

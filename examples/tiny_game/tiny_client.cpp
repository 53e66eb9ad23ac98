// The tiny game's client: connects to tiny_server on --port (default 40100), minting its own
// connect token with the example's key, as only a development client may, then plays for
// --seconds (default 10) walking in a circle, predicting its dot and drawing the others on the
// server-tick timeline, and prints what it sees once a second. Exits 0 when it played, 1 when it never got into the room.
#include <cmath>
#include <cstdio>
#include <chrono>
#include <thread>

#include "tickwire/clock/system_clock.h"
#include "tiny_game.h"

int main(int argc, char** argv) {
  const double seconds = tiny::arg(argc, argv, "--seconds", 10.0);
  const tiny::DotModel model;
  tickwire::ClientConfig config;
  config.server_address = "127.0.0.1:" + std::to_string(static_cast<int>(tiny::arg(argc, argv, "--port", tiny::kPort)));
  config.dev_private_key = tiny::demo_key();
  config.client_id = 1 + static_cast<uint64_t>(tickwire::wall_now().ns() % 1'000'000);
  config.vocabulary = tiny::vocabulary();
  config.model = &model;
  const tickwire::MonoTime start = tickwire::mono_now();
  auto opened = tickwire::Client::open(config, start, tickwire::wall_now());
  if (!opened) return std::fprintf(stderr, "tiny_client: %s\n", opened.error.c_str()), 2;
  tickwire::Client& client = *opened.client;

  // The player: walk in a circle.
  const tickwire::InputSource walk_in_a_circle = [](uint32_t sequence) {
    tickwire::protocol::InputCmd cmd;
    cmd.move_x = static_cast<float>(std::cos(sequence * 0.02));
    cmd.move_y = static_cast<float>(std::sin(sequence * 0.02));
    return cmd;
  };
  double next_print_s = 1.0;
  bool played = false;
  while ((tickwire::mono_now() - start).seconds_f() < seconds) {
    const tickwire::MonoTime now = tickwire::mono_now();
    client.frame(now, walk_in_a_circle);
    const tickwire::ClientStatus status = client.status();
    if (status.phase == tickwire::ClientPhase::refused || status.phase == tickwire::ClientPhase::disconnected) {
      std::printf("tiny_client: %s\n", status.reason.c_str());
      break;
    }
    if ((now - start).seconds_f() >= next_print_s) {
      next_print_s += 1.0;
      if (status.phase != tickwire::ClientPhase::playing) {
        std::printf("connecting...\n");
      } else {
        played = true;
        const tickwire::protocol::Vec3 me = client.own_position();
        const tickwire::ClientStats stats = client.stats();
        std::printf("me (%.2f, %.2f), others %zu, snapshots %llu, corrections %llu\n", me.x, me.z,
                    client.remote_entities().size(), static_cast<unsigned long long>(stats.snapshots),
                    static_cast<unsigned long long>(stats.corrections));
      }
      std::fflush(stdout);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  client.disconnect(tickwire::mono_now());
  return played ? 0 : 1;
}

// A scripted room bench client (see room_bench_client.h).
#include "room_bench_client.h"

#include "tickwire/core/rng.h"
#include "tickwire/protocol/session_channels.h"
#include "tickwire/world/reference_vocabulary.h"

namespace tickwire::bench {
namespace {

SessionClientConfig reference_session() {
  SessionClientConfig config;
  config.vocabulary = world::reference_vocabulary();
  return config;
}

// Clients that join in one tick would run their scripts in step: a wandering crowd of a thousand
// turning on the same tick every 1.5 s, which no room of players does. Each script starts at its
// own point of a span longer than the wander's turn period and its strafe's sway.
constexpr uint64_t kScriptPhaseTicks = 360;

}  // namespace

RoomBenchClient::RoomBenchClient(std::unique_ptr<DatagramSocket> socket, SchemaCache& cache, uint64_t seed)
    : socket_(std::move(socket)),
      netcode_(*socket_),
      reliable_(netcode_, session_endpoint_config()),
      session_(reliable_, cache, reference_session()),
      brain_(world::BotBehaviour::wander, seed),
      script_phase_(static_cast<uint32_t>(Rng(~seed).below(kScriptPhaseTicks))) {}

void RoomBenchClient::connect(const netcode::ConnectToken& token, MonoTime now) { netcode_.connect(token, now); }

void RoomBenchClient::frame(MonoTime now) {
  session_.receive(now);
  std::size_t bytes = 0;
  while (session_.pop_snapshot(snapshot_, &bytes)) {
    ++snapshots_;
    snapshot_bytes_ += bytes;
    records_ += snapshot_.records.size();
  }
  if (session_.sending()) {
    if (session_.send_input(brain_.next(session_.inputs().next_sequence() + script_phase_))) ++inputs_sent_;
  }
  session_.send(now);
}

}  // namespace tickwire::bench

// The logged-in flood (issue 19): one connected client sends every message type a client has at a
// hundred times its legal rate (inputs, interactions, shots, scene edits, relays, pings, bodies that do not
// decode, messages a client never sends) beside honest wandering bots, and comes back each time it
// is kicked. Shared by the quick run (tests/sim/flood_test.cpp) and the minute-long soak.
#pragma once

#include <array>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "game_profiles.h"
#include "heap_in_use.h"
#include "tickwire/protocol/ping.h"
#include "tickwire/wire/codec.h"
#include "tickwire/wire/typed_channel.h"
#include "tickwire/world/reference_game.h"

namespace tickwire::test {

inline constexpr uint32_t kFloodTimesLegal = 100;

struct FloodFigures {
  double seconds = 0;
  std::vector<double> honest_snapshot_hz;       // each honest client's snapshots a second over the run
  std::vector<uint64_t> honest_corrections;     // each honest client's prediction corrections
  uint64_t flooder_sessions = 0;                // connections the flooder opened (one more per kick)
  uint64_t kicks = 0;
  double first_kick_after_s = -1;               // from the flood's start to the first kick
  std::size_t heap_at_warm_bytes = 0;           // bytes in use a tenth of the way in, and at the end
  std::size_t heap_at_end_bytes = 0;
  std::vector<ReasonCount> reasons;             // the server's
};

// A ping as a client's build would send it: laid out by hand (sequence u32, sentAtUs u64, isReply
// bool, little-endian), because GCC 12 misjudges the inlined encoder's buffer in this header and
// warns of an overflow that cannot happen; the layout is checked by decoding it back.
inline void send_ping(NetChannel& raw, uint32_t sequence) {
  std::array<uint8_t, 13> body{};
  for (int b = 0; b < 4; ++b) body[static_cast<std::size_t>(b)] = static_cast<uint8_t>(sequence >> (8 * b));
  protocol::Ping check;
  TW_ASSERT(wire::decode(body, check).ok() && check.sequence == sequence && !check.is_reply, "a ping's layout");
  (void)raw.send(kSessionUnreliableChannel, protocol::Ping::wire_id, body);
}

// One frame of the flooder: every message type at a hundred times its rate (a frame is ~1/144 s).
class Flooder {
 public:
  explicit Flooder(const NetcodeContract& contract, double frame_hz) {
    const double per_frame = kFloodTimesLegal / frame_hz;
    const auto at_rate = [&](double per_second) { return static_cast<uint32_t>(per_second * per_frame + 1); };
    inputs_ = at_rate(contract.cadence.tick_rate_hz);
    interactions_ = at_rate(contract.limits.interactions_per_second);
    fires_ = at_rate(contract.limits.fires_per_second);
    relays_ = at_rate(contract.limits.relays_per_second);
    pings_ = at_rate(contract.limits.pings_per_second);
    edits_ = at_rate(contract.limits.edits_per_second);
    edit_.field_edits = {protocol::FieldEdit{0, 1, "intensity", protocol::edit_numbers({1000})}};  // a lamp, brightened
  }

  void frame(SimGameClient& c) {
    SessionClient& session = c.client.session();
    ReliableEndpoint* endpoint = session.transport().endpoint();
    if (!session.sending() || endpoint == nullptr) return;
    NetChannel raw(*endpoint, session.welcome()->owner_id, kAuthorityOwner);  // what a hostile build sends
    // Inputs from a build of its own (its client's predictor never sees them): one new sequence
    // each, a frame apiece, a hundred times the tick rate.
    protocol::InputFrame inputs;
    inputs.inputs.resize(1);
    for (uint32_t i = 0; i < inputs_; ++i) {
      inputs.first_sequence = next_sequence_++;
      (void)wire::send_message(raw, kSessionUnreliableChannel, inputs);
    }
    for (uint32_t i = 0; i < interactions_; ++i) (void)c.facade->interact(world::map_object_ref(i % 8).raw(), 0);
    for (uint32_t i = 0; i < fires_; ++i) (void)c.facade->fire(c.facade->own_position(), {0, 0, 1});
    for (uint32_t i = 0; i < edits_; ++i) (void)c.facade->edit(edit_);  // no world authority: each refused whole
    const uint8_t game_payload[4] = {1, 2, 3, 4};
    for (uint32_t i = 0; i < relays_; ++i) (void)c.facade->send_to(static_cast<OwnerId>(1 + i % 3), kFirstGameMessageType, game_payload);
    for (uint32_t i = 0; i < pings_; ++i) send_ping(raw, i);
    const uint8_t garbage[3] = {0xff, 0xff, 0xff};
    (void)raw.send(kSessionReliableChannel, protocol::InteractRequest::wire_id, garbage);  // does not decode
    (void)raw.send(kSessionReliableChannel, protocol::HitEvent::wire_id, garbage);         // a server's message
    ++frames_;
  }
  uint64_t frames() const { return frames_; }

 private:
  uint32_t inputs_ = 0, interactions_ = 0, fires_ = 0, relays_ = 0, pings_ = 0, edits_ = 0;
  protocol::SceneEdit edit_;
  uint32_t next_sequence_ = 1'000'000;
  uint64_t frames_ = 0;
};

// Honest wandering bots (broadband unless told) and, unless `flood` is false, a flooder (client 0) that comes
// back as a new connection each time it is kicked. The same seed gives the honest bots the same
// inputs with or without it.
inline FloodFigures run_flood(uint64_t seed, uint32_t honest, Duration run, bool flood, const char* profile = "broadband") {
  GameSim sim(seed, GameSimConfig{}, honest + 1);
  GameClientSetup setup;
  setup.up = setup.down = *link_profile(profile);
  GameClientSetup flooder_setup = setup;
  flooder_setup.input = [](uint32_t) { return protocol::InputCmd{}; };
  sim.add_client(flooder_setup);
  for (uint32_t i = 0; i < honest; ++i) sim.add_client(setup);
  sim.run_for(Duration::seconds(2));
  // The harness's own per-input logs grow with the run (a vector doubling now and then: ~2% of the
  // heap a minute, in steps): held at their whole run's size up front, so the heap measures the game.
  const auto inputs = static_cast<std::size_t>((run.seconds_f() + 4.0) * sim.room.contract().cadence.tick_rate_hz * 1.25);
  for (auto& c : sim.clients) {
    c->produced_at.reserve(inputs);
    c->input_to_apply_ms.reserve(inputs);
  }
  FloodFigures out;
  Flooder flooder(sim.room.contract(), 144.0);
  const MonoTime start = sim.world.now;
  uint64_t next_id = 9000;
  out.flooder_sessions = 1;
  bool reopen = false;
  sim.after_frame = [&](SimGameClient& c) {
    if (!flood || &c != sim.clients[0].get()) return;
    if (c.facade->status().phase == ClientPhase::disconnected) {
      reopen = true;
      return;
    }
    flooder.frame(c);
  };
  std::vector<uint64_t> snapshots_before;
  for (std::size_t i = 1; i < sim.clients.size(); ++i) snapshots_before.push_back(sim.clients[i]->client.counters().snapshots);
  const Duration step = Duration::milliseconds(100);
  for (Duration elapsed; elapsed < run; elapsed = elapsed + step) {
    sim.run_for(step);
    if (reopen) {  // kicked: back as a new connection
      sim.reopen_client(0, next_id++);
      ++out.flooder_sessions;
      reopen = false;
    }
    const uint64_t kicks = sim.server.kicks().total();
    if (kicks > 0 && out.first_kick_after_s < 0) out.first_kick_after_s = (sim.world.now - start).seconds_f();
    if (out.heap_at_warm_bytes == 0 && elapsed >= Duration::from_seconds(run.seconds_f() / 10)) out.heap_at_warm_bytes = heap_in_use();
  }
  out.heap_at_end_bytes = heap_in_use();
  out.seconds = (sim.world.now - start).seconds_f();
  out.kicks = sim.server.kicks().total();
  for (std::size_t i = 1; i < sim.clients.size(); ++i) {
    const Client& c = *sim.clients[i]->facade;
    out.honest_snapshot_hz.push_back(static_cast<double>(sim.clients[i]->client.counters().snapshots - snapshots_before[i - 1]) / out.seconds);
    out.honest_corrections.push_back(c.stats().corrections);
  }
  out.reasons = sim.facade->stats().reasons;
  return out;
}

inline uint64_t reason_count(const FloodFigures& f, std::string_view name) {
  for (const ReasonCount& r : f.reasons)
    if (r.name == name) return r.count;
  return 0;
}

inline void print_flood(const char* label, const FloodFigures& f) {
  double min_hz = 1e9;
  uint64_t corrections = 0;
  for (double hz : f.honest_snapshot_hz) min_hz = std::min(min_hz, hz);
  for (uint64_t c : f.honest_corrections) corrections += c;
  std::printf("[ flood ] %s: %.0f s, %zu honest bots: slowest %.2f snapshots/s, corrections %llu; flooder sessions %llu, "
              "kicks %llu (first after %.3f s); heap %zu -> %zu bytes (%+.3f%%)\n",
              label, f.seconds, f.honest_snapshot_hz.size(), min_hz, static_cast<unsigned long long>(corrections),
              static_cast<unsigned long long>(f.flooder_sessions), static_cast<unsigned long long>(f.kicks),
              f.first_kick_after_s, f.heap_at_warm_bytes, f.heap_at_end_bytes,
              f.heap_at_warm_bytes == 0 ? 0.0
                                        : 100.0 * (static_cast<double>(f.heap_at_end_bytes) - static_cast<double>(f.heap_at_warm_bytes)) /
                                              static_cast<double>(f.heap_at_warm_bytes));
  for (const ReasonCount& r : f.reasons)
    if (r.name.rfind("offence.", 0) == 0 || r.name.rfind("kick.", 0) == 0) std::printf("    %s %llu\n", r.name.c_str(), static_cast<unsigned long long>(r.count));
  std::fflush(stdout);
}

// The honest bots alone, then beside the flooder, from one seed; both printed.
struct FloodPair {
  FloodFigures alone;
  FloodFigures flooded;
};
inline FloodPair run_flood_pair(uint64_t seed, uint32_t honest, Duration run) {
  FloodPair pair{run_flood(seed, honest, run, false), run_flood(seed, honest, run, true)};
  print_flood("honest alone", pair.alone);
  print_flood("with a flooder", pair.flooded);
  return pair;
}

}  // namespace tickwire::test

// The swarm's configuration, all of it drawn from one seed (TigerBeetle's simulator's habit): each
// client's links both ways, frame rate, input and lifecycle, the room's tick and snapshot rates,
// its host's wakes, the map and the run's length. One line prints it, so a failing seed can be read
// from a log and replayed from the seed alone.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tickwire/clock/time.h"
#include "tickwire/core/rng.h"
#include "tickwire/transport/link_model.h"

namespace tickwire::test {

inline constexpr uint32_t kSwarmMaxClients = 24;  // clients a seed may seat over its run, joiners included
// A seed's estimated CPU (swarm_detail::cost_us_per_second, fitted to measured runs): the run is
// shortened, and past that the swarm thinned, until it fits, so a seed costs a few seconds at most.
inline constexpr double kSwarmCpuBudgetUs = 4'000'000.0;
inline constexpr double kSwarmMinRunSeconds = 6.0;
inline constexpr double kSwarmMaxRunSeconds = 30.0;
inline constexpr double kSwarmDrainSeconds = 4.0;  // the quiet end: no new relays, joins or departures
inline constexpr double kSwarmSettleSeconds = 4.0;  // the last new connection is at least this far before the quiet end

enum class SwarmMap : uint8_t { reference, flat };
enum class SwarmInput : uint8_t { wander, walk, idle, jumpy };
enum class SwarmLife : uint8_t {
  stays,        // in from the start to the end
  joins_late,   // connects at join_at, then stays
  leaves,       // says goodbye at event_at
  goes_silent,  // its process freezes at event_at for `away` (past the 10 s timeout: the server lets it go)
  rejoins,      // says goodbye at event_at, comes back as a new connection `away` later
  crashes,      // its process dies at event_at without a word; a new one joins at once from a new address
};

inline std::string_view swarm_name(SwarmMap map) { return map == SwarmMap::reference ? "reference" : "flat"; }
inline std::string_view swarm_name(SwarmInput input) {
  constexpr std::array<std::string_view, 4> names = {"wander", "walk", "idle", "jumpy"};
  return names[static_cast<std::size_t>(input)];
}
inline std::string_view swarm_name(SwarmLife life) {
  constexpr std::array<std::string_view, 6> names = {"stays", "joins", "leaves", "silent", "rejoins", "crashes"};
  return names[static_cast<std::size_t>(life)];
}

struct SwarmClient {
  LinkModel up;    // client -> server
  LinkModel down;  // server -> client
  double frame_hz = 60.0;
  double frame_jitter = 0.0;
  SwarmInput input = SwarmInput::wander;
  bool chatty = false;  // sends numbered reliable game messages to the others, through the server
  SwarmLife life = SwarmLife::stays;
  Duration join_at;   // joins_late: when it connects
  Duration event_at;  // leaves, goes_silent, rejoins, crashes: when
  Duration away;      // goes_silent: how long frozen; rejoins: the gap before it comes back
};

struct SwarmConfig {
  uint64_t seed = 0;
  SwarmMap map = SwarmMap::reference;
  uint32_t tick_rate_hz = 60;
  uint32_t snapshot_rate_hz = 60;  // the world lane's; a divisor of the tick rate
  double forgiveness = 1.0;
  uint32_t snapshot_budget_bytes = 0;  // 0: the contract's default (one message); more: snapshots may go in fragments
  // Entities of the swarm's own about the first spawn point, each jumping every tick (no delta
  // predicts them): a budget past one message then sends snapshots in fragments.
  uint32_t crowd_entities = 0;
  Duration server_wake_every;  // nonzero: the server's host oversleeps to multiples of this
  double server_pauses_per_second = 0;  // the server's host stops now and then (a collector, a busy host)...
  Duration server_pause_max;            // ...for up to this long (past the room clock's overload threshold)
  Duration pawn_hold;          // how long a departed player's pawn stays in the room
  Duration run;                // the eventful part
  Duration drain;              // then the quiet end
  std::vector<SwarmClient> clients;
};

namespace swarm_detail {

inline double uniform(Rng& rng, double lo, double hi) { return lo + (hi - lo) * rng.unit(); }

template <class T, std::size_t N>
T pick(Rng& rng, const std::array<T, N>& from) {
  return from[rng.below(N)];
}

// One direction of a client's path: a named profile a quarter of the time, else numbers drawn within
// what a player meets (latency 0-150 ms, loss 0-10%, a bottleneck now and then, a stall rarely).
inline LinkModel pick_link(Rng& rng) {
  if (rng.chance(0.25)) {
    constexpr std::array<std::string_view, 5> names = {"lan", "broadband", "transatlantic", "mobile-bad", "burst-host"};
    return *link_profile(pick(rng, names));
  }
  LinkModel link;
  link.latency_ms = static_cast<double>(rng.between(0, 150));
  if (rng.chance(0.7)) link.jitter_ms = uniform(rng, 0.0, std::min(30.0, link.latency_ms / 2 + 2));
  link.jitter_keeps_order = rng.chance(0.8);
  if (rng.chance(0.7)) link.loss = uniform(rng, 0.0, 0.10);
  if (rng.chance(0.3)) link.duplicate = uniform(rng, 0.0, 0.05);
  if (rng.chance(0.3)) {
    link.reorder = uniform(rng, 0.0, 0.05);
    link.reorder_delay_ms = static_cast<double>(rng.between(5, 60));
  }
  if (rng.chance(0.25)) link.rate_kbps = static_cast<uint32_t>(rng.between(512, 8000));
  if (rng.chance(0.15)) {
    link.stall_ms = static_cast<double>(rng.between(40, 300));
    link.stall_every_ms = static_cast<double>(rng.between(1000, 8000));
  }
  return link;
}

inline SwarmLife pick_life(Rng& rng) {
  const double r = rng.unit();
  if (r < 0.55) return SwarmLife::stays;
  if (r < 0.70) return SwarmLife::joins_late;
  if (r < 0.78) return SwarmLife::leaves;
  if (r < 0.86) return SwarmLife::goes_silent;
  if (r < 0.94) return SwarmLife::rejoins;
  return SwarmLife::crashes;
}

// A client's links, frames, input and lifecycle; its lifecycle's times come once the run's length is known.
inline SwarmClient pick_client(Rng& rng) {
  SwarmClient c;
  c.up = pick_link(rng);
  c.down = rng.chance(0.5) ? c.up : pick_link(rng);  // a symmetric path half the time
  constexpr std::array<double, 6> rates = {30.0, 60.0, 75.0, 120.0, 144.0, 240.0};
  c.frame_hz = pick(rng, rates);
  c.frame_jitter = rng.chance(0.8) ? uniform(rng, 0.0, 0.3) : 0.0;
  constexpr std::array<SwarmInput, 4> inputs = {SwarmInput::wander, SwarmInput::walk, SwarmInput::idle, SwarmInput::jumpy};
  c.input = pick(rng, inputs);
  c.chatty = rng.chance(0.4);
  c.life = pick_life(rng);
  return c;
}

// When a client's lifecycle events happen: all within the run, and every new connection (a join,
// a come-back, a crashed process's successor) at least kSwarmSettleSeconds before its end, so the
// quiet end measures a system that has settled (only a frozen process may wake in it).
inline void time_events(Rng& rng, SwarmClient& c, double run_s) {
  const double last_connect_s = std::max(0.5, run_s - kSwarmSettleSeconds);
  const auto at = [&](double lo_s, double hi_s) { return Duration::from_seconds(uniform(rng, lo_s, std::max(lo_s, hi_s))); };
  switch (c.life) {
    case SwarmLife::stays: break;
    case SwarmLife::joins_late: c.join_at = at(0.5, last_connect_s); break;
    case SwarmLife::leaves: c.event_at = at(1.0, run_s - 1.0); break;
    case SwarmLife::crashes: c.event_at = at(1.0, last_connect_s); break;
    case SwarmLife::goes_silent:
      c.event_at = at(1.0, run_s - 1.0);
      c.away = at(0.2, 14.0);  // past 10 s: the server times it out
      break;
    case SwarmLife::rejoins:
      c.event_at = at(1.0, last_connect_s - 0.1);
      c.away = at(0.1, std::min(3.0, last_connect_s - c.event_at.seconds_f()));
      break;
  }
}

// The CPU a second of the run costs, estimated in microseconds from a few hundred measured seeds:
// each client frame (prediction, interpolation of everyone) and, per tick, every client's snapshot
// of every other (replication grows with the square of the clients) and of the crowd. The reference
// map's objects, props and logic cost several times the flat map's.
inline constexpr double kCrowdEntityTickUs = 0.6;   // a crowd entity in one client's snapshot, once a tick
inline constexpr double kCrowdEntityFrameUs = 0.05;  // a crowd entity drawn in one client frame

inline double cost_us_per_second(const SwarmConfig& config) {
  const bool reference = config.map == SwarmMap::reference;
  const double frame_us = reference ? 40.0 : 5.0;
  const double pair_tick_us = reference ? 15.0 : 2.0;
  const auto n = static_cast<double>(config.clients.size());
  double frames_hz = 0;
  for (const SwarmClient& c : config.clients) frames_hz += c.frame_hz;
  const double crowd = config.crowd_entities;
  return frames_hz * (frame_us + crowd * kCrowdEntityFrameUs) +
         config.tick_rate_hz * n * (n * pair_tick_us + crowd * kCrowdEntityTickUs);
}

}  // namespace swarm_detail

// The whole configuration of a seed's run. Tick and snapshot rates are pairs the contract accepts
// for the reference game (the world lane at most three ticks apart: the interpolation buffer holds
// two intervals and the margin; swarm_test checks that each pair resolves).
inline SwarmConfig pick_swarm_config(uint64_t seed) {
  using namespace swarm_detail;
  Rng rng(seed ^ 0x5a4a12d5c0ffee11ull);
  SwarmConfig config;
  config.seed = seed;
  config.map = rng.chance(0.6) ? SwarmMap::reference : SwarmMap::flat;
  constexpr std::array<uint32_t, 4> tick_rates = {30, 60, 64, 120};
  config.tick_rate_hz = pick(rng, tick_rates);
  std::vector<uint32_t> divisors;
  for (uint32_t every = 1; every <= 3; ++every)
    if (config.tick_rate_hz % every == 0) divisors.push_back(every);
  config.snapshot_rate_hz = config.tick_rate_hz / divisors[rng.below(divisors.size())];
  constexpr std::array<double, 4> forgiveness = {1.0, 1.0, 0.5, 0.0};
  config.forgiveness = pick(rng, forgiveness);
  if (rng.chance(0.3)) config.snapshot_budget_bytes = static_cast<uint32_t>(rng.between(1200, 16000));
  if (rng.chance(config.snapshot_budget_bytes != 0 ? 0.6 : 0.1)) config.crowd_entities = static_cast<uint32_t>(rng.between(50, 400));
  if (rng.chance(0.2)) config.server_wake_every = Duration::milliseconds(rng.between(10, 120));
  if (rng.chance(0.25)) {
    config.server_pauses_per_second = uniform(rng, 0.05, 1.0);
    config.server_pause_max = Duration::milliseconds(rng.between(50, 1500));
  }
  if (rng.chance(0.3)) config.pawn_hold = Duration::milliseconds(rng.between(500, 5000));
  config.drain = Duration::from_seconds(kSwarmDrainSeconds);
  const auto clients = static_cast<uint32_t>(rng.chance(0.3) ? rng.between(1, 4) : rng.between(1, kSwarmMaxClients));
  for (uint32_t i = 0; i < clients; ++i) config.clients.push_back(pick_client(rng));
  // A few seconds of CPU at most: a big, fast swarm on the reference map is thinned until its
  // shortest run fits, then any run is shortened to fit.
  const auto fits_s = [&] { return kSwarmCpuBudgetUs / cost_us_per_second(config) - kSwarmDrainSeconds; };
  while (config.clients.size() > 1 && fits_s() < kSwarmMinRunSeconds) config.clients.pop_back();
  const double run_s = std::clamp(uniform(rng, kSwarmMinRunSeconds, kSwarmMaxRunSeconds), kSwarmMinRunSeconds,
                                  std::max(kSwarmMinRunSeconds, fits_s()));
  for (SwarmClient& c : config.clients) time_events(rng, c, run_s);
  config.run = Duration::from_seconds(run_s);
  return config;
}

inline std::string describe_link(const LinkModel& l) {
  std::string out = fmt::format("{:.0f}+-{:.0f}ms", l.latency_ms, l.jitter_ms);
  if (!l.jitter_keeps_order) out += "~";
  if (l.loss > 0) out += fmt::format(" loss{:.1f}%", 100 * l.loss);
  if (l.duplicate > 0) out += fmt::format(" dup{:.1f}%", 100 * l.duplicate);
  if (l.reorder > 0) out += fmt::format(" reo{:.1f}%/{:.0f}ms", 100 * l.reorder, l.reorder_delay_ms);
  if (l.rate_kbps > 0) out += fmt::format(" {}kbps", l.rate_kbps);
  if (l.stall_ms > 0) out += fmt::format(" stall{:.0f}/{:.0f}ms", l.stall_ms, l.stall_every_ms);
  return out;
}

// The configuration on one line: "seed=N map=... tick=60 snap=30 ... | c0 ... | c1 ...".
inline std::string describe(const SwarmConfig& c) {
  std::string out = fmt::format("seed={} map={} tick={}Hz snap={}Hz forgiveness={} budget={}B crowd={} wake={}ms "
                                "pauses={:.2f}/s<={}ms hold={}ms run={:.1f}s+{:.0f}s clients={}",
                                c.seed, swarm_name(c.map), c.tick_rate_hz, c.snapshot_rate_hz, c.forgiveness, c.snapshot_budget_bytes,
                                c.crowd_entities,
                                c.server_wake_every.ns() / 1'000'000, c.server_pauses_per_second, c.server_pause_max.ns() / 1'000'000,
                                c.pawn_hold.ns() / 1'000'000, c.run.seconds_f(), c.drain.seconds_f(), c.clients.size());
  for (std::size_t i = 0; i < c.clients.size(); ++i) {
    const SwarmClient& s = c.clients[i];
    out += fmt::format(" | c{} {} {:.0f}Hz+-{:.0f}% {}{}", i, swarm_name(s.input), s.frame_hz, 100 * s.frame_jitter,
                       swarm_name(s.life), s.chatty ? " chatty" : "");
    if (s.life == SwarmLife::joins_late) out += fmt::format("@{:.1f}s", s.join_at.seconds_f());
    if (s.life != SwarmLife::stays && s.life != SwarmLife::joins_late) out += fmt::format("@{:.1f}s", s.event_at.seconds_f());
    if (s.away.ns() > 0) out += fmt::format("/{:.1f}s", s.away.seconds_f());
    out += " up " + describe_link(s.up) + " down " + describe_link(s.down);
  }
  return out;
}

}  // namespace tickwire::test

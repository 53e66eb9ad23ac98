// One seed of the swarm: its configuration (swarm_config.h) played on the simulated network by the
// real Server and Client facades (GameSim), the reference game on the reference or the flat map,
// clients joining, leaving, freezing, coming back and crashing on schedule, the chatty ones sending
// each other numbered reliable messages. The judge (swarm_judge.h) and the relay ledger check every
// invariant as it happens; the run stops at the first violation, which it reports with its time.
#pragma once

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "crowd_records.h"
#include "game_sim.h"
#include "heap_in_use.h"
#include "relay_ledger.h"
#include "swarm_config.h"
#include "swarm_judge.h"
#include "tickwire/world/bot_brain.h"
#include "tickwire/world/reference_vocabulary.h"

namespace tickwire::test {

// The heap over the quiet end (no joins or departures) is a guard against runaway growth, not a
// leak detector: bounded stores still reach new high-water marks there (on the reference map a
// walking bot meets objects it had not seen; a crowd the budget cannot carry leaves per-client
// state copies in each sent frame, their vectors' capacity creeping up to the history's bound), so
// it may grow this much, besides what the simulated sockets' receive queues took meanwhile (each
// datagram counted at most kSwarmHeapPerDatagramBytes). It is judged with connections stalled too
// (a frozen process, a crashed one the server has not let go): a client that acks nothing lets go of
// its sent frames as they leave the baseline window, so it holds no more shared world frames than
// one that acks, and the pool never runs dry (kMaxHeldWorldFrames). Leaks that outlive a run are
// the soak's to find (heap between seeds).
inline constexpr std::size_t kSwarmDrainHeapSlackBytes = 8u << 20;
inline constexpr double kSwarmDrainHeapSlackFraction = 0.10;  // of the heap at the quiet end's start, when more
inline constexpr std::size_t kSwarmHeapPerDatagramBytes = protocol::MaxPacketBytes + 256;
inline constexpr double kSwarmRelaysPerSecond = 4.0;  // a chatty client's messages (the contract allows 60)

struct SwarmResult {
  SwarmConfig config;
  std::optional<SwarmViolation> violation;  // the first; nullopt: the seed passed
  std::map<std::string, uint64_t> failures;  // checks failed, by invariant (the run stops at the first)
  double simulated_s = 0, wall_s = 0;  // wall: the machine's time, shared with whatever else runs
  uint64_t ticks = 0, declared_ticks = 0;
  uint32_t deepest_update = 0;
  std::size_t most_fragments = 0;  // the most fragments one snapshot went in
  uint64_t frames_compared = 0, frames_uncompared = 0, acks_compared = 0;
  uint64_t relays_sent = 0, relays_received = 0, relays_misaddressed = 0, relay_gaps_excused = 0, streams_judged = 0;
  uint32_t connections = 0;  // the run's members: one per connection a client opened
  std::size_t heap_at_drain_bytes = 0, heap_at_end_bytes = 0;
  std::size_t datagrams_at_drain = 0, datagrams_at_end = 0;  // waiting in the sim's sockets
  // The most sessions the server held in the quiet end for a stalled client.
  std::size_t stalled_connections = 0;
  uint32_t world_frames = 0;  // the shared world frames the server allocated (their high-water mark)
  bool passed() const { return !violation.has_value(); }
};

// The whole-game sim's configuration for a swarm's (its room policy: game_sim_policy of this).
inline GameSimConfig swarm_game_config(const SwarmConfig& config) {
  GameSimConfig g;
  g.tick_rate_hz = config.tick_rate_hz;
  g.snapshot_rate_hz = config.snapshot_rate_hz;
  g.forgiveness = config.forgiveness;
  g.map_text = config.map == SwarmMap::flat ? flat_map_json() : std::string();
  g.server_wake_every = config.server_wake_every;
  g.pawn_hold = config.pawn_hold;
  if (config.snapshot_budget_bytes != 0) {
    const uint32_t budget_bytes = config.snapshot_budget_bytes;
    g.adjust_policy = [budget_bytes](RoomPolicy& policy) { policy.budgets.snapshot_budget_bytes = budget_bytes; };
  }
  return g;
}

class SwarmRun {
 public:
  explicit SwarmRun(const SwarmConfig& config)
      : config_(config),
        rng_(config.seed ^ 0xc4a77e5ull),
        pause_rng_(config.seed ^ 0x9a05e5ull),
        sim_(config.seed, swarm_game_config(config), std::min<uint32_t>(255, 2 * static_cast<uint32_t>(config.clients.size()) + 1)),
        judge_(sim_),
        ledger_([this](std::string invariant, std::string detail) { judge_.fail(std::move(invariant), std::move(detail)); }),
        slots_(config.clients.size()),
        start_(sim_.world.now) {
    sim_.after_update = [this](const RoomUpdate& update) { judge_.after_update(update); };
    sim_.on_input = [this](EntityRef pawn, const TickInput& input) { judge_.applied.on_input(pawn, input); };
    sim_.watched.after_tick = [this](Tick tick) { judge_.after_tick(tick); };
    sim_.after_frame = [this](SimGameClient& c) { after_frame(c); };
    if (config.server_pauses_per_second > 0) sim_.wake_late = [this](MonoTime due) { return pause(due); };
    if (config.crowd_entities > 0) sim_.watched.more_records = [this](Tick tick, TickRecords& out) { crowd(tick, out); };
    for (std::size_t i = 0; i < config.clients.size(); ++i) schedule(i);
    std::stable_sort(events_.begin(), events_.end(), [](const Event& a, const Event& b) { return a.at < b.at; });
  }

  SwarmResult run() {
    const auto began = std::chrono::steady_clock::now();
    const MonoTime start = start_;
    const MonoTime drain_at = start + config_.run;
    const MonoTime end = drain_at + config_.drain;
    std::size_t next = 0;
    SwarmResult out;
    while (sim_.world.now < end && !judge_.first()) {
      while (next < events_.size() && start + events_[next].at <= sim_.world.now) apply(events_[next++]);
      MonoTime until = std::min(end, sim_.world.now + Duration::milliseconds(100));
      if (next < events_.size()) until = std::min(until, start + events_[next].at);
      if (out.heap_at_drain_bytes == 0 && sim_.world.now < drain_at) until = std::min(until, drain_at);
      sim_.run_for(until - sim_.world.now);
      if (out.heap_at_drain_bytes == 0 && sim_.world.now >= drain_at) {
        out.heap_at_drain_bytes = heap_in_use();
        out.datagrams_at_drain = sim_.datagrams_waiting();
      }
      if (out.heap_at_drain_bytes != 0) out.stalled_connections = std::max(out.stalled_connections, stalled_connections());
    }
    out.heap_at_end_bytes = heap_in_use();
    out.datagrams_at_end = sim_.datagrams_waiting();
    if (!judge_.first()) judge_end(out);
    out.config = config_;
    out.violation = judge_.first();
    out.failures = judge_.failures();
    out.simulated_s = (sim_.world.now - start).seconds_f();
    out.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
    out.ticks = static_cast<uint64_t>(sim_.room.clock().executed_ticks());
    out.declared_ticks = judge_.declared_ticks();
    out.deepest_update = judge_.deepest_update();
    out.most_fragments = judge_.most_fragments();
    out.frames_compared = judge_.frames_compared();
    out.frames_uncompared = judge_.frames_uncompared();
    out.acks_compared = judge_.acks_compared();
    out.relays_sent = ledger_.messages_sent();
    out.relays_received = ledger_.messages_received();
    out.relays_misaddressed = ledger_.misaddressed();
    out.relay_gaps_excused = ledger_.excused_gaps();
    out.connections = next_member_;
    out.world_frames = sim_.server.replication().world_frames();
    return out;
  }

 private:
  enum class Act : uint8_t { join, leave, freeze, thaw, come_back, crash };
  struct Event {
    Duration at;
    std::size_t client = 0;
    Act act = Act::join;
  };
  // A configured client as the run knows it: its place in the sim and its current connection.
  struct Slot {
    std::optional<std::size_t> sim_index;  // set once it joined
    uint32_t member = 0;                   // its current connection's member number
    bool gone = false;                     // left or crashed for good (this connection)
    bool frozen = false;
    MonoTime thawed_at;
  };

  void schedule(std::size_t i) {
    const SwarmClient& c = config_.clients[i];
    events_.push_back(Event{c.life == SwarmLife::joins_late ? c.join_at : Duration{}, i, Act::join});
    switch (c.life) {
      case SwarmLife::stays:
      case SwarmLife::joins_late: break;
      case SwarmLife::leaves: events_.push_back(Event{c.event_at, i, Act::leave}); break;
      case SwarmLife::goes_silent:
        events_.push_back(Event{c.event_at, i, Act::freeze});
        events_.push_back(Event{c.event_at + c.away, i, Act::thaw});
        break;
      case SwarmLife::rejoins:
        events_.push_back(Event{c.event_at, i, Act::leave});
        events_.push_back(Event{c.event_at + c.away, i, Act::come_back});
        break;
      case SwarmLife::crashes: events_.push_back(Event{c.event_at, i, Act::crash}); break;
    }
  }

  // The server's host now and then wakes late for a tick: a pause of up to server_pause_max.
  MonoTime pause(MonoTime due) {
    const double per_wake = config_.server_pauses_per_second / config_.tick_rate_hz;
    if (!pause_rng_.chance(per_wake)) return due;
    return due + Duration::from_seconds(swarm_detail::uniform(pause_rng_, 0.02, config_.server_pause_max.seconds_f()));
  }

  // The crowd: about the first spawn point, somewhere new every tick (crowd_records.h).
  void crowd(Tick tick, TickRecords& out) const {
    add_crowd_records(tick, sim_.map.spawn_points()[0].position, config_.crowd_entities, out);
  }

  InputSource input_of(std::size_t i) const {
    constexpr std::array<world::BotBehaviour, 4> behaviours = {world::BotBehaviour::wander, world::BotBehaviour::walk,
                                                               world::BotBehaviour::idle, world::BotBehaviour::jumpy};
    auto brain = std::make_shared<world::BotBrain>(behaviours[static_cast<std::size_t>(config_.clients[i].input)],
                                                   config_.seed * 7919 + i);
    return [brain](uint32_t sequence) { return brain->next(sequence); };
  }

  // The harness's per-input logs held at the run's size up front, so the heap measures the system.
  void reserve_logs(SimGameClient& c) const {
    const auto inputs = static_cast<std::size_t>((config_.run + config_.drain).seconds_f() * config_.tick_rate_hz * 1.25 + 64);
    c.produced_at.reserve(inputs);
    c.input_to_apply_ms.reserve(inputs);
  }

  void new_member(std::size_t i) {
    Slot& slot = slots_[i];
    slot.member = next_member_++;
    slot.gone = false;
    slot.frozen = false;
    by_client_[sim_.clients[*slot.sim_index].get()] = i;
    reserve_logs(*sim_.clients[*slot.sim_index]);
  }

  void apply(const Event& e) {
    Slot& slot = slots_[e.client];
    const SwarmClient& c = config_.clients[e.client];
    switch (e.act) {
      case Act::join: {
        GameClientSetup setup;
        setup.up = c.up;
        setup.down = c.down;
        setup.frame_hz = c.frame_hz;
        setup.frame_jitter = c.frame_jitter;
        setup.input = input_of(e.client);
        slot.sim_index = sim_.clients.size();
        sim_.add_client(setup);
        new_member(e.client);
        break;
      }
      case Act::leave:
        sim_.clients[*slot.sim_index]->facade->disconnect(sim_.world.now);
        sim_.freeze_client(*slot.sim_index);  // nothing more to run
        slot.gone = true;
        break;
      case Act::freeze:
        sim_.freeze_client(*slot.sim_index);
        slot.frozen = true;
        break;
      case Act::thaw:
        sim_.thaw_client(*slot.sim_index);
        slot.frozen = false;
        slot.thawed_at = sim_.world.now;
        break;
      case Act::come_back:
        by_client_.erase(sim_.clients[*slot.sim_index].get());
        sim_.reopen_client(*slot.sim_index, 20'000 + next_member_);
        new_member(e.client);
        break;
      case Act::crash:
        by_client_.erase(sim_.clients[*slot.sim_index].get());
        sim_.restart_client(*slot.sim_index, 20'000 + next_member_, {});
        new_member(e.client);
        break;
    }
  }

  // Its connection is in the room: the client is playing and the server's session for its owner id
  // holds its pawn (a client thawed after the server let it go believes it plays until its own timeout).
  bool in_room(const Slot& slot) const {
    if (!slot.sim_index || slot.gone || slot.frozen) return false;
    const SimGameClient& c = *sim_.clients[*slot.sim_index];
    if (c.facade->status().phase != ClientPhase::playing) return false;
    const RoomSession* session = sim_.room.session(c.facade->owner());
    return session != nullptr && session->pawn == c.pawn();
  }

  void after_frame(SimGameClient& c) {
    const auto found = by_client_.find(&c);
    if (found == by_client_.end()) return;
    const std::size_t i = found->second;
    const uint32_t member = slots_[i].member;
    judge_.after_frame(member, c);
    while (std::optional<GameMessage> m = c.facade->receive_message()) ledger_.receive(member, *m);
    while (c.facade->receive_event()) {
    }
    while (c.facade->receive_hit()) {
    }
    (void)c.client.take_snapshot_sizes();  // as a game's report takes them (their log is capped, not emptied)
    const auto& refusals = c.client.session().relay_refusals();
    if (refusals[protocol::RelayRefusal::rate_limited] + refusals[protocol::RelayRefusal::target_full] > 0) ledger_.excuse(member);
    if (config_.clients[i].chatty && sim_.world.now < start_ + config_.run && in_room(slots_[i])) chat(i, c);
  }

  // Now and then a numbered message to another client that is playing (by the harness's eye).
  void chat(std::size_t i, SimGameClient& c) {
    if (!rng_.chance(kSwarmRelaysPerSecond / config_.clients[i].frame_hz)) return;
    std::vector<std::size_t> peers;
    for (std::size_t j = 0; j < slots_.size(); ++j)
      if (j != i && in_room(slots_[j])) peers.push_back(j);
    if (peers.empty()) return;
    const std::size_t j = peers[rng_.below(peers.size())];
    (void)ledger_.send(*c.facade, slots_[i].member, c.facade->owner(), slots_[j].member,
                       sim_.clients[*slots_[j].sim_index]->facade->owner());
  }

  // What the end of a clean run must show: every client that meant to stay is playing, every stream
  // between two of them arrived whole, and the quiet end's heap did not run away.
  void judge_end(SwarmResult& out) {
    for (std::size_t i = 0; i < slots_.size(); ++i) {
      const Slot& slot = slots_[i];
      const SwarmLife life = config_.clients[i].life;
      if (life == SwarmLife::goes_silent || life == SwarmLife::leaves) continue;
      if (!in_room(slot))
        judge_.fail("sessions kept", fmt::format("c{} (m{}, {}) is not playing at the end: {}", i, slot.member, swarm_name(life),
                                                 sim_.clients[*slot.sim_index]->facade->status().reason));
    }
    out.streams_judged = ledger_.judge_complete([this](uint32_t from, uint32_t to) { return settled(from) && settled(to, true); });
    const std::size_t queued = out.datagrams_at_end > out.datagrams_at_drain ? out.datagrams_at_end - out.datagrams_at_drain : 0;
    const auto slack = std::max(kSwarmDrainHeapSlackBytes,
                                static_cast<std::size_t>(kSwarmDrainHeapSlackFraction * static_cast<double>(out.heap_at_drain_bytes)));
    if (out.heap_at_end_bytes > out.heap_at_drain_bytes + slack + queued * kSwarmHeapPerDatagramBytes)
      judge_.fail("memory bounded", fmt::format("the heap grew {} -> {} bytes over the quiet end ({} more datagrams waiting)",
                                                out.heap_at_drain_bytes, out.heap_at_end_bytes, queued));
  }

  // Sessions the room holds for no client in the room: a frozen process, a crashed one not yet let go.
  std::size_t stalled_connections() const {
    const std::size_t sessions = sim_.room.session_count();
    std::size_t live = 0;
    for (const Slot& slot : slots_) live += in_room(slot) ? 1 : 0;
    return sessions > live ? sessions - live : 0;
  }

  // A member still on its connection, playing, unfrozen through the quiet end, with nothing of its
  // own reliable traffic in flight (`receiving`: nothing in flight to it from the server either).
  bool settled(uint32_t member, bool receiving = false) {
    for (const Slot& slot : slots_) {
      if (slot.member != member) continue;
      if (!in_room(slot) || slot.thawed_at > start_ + config_.run) return false;
      SimGameClient& c = *sim_.clients[*slot.sim_index];
      const ReliableEndpoint* mine = c.client.session().transport().endpoint();
      if (mine == nullptr || mine->stats().channels[kSessionReliableChannel].send_queue_messages > 0) return false;
      if (!receiving) return true;
      const uint32_t server_slot = static_cast<uint32_t>(c.facade->owner()) - 1;
      const ReliableEndpoint* theirs = sim_.server.transport().endpoint(server_slot);
      return theirs != nullptr && theirs->stats().channels[kSessionReliableChannel].send_queue_messages == 0;
    }
    return false;
  }

  SwarmConfig config_;
  Rng rng_;        // the chatty clients' choices
  Rng pause_rng_;  // the server host's pauses
  GameSim sim_;
  SwarmJudge judge_;
  RelayLedger ledger_;
  std::vector<Slot> slots_;  // by configured client
  MonoTime start_;
  std::vector<Event> events_;
  std::map<const SimGameClient*, std::size_t> by_client_;  // the sim's live client objects -> configured client
  uint32_t next_member_ = 0;
};

inline SwarmResult run_swarm(uint64_t seed) { return SwarmRun(pick_swarm_config(seed)).run(); }

// How to replay one seed alone (the quick test runs only it when the variable is set).
inline std::string swarm_reproduce_command(uint64_t seed) {
  return fmt::format("TICKWIRE_SWARM_SEED={} ctest --test-dir build/release-tests -R sim.Swarm.FixedSeeds -V", seed);
}

// A seed's outcome on one line ("passed" with its figures, or the first violation and its time).
inline std::string format_swarm_result(const SwarmResult& r) {
  const std::string verdict =
      r.violation ? fmt::format("FAILED at {:.3f} s: {}: {}", static_cast<double>(r.violation->at.ns()) / 1e9,
                                r.violation->invariant, r.violation->detail)
                  : std::string("passed");
  return fmt::format("[ swarm ] seed={} {} ({:.1f} s simulated in {:.2f} s wall; {} connections, {} ticks, {} declared, "
                     "deepest update {}, most fragments {}; "
                     "{} frames compared ({} gone from the server), {} acks; relays {} sent {} received, {} misaddressed, "
                     "{} excused, {} streams judged; heap {} -> {} B over the quiet end, datagrams waiting {} -> {}, {} stalled; "
                     "{} world frames)",
                     r.config.seed, verdict, r.simulated_s, r.wall_s, r.connections, r.ticks, r.declared_ticks, r.deepest_update,
                     r.most_fragments,
                     r.frames_compared, r.frames_uncompared, r.acks_compared, r.relays_sent, r.relays_received,
                     r.relays_misaddressed, r.relay_gaps_excused, r.streams_judged, r.heap_at_drain_bytes, r.heap_at_end_bytes,
                     r.datagrams_at_drain, r.datagrams_at_end, r.stalled_connections, r.world_frames);
}

// While alive, the default logger drops info lines (a seed's periodic snapshot diagnostics would
// bury the verdicts); warnings still show.
class QuietInfoLogs {
 public:
  QuietInfoLogs() : level_(spdlog::default_logger()->level()) { spdlog::default_logger()->set_level(spdlog::level::warn); }
  ~QuietInfoLogs() { spdlog::default_logger()->set_level(level_); }
  QuietInfoLogs(const QuietInfoLogs&) = delete;
  QuietInfoLogs& operator=(const QuietInfoLogs&) = delete;

 private:
  spdlog::level::level_enum level_;
};

// Runs one seed, printing its configuration first (an engine assertion that ends the process leaves
// it as the last line), then its outcome (and, failing, how to replay it).
inline SwarmResult run_and_print_swarm(uint64_t seed) {
  const QuietInfoLogs quiet;
  const SwarmConfig config = pick_swarm_config(seed);
  std::printf("[ swarm ] %s\n", describe(config).c_str());
  std::fflush(stdout);
  const SwarmResult r = SwarmRun(config).run();
  std::printf("%s\n", format_swarm_result(r).c_str());
  if (!r.passed()) std::printf("[ swarm ] reproduce: %s\n", swarm_reproduce_command(seed).c_str());
  std::fflush(stdout);
  return r;
}

}  // namespace tickwire::test

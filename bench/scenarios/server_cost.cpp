// Scenario (d): entities random-walk (the game's work, untimed); each tick the room's own
// ReplicationServer quantizes the world frame once, moves the interest grid, then builds every
// client's snapshot message (the timed work); acks come back 6 ticks later unless the snapshot was
// lost; every body is decoded (untimed) and compared with the frame the service says the client holds.
#include "server_cost.h"

#include <fmt/format.h>
#include <spdlog/sinks/null_sink.h>
#include <spdlog/spdlog.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <vector>

#include "tickwire/core/rng.h"
#include "tickwire/replication/replication_server.h"
#include "tickwire/wire/codec.h"

namespace tickwire::bench {
namespace {

constexpr float kWalkJitterMps = 0.2f;  // the most a velocity component changes in one tick
constexpr uint32_t kMaxAckDelayTicks = 64;
constexpr uint8_t kKindPawn = 1;
constexpr uint8_t kKindProp = 2;

// The scenario has no map objects, so no rest table.
class NullRestSource final : public RestRecordSource {};

double thread_cpu_ms() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) * 1e-6;
}
double wall_ms() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// The room's policy for the scenario: its rates, radius, lanes and budget, two kinds.
NetcodeContract contract_of(const ServerCostRequest& r) {
  RoomPolicy policy;
  policy.identity = {"server-cost", "tickwire-bench", "bench", "1", "bench", "", ""};
  policy.cadence.tick_rate_hz = static_cast<uint32_t>(r.tick_hz);
  policy.cadence.snapshot_rate_hz = static_cast<uint32_t>(r.tick_hz) / r.ticks_per_snapshot;
  policy.interest.radius_m = r.radius_m;
  policy.interest.pose_radius_m = r.pose_radius_m;
  policy.budgets.snapshot_budget_bytes = r.budget_bytes;
  policy.vocabulary.kind(kKindPawn, "pawn").kind(kKindProp, "prop");
  const ContractResolution resolved = resolve_netcode_contract(policy);
  TW_ASSERT(resolved.ok(), "the server-cost policy resolves");
  return *resolved.contract;
}

ReplicationServerConfig service_config(const ServerCostRequest& r, std::shared_ptr<spdlog::logger> logger) {
  ReplicationServerConfig c;
  c.interest.max_entities = r.entities;
  c.interest.grid = InterestGridConfig{0.0f, 0.0f, r.map_m, r.map_m, r.cell_m, r.entities};
  c.interest.max_always_relevant = 16;
  c.interest.max_scene_frames = 16;
  c.builder.max_visible = std::min<uint32_t>(r.entities, InterestSet::kMaxEntities);
  c.builder.max_fit_frames = r.max_fit_frames;
  c.client.logger = std::move(logger);
  return c;
}

struct Walker {
  float vx = 0.0f, vz = 0.0f;
};

struct Client {
  OwnerId owner = 0;
  std::vector<uint8_t> delivered = std::vector<uint8_t>(kMaxAckDelayTicks, 0);  // by tick % kMaxAckDelayTicks
  std::vector<uint8_t> message;  // this tick's snapshot message, whole (before any slicing)
  bool built = false;            // this tick's build succeeded
};

class ServerCostRun {
 public:
  explicit ServerCostRun(const ServerCostRequest& r)
      : r_(r),
        rng_(r.seed),
        logger_(std::make_shared<spdlog::logger>("server_cost", std::make_shared<spdlog::sinks::null_sink_st>())),
        service_(contract_of(r), service_config(r, logger_)) {
    TW_ASSERT(r.clients >= 1 && r.clients <= r.entities && r.clients <= kReplicationMaxClients &&
                  r.ack_delay_ticks < kMaxAckDelayTicks,
              "bad request");
    logger_->set_level(spdlog::level::warn);  // a room logs per-client compositions at debug, not per tick
    walkers_.resize(r.entities);
    records_.records.reserve(r.entities);
    for (uint32_t e = 0; e < r.entities; ++e) {
      const bool pawn = e < r.clients;
      protocol::EntityRecord body;
      body.kind = pawn ? kKindPawn : kKindProp;
      body.position = protocol::Vec3{static_cast<float>(rng_.unit()) * r.map_m, 0.0f, static_cast<float>(rng_.unit()) * r.map_m};
      records_.add(protocol::Record{e + 1, body});  // record ids e + 1, ascending
    }
    clients_.resize(r.clients);
    for (uint32_t c = 0; c < r.clients; ++c) {
      clients_[c].owner = static_cast<OwnerId>(c + 1);
      clients_[c].message.reserve(1 + protocol::MaxSnapshotBytes);
      service_.add_client(clients_[c].owner, /*pawn record=*/c + 1, ReplicationFormat{true, false});
    }
  }

  ServerCostResult run();

 private:
  void walk();
  void serve(Client& client, MonoTime now, ServerCostResult& result);
  void verify(const Client& client, Tick tick, ServerCostResult& result);
  void account(Client& client, int64_t tick, ServerCostResult& result);

  ServerCostRequest r_;
  Rng rng_;
  std::shared_ptr<spdlog::logger> logger_;
  ReplicationServer service_;
  TickRecords records_;
  std::vector<Walker> walkers_;
  std::vector<Client> clients_;
  ReplicaFrame decoded_;
  protocol::SnapshotDelta delta_;
  std::vector<uint8_t> body_;
  uint64_t visible_ = 0, selected_ = 0, skipped_ = 0, baseline_age_ = 0, snapshots_ = 0;
  std::vector<double> message_bytes_;
};

// The game's motion: a random walk, speed capped, reflected at the map's edges; pawns face their way.
void ServerCostRun::walk() {
  const float dt = 1.0f / r_.tick_hz;
  for (uint32_t e = 0; e < r_.entities; ++e) {
    Walker& w = walkers_[e];
    w.vx += static_cast<float>(rng_.unit() * 2.0 - 1.0) * kWalkJitterMps;
    w.vz += static_cast<float>(rng_.unit() * 2.0 - 1.0) * kWalkJitterMps;
    const float speed = std::sqrt(w.vx * w.vx + w.vz * w.vz);
    if (speed > r_.max_speed_mps) {
      w.vx *= r_.max_speed_mps / speed;
      w.vz *= r_.max_speed_mps / speed;
    }
    auto& body = std::get<protocol::EntityRecord>(records_.records[e].body);
    float x = body.position.x + w.vx * dt;
    float z = body.position.z + w.vz * dt;
    if (x < 0.0f || x > r_.map_m) w.vx = -w.vx;
    if (z < 0.0f || z > r_.map_m) w.vz = -w.vz;
    body.position = protocol::Vec3{std::clamp(x, 0.0f, r_.map_m), 0.0f, std::clamp(z, 0.0f, r_.map_m)};
    if (e < r_.clients) body.yaw_deg = std::fmod(std::atan2(w.vx, w.vz) * 57.29578f + 360.0f, 360.0f);
  }
}

// Timed: one client's messages from the service (interest, budget, delta, message, slicing).
void ServerCostRun::serve(Client& client, MonoTime now, ServerCostResult& result) {
  const ClientMessages messages = service_.build(client.owner, std::nullopt, now);
  service_.reliable_taken(client.owner, messages.reliable.size());  // a rest table goes whole
  client.built = messages.snapshot;
  if (!messages.snapshot) {
    ++result.refused;
    return;
  }
  const std::span<const uint8_t> whole = service_.last_snapshot();
  client.message.assign(whole.begin(), whole.end());
}

// Untimed: the body decodes, against the client's acknowledged frames, to the frame the service
// kept for it (its copies of acknowledged frames are what a client decoded, byte for byte, as long
// as every decode matched, which this checks).
void ServerCostRun::verify(const Client& client, Tick tick, ServerCostResult& result) {
  ++result.verified;
  const ClientReplicationState& state = *service_.replication(client.owner);
  const SentFrame* sent = state.history.find(tick);
  if (client.message.empty() || client.message[0] != protocol::SnapshotDelta::wire_id ||
      !wire::decode(std::span<const uint8_t>(client.message).subspan(1), delta_).ok()) {
    ++result.mismatches;
    return;
  }
  DeltaRefs refs;
  refs.history = &state.history;  // the acked frames: what the client holds
  if (delta_.baseline_age != 0) refs.baseline = state.history.find(tick - delta_.baseline_age)->view();
  if (delta_.predict_age != 0) refs.older = state.history.find(tick - delta_.predict_age)->view();
  body_.resize(delta_.body.size());
  for (std::size_t i = 0; i < body_.size(); ++i) body_[i] = delta_.body[i].value;
  const Status decoded = decode_snapshot_delta(body_, tick.wire_u32(), refs, service_.kinds(), decoded_);
  if (sent == nullptr || !decoded.ok() || !same_frame(decoded_, sent->view())) ++result.mismatches;
}

// Untimed: figures, and whether the client received it (acked ack_delay ticks later).
void ServerCostRun::account(Client& client, int64_t tick, ServerCostResult& result) {
  const SnapshotDiagnostics& d = service_.replication(client.owner)->last;
  visible_ += d.visible;
  selected_ += d.selected;
  skipped_ += d.skipped;
  client.delivered[static_cast<uint64_t>(tick) % kMaxAckDelayTicks] = 0;
  if (!client.built) return;
  ++snapshots_;
  baseline_age_ += d.baseline_age_ticks;
  message_bytes_.push_back(static_cast<double>(d.message_bytes));
  result.fragmented += d.slice == SliceOutcome::fragmented ? 1u : 0u;
  result.refits += d.refits;
  result.loose += d.loose ? 1u : 0u;
  client.delivered[static_cast<uint64_t>(tick) % kMaxAckDelayTicks] = rng_.chance(r_.loss) ? 0 : 1;
  if (r_.verify) verify(client, Tick::from_value(tick), result);
}

ServerCostResult ServerCostRun::run() {
  ServerCostResult result;
  result.request = r_;
  std::vector<double> tick_ms;
  tick_ms.reserve(r_.ticks);
  message_bytes_.reserve(static_cast<std::size_t>(r_.ticks) * r_.clients);
  double wall_total = 0, frame_total = 0, clients_total = 0, cpu_total = 0;
  const NullRestSource no_map_objects;
  for (int64_t tick = 1; tick <= static_cast<int64_t>(r_.ticks); ++tick) {
    walk();
    for (Client& c : clients_) {  // acks of what was delivered ack_delay ticks ago
      const int64_t acked = tick - static_cast<int64_t>(r_.ack_delay_ticks);
      if (acked >= 1 && c.delivered[static_cast<uint64_t>(acked) % kMaxAckDelayTicks]) {
        service_.on_held(c.owner, protocol::SnapshotsHeld{static_cast<uint32_t>(acked), 0, 0});
      }
    }
    const MonoTime now = MonoTime::from_ns(static_cast<int64_t>(static_cast<double>(tick) * 1e9 / r_.tick_hz));
    const double cpu0 = thread_cpu_ms();
    const double wall0 = wall_ms();
    service_.begin_tick(Tick::from_value(tick), records_, no_map_objects);
    service_.prepare_tick();  // the world frame, quantized once, and the interest grid moved to it
    const double wall1 = wall_ms();
    for (Client& c : clients_) serve(c, now, result);
    const double wall2 = wall_ms();
    const double cpu1 = thread_cpu_ms();
    for (Client& c : clients_) account(c, tick, result);
    tick_ms.push_back(cpu1 - cpu0);
    cpu_total += cpu1 - cpu0;
    wall_total += wall2 - wall0;
    frame_total += wall1 - wall0;
    clients_total += wall2 - wall1;
  }
  const auto ticks = static_cast<double>(r_.ticks);
  result.tick_ms = Summary::of(tick_ms);
  result.wall_mean_ms = wall_total / ticks;
  result.frame_ms = frame_total / ticks;
  result.clients_ms = clients_total / ticks;
  const double pairs = static_cast<double>(std::max<uint64_t>(1, visible_));
  result.ns_per_client_visible = cpu_total * 1e6 / pairs;
  const double builds = ticks * r_.clients;
  result.visible_per_client = static_cast<double>(visible_) / builds;
  result.selected_per_client = static_cast<double>(selected_) / builds;
  result.skipped_per_client = static_cast<double>(skipped_) / builds;
  const Summary bytes = Summary::of(message_bytes_);
  result.message_bytes_mean = bytes.mean;
  result.message_bytes_max = bytes.max;
  result.baseline_age_mean = static_cast<double>(baseline_age_) / static_cast<double>(std::max<uint64_t>(1, snapshots_));
  return result;
}

}  // namespace

ServerCostResult run_server_cost(const ServerCostRequest& request) {
  auto run = std::make_unique<ServerCostRun>(request);
  return run->run();
}

nlohmann::json server_cost_json(const ServerCostResult& r) {
  const ServerCostRequest& q = r.request;
  return nlohmann::json{
      {"scenario", "server-cost"},
      {"clients", q.clients},
      {"entities", q.entities},
      {"ticks", q.ticks},
      {"tick_hz", q.tick_hz},
      {"radius_m", q.radius_m},
      {"budget_bytes", q.budget_bytes},
      {"ack_delay_ticks", q.ack_delay_ticks},
      {"loss", q.loss},
      {"seed", q.seed},
      {"max_fit_frames", q.max_fit_frames},
      {"tick_ms", {{"mean", r.tick_ms.mean}, {"p99", r.tick_ms.p99}, {"max", r.tick_ms.max}}},
      {"wall_mean_ms", r.wall_mean_ms},
      {"phase_wall_ms", {{"frame", r.frame_ms}, {"clients", r.clients_ms}}},
      {"ns_per_client_visible", r.ns_per_client_visible},
      {"visible_per_client", r.visible_per_client},
      {"selected_per_client", r.selected_per_client},
      {"skipped_per_client", r.skipped_per_client},
      {"message_bytes", {{"mean", r.message_bytes_mean}, {"max", r.message_bytes_max}}},
      {"baseline_age_mean_ticks", r.baseline_age_mean},
      {"fragmented", r.fragmented},
      {"refused", r.refused},
      {"refits", r.refits},
      {"loose", r.loose},
      {"verified", r.verified},
      {"mismatches", r.mismatches},
      {"correct", r.correct()},
      {"goal_tick_ms", 4.0},
      {"goal_met", r.goal_met()},
  };
}

std::string server_cost_table(const ServerCostResult& r) {
  const ServerCostRequest& q = r.request;
  std::string out = fmt::format(
      "server-cost: {} clients, {} entities, {} ticks at {:.0f} Hz, radius {:.0f} m, budget {} B, acks {} ticks late, "
      "{:.0f}% loss, fit over {} frames, seed {}\n",
      q.clients, q.entities, q.ticks, q.tick_hz, q.radius_m, q.budget_bytes, q.ack_delay_ticks, q.loss * 100.0,
      q.max_fit_frames, q.seed);
  out += fmt::format("  tick (one thread, CPU)   mean {:.3f} ms  p99 {:.3f} ms  max {:.3f} ms   goal <= 4 ms: {}\n",
                     r.tick_ms.mean, r.tick_ms.p99, r.tick_ms.max, r.goal_met() ? "met" : "NOT met");
  out += fmt::format("  per client x visible     {:.1f} ns   ({:.1f} visible, {:.1f} selected, {:.1f} deferred per client)\n",
                     r.ns_per_client_visible, r.visible_per_client, r.selected_per_client, r.skipped_per_client);
  out += fmt::format("  phases (wall, per tick)  frame {:.3f} ms  clients {:.3f} ms  (total {:.3f})\n", r.frame_ms,
                     r.clients_ms, r.wall_mean_ms);
  out += fmt::format("  snapshots                mean {:.0f} B  max {:.0f} B  baseline age {:.1f} ticks  fragmented {}  refused {}\n",
                     r.message_bytes_mean, r.message_bytes_max, r.baseline_age_mean, r.fragmented, r.refused);
  out += fmt::format("  budget fitting           {} loose (nothing estimated), {} fitted again\n", r.loose, r.refits);
  out += fmt::format("  decoded and compared     {} bodies, {} mismatches: {}\n", r.verified, r.mismatches,
                     r.correct() ? "ok" : "WRONG");
  return out;
}

}  // namespace tickwire::bench

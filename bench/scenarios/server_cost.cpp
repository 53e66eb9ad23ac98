// Scenario (d): entities random-walk (the game's work, untimed); each tick the server quantizes the
// world frame once, moves the interest grid, then builds and encodes every client's snapshot (the
// timed work); acks come back 6 ticks later unless the snapshot was lost; every body is decoded
// (untimed) and compared with the frame the builder says the client holds.
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
#include "tickwire/replication/builder/client_snapshot_builder.h"

namespace tickwire::bench {
namespace {

constexpr float kWalkJitterMps = 0.2f;  // the most a velocity component changes in one tick
constexpr uint32_t kMaxAckDelayTicks = 64;

double thread_cpu_ms() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) * 1e-6;
}
double wall_ms() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

TickFigure figure_of(std::vector<double> samples) {
  TickFigure f;
  if (samples.empty()) return f;
  std::sort(samples.begin(), samples.end());
  double sum = 0;
  for (double s : samples) sum += s;
  f.mean = sum / static_cast<double>(samples.size());
  f.p99 = samples[std::min(samples.size() - 1, samples.size() * 99 / 100)];
  f.max = samples.back();
  return f;
}

InterestWorldConfig world_config(const ServerCostRequest& r) {
  InterestWorldConfig c;
  c.grid = InterestGridConfig{0.0f, 0.0f, r.map_m, r.map_m, r.cell_m, r.entities};
  c.max_always_relevant = 16;
  c.max_scene_frames = 16;
  return c;
}

ClientSnapshotBuilderConfig builder_config(const ServerCostRequest& r) {
  ClientSnapshotBuilderConfig c;
  c.max_visible = std::min<uint32_t>(r.entities, InterestSet::kMaxEntities);
  c.priority.lanes = LaneSchedule{r.pose_radius_m, r.ticks_per_snapshot};
  c.max_fit_frames = r.max_fit_frames;
  return c;
}

struct Walker {
  float vx = 0.0f, vz = 0.0f;
};

struct Client {
  explicit Client(const ClientReplicationConfig& config) : state(config) {}
  ClientReplicationState state;
  ClientView view;
  std::vector<uint8_t> delivered = std::vector<uint8_t>(kMaxAckDelayTicks, 0);  // by tick % kMaxAckDelayTicks
  std::vector<uint8_t> body;          // this tick's snapshot body
  bool built = false;                 // this tick's build succeeded
  uint8_t baseline_age = 0, predict_age = 0;
};

class ServerCostRun {
 public:
  explicit ServerCostRun(const ServerCostRequest& r)
      : r_(r),
        rng_(r.seed),
        world_(world_config(r)),
        kinds_(ReplicaKinds::defaults()),
        builder_(world_, kinds_, builder_config(r)),
        logger_(std::make_shared<spdlog::logger>("server_cost", std::make_shared<spdlog::sinks::null_sink_st>())) {
    TW_ASSERT(r.clients >= 1 && r.clients <= r.entities && r.ack_delay_ticks < kMaxAckDelayTicks, "bad request");
    logger_->set_level(spdlog::level::warn);  // a room logs per-client compositions at debug, not per tick
    records_.resize(r.entities);
    walkers_.resize(r.entities);
    entities_.resize(r.entities);
    for (uint32_t e = 0; e < r.entities; ++e) {
      const bool pawn = e < r.clients;
      const InterestEntity attrs{static_cast<float>(rng_.unit()) * r.map_m, static_cast<float>(rng_.unit()) * r.map_m,
                                 pawn ? static_cast<uint16_t>(e) : kNoOwnerClient,
                                 pawn ? kInterestImportant : uint8_t{0}, pawn ? 2.0f : 1.0f};
      TW_ASSERT(world_.insert(e, attrs), "interest world full");
      entities_[e] = e;  // record ids are e + 1, ascending with the interest index
      protocol::EntityRecord body;
      body.kind = pawn ? protocol::NetKind::player_pawn : protocol::NetKind::prop;
      body.eye_height = pawn ? 1.6f : 0.0f;
      body.position = protocol::Vec3{attrs.x_m, 0.0f, attrs.z_m};
      records_[e] = protocol::Record{e + 1, body};
    }
    ClientReplicationConfig cc;
    cc.max_entities = r.entities;
    cc.logger = logger_;
    clients_.reserve(r.clients);
    for (uint32_t c = 0; c < r.clients; ++c) {
      clients_.emplace_back(cc);
      clients_.back().view = ClientView{static_cast<uint16_t>(c), c, 0.0f, 0.0f, r.radius_m, r.budget_bytes, {}};
    }
    for (Client& c : clients_) c.body.reserve(protocol::MaxSnapshotBytes);
  }

  ServerCostResult run();

 private:
  void walk();
  void build_frame(int64_t tick);
  void serve(Client& client, int64_t tick, ServerCostResult& result, double& compose_ms, double& encode_ms);
  void verify(const Client& client, Tick tick, ServerCostResult& result);
  void account(Client& client, int64_t tick, ServerCostResult& result);

  ServerCostRequest r_;
  Rng rng_;
  InterestWorld world_;
  ReplicaKinds kinds_;
  ClientSnapshotBuilder builder_;
  std::shared_ptr<spdlog::logger> logger_;
  std::vector<protocol::Record> records_;
  std::vector<Walker> walkers_;
  std::vector<uint32_t> entities_;
  ReplicaFrame frame_;
  std::vector<Client> clients_;
  ReplicaFrame decoded_;
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
    auto& body = std::get<protocol::EntityRecord>(records_[e].body);
    float x = body.position.x + w.vx * dt;
    float z = body.position.z + w.vz * dt;
    if (x < 0.0f || x > r_.map_m) w.vx = -w.vx;
    if (z < 0.0f || z > r_.map_m) w.vz = -w.vz;
    body.position = protocol::Vec3{std::clamp(x, 0.0f, r_.map_m), 0.0f, std::clamp(z, 0.0f, r_.map_m)};
    if (e < r_.clients) body.yaw_deg = std::fmod(std::atan2(w.vx, w.vz) * 57.29578f + 360.0f, 360.0f);
  }
}

// Timed: the world frame, quantized once for every client, and the interest grid moved to it.
void ServerCostRun::build_frame(int64_t tick) {
  quantize_records(records_, kinds_, frame_.states);
  frame_.tick = static_cast<uint32_t>(tick);
  for (uint32_t e = 0; e < r_.entities; ++e) {
    const auto& body = std::get<protocol::EntityRecord>(records_[e].body);
    world_.move(e, body.position.x, body.position.z);
  }
  world_.compact();
  builder_.begin_tick(WorldTickFrame{Tick::from_value(tick), &frame_, entities_, &world_});
}

void ServerCostRun::serve(Client& client, int64_t tick, ServerCostResult& result, double& compose_ms,
                          double& encode_ms) {
  const double t0 = wall_ms();
  (void)builder_.compose(client.view, client.state);
  const double t1 = wall_ms();
  const MonoTime now = MonoTime::from_ns(static_cast<int64_t>(static_cast<double>(tick) * 1e9 / r_.tick_hz));
  const Result<ClientSnapshot> built = builder_.encode(now, client.state, client.body);
  const double t2 = wall_ms();
  compose_ms += t1 - t0;
  encode_ms += t2 - t1;
  client.built = built.ok();
  if (!built.ok()) {
    ++result.refused;
    return;
  }
  client.baseline_age = built.value().baseline_age;
  client.predict_age = built.value().predict_age;
}

// Untimed: the body decodes, against the client's acknowledged frames, to the frame the builder
// kept for it (the builder's copies of acknowledged frames are what a client decoded, byte for byte,
// as long as every decode matched, which this checks).
void ServerCostRun::verify(const Client& client, Tick tick, ServerCostResult& result) {
  const SentFrame* sent = client.state.history.find(tick);
  DeltaRefs refs;
  refs.history = &client.state.history;  // the acked frames: what the client holds
  if (client.baseline_age != 0) refs.baseline = client.state.history.find(tick - client.baseline_age)->view();
  if (client.predict_age != 0) refs.older = client.state.history.find(tick - client.predict_age)->view();
  ++result.verified;
  const Status decoded = decode_snapshot_delta(client.body, tick.wire_u32(), refs, kinds_, decoded_);
  if (sent == nullptr || !decoded.ok() || !same_frame(decoded_, sent->view())) ++result.mismatches;
}

// Untimed: figures, and whether the client received it (acked ack_delay ticks later).
void ServerCostRun::account(Client& client, int64_t tick, ServerCostResult& result) {
  const SnapshotDiagnostics& d = client.state.last;
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
  double wall_total = 0, frame_total = 0, compose_total = 0, encode_total = 0, cpu_total = 0;
  for (int64_t tick = 1; tick <= static_cast<int64_t>(r_.ticks); ++tick) {
    walk();
    for (Client& c : clients_) {  // acks of what was delivered ack_delay ticks ago
      const int64_t acked = tick - static_cast<int64_t>(r_.ack_delay_ticks);
      if (acked >= 1 && c.delivered[static_cast<uint64_t>(acked) % kMaxAckDelayTicks]) {
        (void)c.state.acknowledge(Tick::from_value(acked));
      }
    }
    const double cpu0 = thread_cpu_ms();
    const double wall0 = wall_ms();
    build_frame(tick);
    const double wall1 = wall_ms();
    double compose_ms = 0, encode_ms = 0;
    for (std::size_t i = 0; i < clients_.size(); ++i) {
      if (i + 1 < clients_.size()) builder_.prefetch(clients_[i + 1].state);
      serve(clients_[i], tick, result, compose_ms, encode_ms);
    }
    const double wall2 = wall_ms();
    const double cpu1 = thread_cpu_ms();
    for (Client& c : clients_) account(c, tick, result);
    tick_ms.push_back(cpu1 - cpu0);
    cpu_total += cpu1 - cpu0;
    wall_total += wall2 - wall0;
    frame_total += wall1 - wall0;
    compose_total += compose_ms;
    encode_total += encode_ms;
  }
  const auto ticks = static_cast<double>(r_.ticks);
  result.tick_ms = figure_of(tick_ms);
  result.wall_mean_ms = wall_total / ticks;
  result.frame_ms = frame_total / ticks;
  result.compose_ms = compose_total / ticks;
  result.encode_ms = encode_total / ticks;
  const double pairs = static_cast<double>(std::max<uint64_t>(1, visible_));
  result.ns_per_client_visible = cpu_total * 1e6 / pairs;
  const double builds = ticks * r_.clients;
  result.visible_per_client = static_cast<double>(visible_) / builds;
  result.selected_per_client = static_cast<double>(selected_) / builds;
  result.skipped_per_client = static_cast<double>(skipped_) / builds;
  const TickFigure bytes = figure_of(message_bytes_);
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
      {"phase_wall_ms", {{"frame", r.frame_ms}, {"compose", r.compose_ms}, {"encode", r.encode_ms}}},
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
  out += fmt::format("  phases (wall, per tick)  frame {:.3f} ms  compose {:.3f} ms  encode {:.3f} ms  (total {:.3f})\n",
                     r.frame_ms, r.compose_ms, r.encode_ms, r.wall_mean_ms);
  out += fmt::format("  snapshots                mean {:.0f} B  max {:.0f} B  baseline age {:.1f} ticks  fragmented {}  refused {}\n",
                     r.message_bytes_mean, r.message_bytes_max, r.baseline_age_mean, r.fragmented, r.refused);
  out += fmt::format("  budget fitting           {} loose (nothing estimated), {} fitted again\n", r.loose, r.refits);
  out += fmt::format("  decoded and compared     {} bodies, {} mismatches: {}\n", r.verified, r.mismatches,
                     r.correct() ? "ok" : "WRONG");
  return out;
}

}  // namespace tickwire::bench

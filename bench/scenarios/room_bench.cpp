// Scenario (e), the room, full stack (see room_bench.h): the rig (SimNetwork or loopback UDP), the
// lockstep loop that times the server's update alone, and the report.
#include "room_bench.h"

#include <algorithm>
#include <memory>
#include <optional>

#include <fmt/format.h>

#include "room_bench_client.h"
#include "room_bench_map.h"
#include "tickwire/clock/sim_host_timer.h"
#include "tickwire/fleet/work_clock.h"
#include "tickwire/protocol/wire_messages.h"
#include "tickwire/server.h"
#include "tickwire/transport/sim_network.h"
#include "tickwire/transport/udp_socket.h"
#include "tickwire/world/map_loader.h"
#include "tickwire/world/reference_game.h"

namespace tickwire::bench {
namespace {

constexpr Duration kJoinLimit = Duration::seconds(30);  // every client in, or the run reports who is not
constexpr uint32_t kWarmTicks = 60;                     // after the last join, before measuring
constexpr int32_t kTokenTimeoutSeconds = 10;
constexpr uint64_t kTokenExpireSeconds = 3600;
const WallTime kWallAtStart = WallTime::from_seconds(1.8e9);

// Where the datagrams go: the simulated network (delivered on the run's clock) or the kernel's
// loopback (delivered as they are sent).
class Rig {
 public:
  virtual ~Rig() = default;
  virtual DatagramSocket& server_socket() = 0;
  virtual std::unique_ptr<DatagramSocket> client_socket(uint32_t index) = 0;
  virtual void deliver(MonoTime now) = 0;
};

class SimRig final : public Rig {
 public:
  SimRig(uint64_t seed, const LinkModel& link) : net_(seed) {
    net_.set_default_link(link);
    server_ = net_.bind(Address::ipv4(10, 0, 0, 1, 40000));
  }
  DatagramSocket& server_socket() override { return *server_; }
  std::unique_ptr<DatagramSocket> client_socket(uint32_t index) override {
    return net_.bind(Address::ipv4(10, 1, static_cast<uint8_t>(index >> 8), static_cast<uint8_t>(index), 50000));
  }
  void deliver(MonoTime now) override { net_.advance_to(now); }

 private:
  SimNetwork net_;
  std::unique_ptr<SimSocket> server_;
};

class UdpRig final : public Rig {
 public:
  UdpRig() {
    auto opened = UdpSocket::open(Address::ipv4(127, 0, 0, 1, 0));
    TW_ASSERT(opened, "the room bench binds a loopback socket");
    server_ = std::move(opened.socket);
  }
  DatagramSocket& server_socket() override { return *server_; }
  std::unique_ptr<DatagramSocket> client_socket(uint32_t) override {
    auto opened = UdpSocket::open(Address::ipv4(127, 0, 0, 1, 0));
    TW_ASSERT(opened, "the room bench binds a client's loopback socket");
    return std::move(opened.socket);
  }
  void deliver(MonoTime) override {}

 private:
  std::unique_ptr<UdpSocket> server_;
};

std::unique_ptr<Rig> open_rig(const RoomBenchRequest& request, RoomBenchTransport transport) {
  if (transport == RoomBenchTransport::sim) return std::make_unique<SimRig>(request.seed, request.sim_link);
  return std::make_unique<UdpRig>();
}

netcode::Key bench_key(uint64_t seed) {
  netcode::Key key{};
  for (std::size_t i = 0; i < key.size(); ++i) key[i] = static_cast<uint8_t>((seed >> (8 * (i % 8))) + i);
  return key;
}

RoomPolicy bench_policy(const world::Map& map, uint32_t tick_hz) {
  RoomPolicy policy;
  policy.identity = {"room-bench", "tickwire-reference", "bench", map.content_hash_hex(), "bench", "", ""};
  policy.cadence.tick_rate_hz = tick_hz;
  policy.cadence.snapshot_rate_hz = tick_hz;
  world::apply_reference_policy(policy);
  return policy;
}

// The server, its game and its clients, stepped together one tick at a time.
class RoomBenchRig {
 public:
  RoomBenchRig(const RoomBenchRequest& request, uint32_t clients, RoomBenchTransport transport)
      : rig_(open_rig(request, transport)),
        map_(load_bench_map(clients, request.spacing_m)),
        game_(map_),
        timer_(MonoTime{}, SleepModel::exact()),
        cache_(protocol::protocol_messages().schema_text()),
        step_(Duration::from_seconds(1.0 / request.tick_hz)) {
    const netcode::Key key = bench_key(request.seed);
    ServerConfig config;
    config.private_key = key;
    config.public_address = rig_->server_socket().local_address().to_string();
    config.max_clients = clients;
    config.policy = bench_policy(map_, request.tick_hz);
    config.socket = &rig_->server_socket();
    config.timer = &timer_;
    config.wall_at_start = kWallAtStart;
    ServerOpen opened = Server::open(config, game_);
    TW_ASSERT(opened, "the room bench's server opens");
    server_ = std::move(opened.server);
    for (uint32_t i = 0; i < clients; ++i) add_client(key, i, request.seed);
  }

  // Steps until every client sends inputs and has a snapshot (or the join limit), then warms up.
  // `run` takes the count joined and the server's cost of the joins.
  void join(RoomBenchRun& run) {
    const MonoTime limit = now_ + kJoinLimit;
    while (now_ < limit && joined() < clients_.size()) {
      double ms = 0;
      step(&ms);
      run.join_ms_total += ms;
      run.join_ms_max = std::max(run.join_ms_max, ms);
    }
    for (uint32_t i = 0; i < kWarmTicks; ++i) step(nullptr);
    run.joined = joined();
  }

  // One tick: every client's frame, then the server's update, timed on this thread's CPU clock.
  // Returns the ticks the server ran.
  uint32_t step(double* server_ms) {
    now_ += step_;
    rig_->deliver(now_);
    const Duration clients_started = cpu_.spent();
    for (auto& c : clients_) c->frame(now_);
    clients_spent_ += cpu_.spent() - clients_started;
    rig_->deliver(now_);
    const Duration started = cpu_.spent();
    const ServerUpdate update = server_->update(now_);
    if (server_ms != nullptr) *server_ms = (cpu_.spent() - started).seconds_f() * 1e3;
    rig_->deliver(now_);
    return update.ticks_run;
  }

  const std::vector<std::unique_ptr<RoomBenchClient>>& clients() const { return clients_; }
  Duration clients_spent() const { return clients_spent_; }

 private:
  static world::Map load_bench_map(uint32_t players, float spacing_m) {
    RoomBenchMap shape;
    shape.players = players;
    shape.spacing_m = spacing_m;
    auto loaded = world::load_map(room_bench_map_text(shape));
    TW_ASSERT(loaded.ok(), "the room bench's map loads");
    return std::move(loaded).value();
  }

  void add_client(const netcode::Key& key, uint32_t index, uint64_t seed) {
    netcode::ConnectTokenParams params;
    params.client_id = 1 + index;
    params.server_addresses.add(rig_->server_socket().local_address());
    params.timeout_seconds = kTokenTimeoutSeconds;
    params.expire_seconds = kTokenExpireSeconds;
    auto token = netcode::generate_connect_token(params, key, kWallAtStart);
    TW_ASSERT(token.ok(), "the room bench mints its tokens");
    clients_.push_back(std::make_unique<RoomBenchClient>(rig_->client_socket(index), cache_, seed * 1000003u + index));
    clients_.back()->connect(token.value(), now_);
  }

  uint32_t joined() const {
    return static_cast<uint32_t>(std::count_if(clients_.begin(), clients_.end(),
                                               [](const auto& c) { return c->sending() && c->snapshots() > 0; }));
  }

  std::unique_ptr<Rig> rig_;
  world::Map map_;
  world::ReferenceGame game_;
  SimHostTimer timer_;
  SchemaCache cache_;
  std::unique_ptr<Server> server_;
  std::vector<std::unique_ptr<RoomBenchClient>> clients_;
  ThreadCpuClock cpu_;
  Duration step_;
  Duration clients_spent_;
  MonoTime now_;
};

// What every client took in, summed.
struct ClientTotals {
  uint64_t snapshots = 0, bytes = 0, records = 0, drops = 0;
};
ClientTotals totals_of(const std::vector<std::unique_ptr<RoomBenchClient>>& clients) {
  ClientTotals t;
  for (const auto& c : clients) {
    t.snapshots += c->snapshots();
    t.bytes += c->snapshot_bytes();
    t.records += c->records();
    t.drops += c->session().drops().total();
  }
  return t;
}

double per(uint64_t amount, uint64_t count) { return count == 0 ? 0.0 : static_cast<double>(amount) / static_cast<double>(count); }

}  // namespace

std::string_view room_bench_transport_name(RoomBenchTransport transport) {
  return transport == RoomBenchTransport::sim ? "sim" : "udp";
}

double RoomBenchRun::tick_budget_ms() const { return 1000.0 / tick_hz; }

bool RoomBenchRun::correct() const {
  // A snapshot every tick for every client, bar the lockstep's first and last.
  return joined == clients && client_drops == 0 && snapshots_per_client_s >= 0.95 * tick_hz;
}

RoomBenchRun run_room(const RoomBenchRequest& request, uint32_t clients, RoomBenchTransport transport) {
  RoomBenchRig rig(request, clients, transport);
  RoomBenchRun run;
  run.clients = clients;
  run.transport = transport;
  run.tick_hz = request.tick_hz;
  rig.join(run);
  const ClientTotals before = totals_of(rig.clients());
  const Duration clients_before = rig.clients_spent();
  std::vector<double> server_ms;
  server_ms.reserve(request.ticks);
  for (uint32_t i = 0; i < request.ticks; ++i) {
    double ms = 0;
    run.ticks += rig.step(&ms);
    server_ms.push_back(ms);
  }
  const ClientTotals after = totals_of(rig.clients());
  run.server_ms = Summary::of(server_ms);
  run.us_per_client_tick = run.server_ms.mean * 1e3 / clients;
  run.clients_ms_mean = (rig.clients_spent() - clients_before).seconds_f() * 1e3 / request.ticks;
  run.snapshot_bytes_mean = per(after.bytes - before.bytes, after.snapshots - before.snapshots);
  run.records_mean = per(after.records - before.records, after.snapshots - before.snapshots);
  run.snapshots_per_client_s = per(after.snapshots - before.snapshots, uint64_t{clients}) * request.tick_hz / request.ticks;
  run.client_drops = after.drops;
  return run;
}

RoomBenchResult run_room_bench(const RoomBenchRequest& request) {
  RoomBenchResult result;
  result.request = request;
  for (RoomBenchTransport transport : request.transports) {
    for (uint32_t n : request.clients) result.runs.push_back(run_room(request, n, transport));
  }
  return result;
}

bool RoomBenchResult::correct() const {
  return std::all_of(runs.begin(), runs.end(), [](const RoomBenchRun& r) { return r.correct(); });
}

std::vector<RoomBenchResult::Capacity> RoomBenchResult::capacity() const {
  std::vector<Capacity> out;
  for (RoomBenchTransport transport : request.transports) {
    Capacity c;
    c.transport = transport;
    const RoomBenchRun* largest = nullptr;
    for (const RoomBenchRun& r : runs) {
      if (r.transport != transport || !r.held() || r.clients < c.largest_held) continue;
      c.largest_held = r.clients;
      largest = &r;
    }
    if (largest != nullptr && largest->us_per_client_tick > 0) c.projected = largest->tick_budget_ms() * 1e3 / largest->us_per_client_tick;
    out.push_back(c);
  }
  return out;
}

}  // namespace tickwire::bench

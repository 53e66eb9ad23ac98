// The delta codec on synthetic versions of the bandwidth scenarios (SCENARIOS.md), for tuning the
// body format: (a) 1,583 resting lights and one walking pawn at 60 Hz, (b) 901 cubes tumbling and
// settling at 60 Hz, (c) 250 bodies on smooth curved paths, spinning, at 30 Hz. Baselines are
// what a client with a 100 ms round trip and 5% snapshot loss would have acknowledged. Prints
// bytes and bits per record (every body is also decoded and checked exact), then times encoding.
// The real scenario benches (Bullet trace, exact motion rules) are `tickwire bench`'s business.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <vector>

#include "tickwire/core/rng.h"
#include "tickwire/replication/frames/smallest_three.h"
#include "tickwire/replication/delta/snapshot_delta_codec.h"

namespace replica_delta_bench {

using namespace tickwire;

constexpr std::size_t kMessageOverheadBytes = 1 + 4 + 16 + 1 + 1 + 1 + 2;  // id, tick, hash, rev, ages, length

struct Quatd {
  double x = 0, y = 0, z = 0, w = 1;
};

Quatd normalized(Quatd q) {
  const double n = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
  return {q.x / n, q.y / n, q.z / n, q.w / n};
}

// q advanced by angular velocity w (rad/s, world frame) over dt seconds.
Quatd spin(const Quatd& q, double wx, double wy, double wz, double dt) {
  const double rate = std::sqrt(wx * wx + wy * wy + wz * wz);
  if (rate < 1e-12) return q;
  const double half = 0.5 * rate * dt, s = std::sin(half) / rate;
  const Quatd d{wx * s, wy * s, wz * s, std::cos(half)};
  return normalized({d.w * q.x + d.x * q.w + d.y * q.z - d.z * q.y, d.w * q.y - d.x * q.z + d.y * q.w + d.z * q.x,
                     d.w * q.z + d.x * q.y - d.y * q.x + d.z * q.w, d.w * q.w - d.x * q.x - d.y * q.y - d.z * q.z});
}

void set_rotation(ReplicaState& s, const Quatd& q, int32_t max_step) {
  const SmallestThree t = pack_smallest_three(wire::Quat{float(q.x), float(q.y), float(q.z), float(q.w)}, max_step);
  s.has_rotation = true;
  s.rotation_largest = t.largest;
  s.rotation = t.steps;
}

int32_t quant(double v, double q) { return static_cast<int32_t>(std::llround(v / q)); }

// A client's view: frames it received (5% lost), acknowledged after `rtt_ticks`.
struct Client {
  Rng loss{99};
  uint32_t rtt_ticks;
  uint32_t older_gap;
  std::deque<ReplicaFrame> received;
  const ReplicaFrame* rest = nullptr;

  Client(uint32_t rtt, uint32_t gap) : rtt_ticks(rtt), older_gap(gap) {}

  DeltaRefs refs(uint32_t tick) const {
    const ReplicaFrame* baseline = nullptr;
    const ReplicaFrame* older = nullptr;
    for (auto it = received.rbegin(); it != received.rend(); ++it) {
      if (baseline == nullptr && it->tick + rtt_ticks <= tick) {
        baseline = &*it;
      } else if (baseline != nullptr && it->tick + older_gap <= baseline->tick) {
        older = &*it;
        break;
      }
    }
    if (baseline == nullptr) return {rest, nullptr};
    return {baseline, older};
  }
  void deliver(const ReplicaFrame& frame) {
    if (loss.chance(0.05)) return;
    received.push_back(frame);
    while (received.size() > 40) received.pop_front();
  }
};

struct Tally {
  const char* name = "";
  std::size_t ticks = 0, body_bytes = 0, max_body = 0, changed = 0, unchanged = 0, record_bits = 0, skip_bits = 0;
  std::vector<std::size_t> bodies;

  void add(const std::vector<uint8_t>& body, const DeltaBodyStats& s) {
    ++ticks;
    body_bytes += body.size();
    bodies.push_back(body.size());
    max_body = std::max(max_body, body.size());
    changed += s.changed + s.added;
    unchanged += s.unchanged;
    record_bits += s.entity_bits + s.object_bits;
    skip_bits += s.skip_bits + s.header_bits + s.removal_bits;
  }
  void print(std::size_t records_per_tick) {
    std::sort(bodies.begin(), bodies.end());
    const double mean = double(body_bytes) / double(ticks);
    std::printf("%s: %zu ticks, body mean %.1f p99 %zu max %zu bytes; message mean %.1f bytes\n", name, ticks, mean,
                bodies[bodies.size() * 99 / 100], max_body, mean + kMessageOverheadBytes);
    std::printf("  changed %.1f/tick at %.2f bits each (records only); unchanged %.1f/tick; skip+header %.2f bits/tick\n",
                double(changed) / double(ticks), double(record_bits) / double(std::max<std::size_t>(changed, 1)),
                double(unchanged) / double(ticks), double(skip_bits) / double(ticks));
    std::printf("  whole body per changed record %.2f bits; message per record %.3f bytes\n",
                8.0 * double(body_bytes) / double(std::max<std::size_t>(changed, 1)),
                (mean + kMessageOverheadBytes) / double(records_per_tick));
  }
};

void run_tick(Client& client, const ReplicaFrame& frame, const ReplicaKinds& kinds, Tally& tally) {
  static std::vector<uint8_t> body;
  static ReplicaFrame decoded;
  const DeltaRefs refs = client.refs(frame.tick);
  auto stats = encode_snapshot_delta(frame, refs, kinds, body);
  if (!stats.ok() || !decode_snapshot_delta(body, frame.tick, refs, kinds, decoded).ok() || !(decoded == frame)) {
    std::printf("ROUND TRIP FAILED at tick %u\n", frame.tick);
    std::exit(1);
  }
  tally.add(body, stats.value());
  client.deliver(frame);
}

// (a): lights at rest in the rest frame, one pawn walking a 20 m square at 4 m/s.
void scenario_a(uint32_t older_gap) {
  const ReplicaKinds kinds = ReplicaKinds::defaults();
  ReplicaFrame rest;
  for (uint32_t i = 0; i < 1583; ++i) {
    ReplicaState s;
    s.id = 100 + i;
    s.form = ReplicaForm::object;
    s.object_index = i;
    s.payload_count = 1;
    s.payloads[0] = ReplicaPayload{1, 3, 1, 0, {1.0f, 0.9f, 0.7f, 0}};
    rest.states.push_back(s);
  }
  Client client(6, older_gap);
  client.rest = &rest;
  float px = 0, py = 0;
  Tally tally;
  tally.name = "(a) 1583 lights + walking pawn, 60 Hz";
  for (uint32_t tick = 1; tick <= 600 + 60; ++tick) {
    const int side = static_cast<int>((tick / 300) % 4);  // 300 ticks = 20 m at 4 m/s
    const float vx = side == 0 ? 4.0f : (side == 2 ? -4.0f : 0.0f), vy = side == 1 ? 4.0f : (side == 3 ? -4.0f : 0.0f);
    px += vx / 60.0f;
    py += vy / 60.0f;
    ReplicaFrame f;
    f.tick = tick;
    f.states = rest.states;
    ReplicaState pawn;
    pawn.id = 7;
    pawn.kind = 1;
    pawn.position = {quant(px, 1.0 / 512), quant(py, 1.0 / 512), quant(1.0, 1.0 / 512)};
    pawn.yaw = static_cast<uint16_t>(side * 1024);
    pawn.payload_count = 1;
    pawn.payloads[0].channel_count = 1;
    pawn.payloads[0].channels[0] = 1.6f;  // the eye height channel
    f.states.insert(f.states.begin(), pawn);
    protocol::OwnerDetail owner;
    owner.ack = protocol::InputAck{tick + 3};
    owner.queue_depth = 2;
    owner.pawn.pawn_ref = 0x1000000007;
    owner.pawn.position = {px, py, 1.0f};
    owner.pawn.velocity = {vx, vy, 0};
    owner.pawn.values = protocol::PawnValues{{1.8f}, {1.6f}};
    owner.pawn.flags = 1;
    owner.claim = protocol::ClaimOutcome::accepted;
    f.owner = owner;
    if (tick > 60) {
      run_tick(client, f, kinds, tally);
    } else {
      client.deliver(f);
    }
  }
  tally.print(1584);
}

// (b)-like: 901 cubes; kicked cubes fly, spin, bounce and settle; the rest lie still.
void scenario_b(uint32_t older_gap) {
  const ReplicaKinds kinds = ReplicaKinds::defaults();
  struct Cube {
    double p[3], v[3], w[3];
    Quatd q;
    bool moving = false;
  };
  Rng rng(5);
  std::vector<Cube> cubes(901);
  for (std::size_t i = 0; i < cubes.size(); ++i) {
    Cube& c = cubes[i];
    c.p[0] = -22.5 + 1.5 * double(i % 30);
    c.p[1] = -22.5 + 1.5 * double(i / 30);
    c.p[2] = 0.5;
    for (int k = 0; k < 3; ++k) c.v[k] = c.w[k] = 0;
  }
  Client client(6, older_gap);
  Tally tally;
  tally.name = "(b)-like 901 cubes, 60 Hz";
  const double dt = 1.0 / 60.0;
  std::size_t moving_total = 0;
  for (uint32_t tick = 1; tick <= 900; ++tick) {
    for (Cube& c : cubes) {
      if (!c.moving && rng.chance(0.004)) {
        c.moving = true;
        c.v[0] = rng.unit() * 8 - 4, c.v[1] = rng.unit() * 8 - 4, c.v[2] = 2 + rng.unit() * 5;
        for (double& w : c.w) w = rng.unit() * 12 - 6;
      }
      if (!c.moving) continue;
      c.v[2] -= 9.81 * dt;
      for (int k = 0; k < 3; ++k) c.p[k] += c.v[k] * dt;
      c.q = spin(c.q, c.w[0], c.w[1], c.w[2], dt);
      if (c.p[2] < 0.5) {  // a bounce: restitution, friction, spin damped
        c.p[2] = 0.5;
        c.v[2] = -0.35 * c.v[2];
        for (int k = 0; k < 2; ++k) c.v[k] *= 0.6;
        for (double& w : c.w) w *= 0.5;
        const double speed = std::fabs(c.v[0]) + std::fabs(c.v[1]) + std::fabs(c.v[2]);
        if (speed < 0.3) c.moving = false;
      }
    }
    ReplicaFrame f;
    f.tick = tick;
    for (std::size_t i = 0; i < cubes.size(); ++i) {
      ReplicaState s;
      s.id = static_cast<uint32_t>(i + 1);
      s.kind = 2;
      s.position = {quant(cubes[i].p[0], 1.0 / 512), quant(cubes[i].p[1], 1.0 / 512), quant(cubes[i].p[2], 1.0 / 512)};
      set_rotation(s, cubes[i].q, rotation_max_step(9));
      s.payload_count = 1;
      f.states.push_back(s);
      moving_total += cubes[i].moving && tick > 60 ? 1 : 0;
    }
    if (tick > 60) {
      run_tick(client, f, kinds, tally);
    } else {
      client.deliver(f);
    }
  }
  tally.print(901);
  std::printf("  (moving cubes %.1f/tick)\n", double(moving_total) / double(tally.ticks));
}

// (c): 250 bodies on sums of sinusoids, spinning at 0.5-3 rad/s about a slowly turning axis.
void scenario_c(uint32_t older_gap, uint16_t rotation_steps) {
  ReplicaKinds kinds = ReplicaKinds::defaults();
  kinds.set(2, ReplicaPrecision{0.02f, 9, rotation_steps});
  struct Body {
    double amp[3][3], freq[3][3], phase[3][3];
    double rate, axis_freq, axis_phase;
    Quatd q;
  };
  Rng rng(17);
  std::vector<Body> bodies(250);
  for (Body& b : bodies) {
    const double speed = 2 + rng.unit() * 8;
    for (int a = 0; a < 3; ++a) {
      for (int k = 0; k < 3; ++k) {
        b.freq[a][k] = 0.1 + rng.unit() * 0.4;  // rad/s
        b.amp[a][k] = (a == 2 ? 0.2 : 1.0) * speed / (b.freq[a][k] * 3.0);
        b.phase[a][k] = rng.unit() * 6.283;
      }
    }
    b.rate = 0.5 + rng.unit() * 2.5;
    b.axis_freq = 0.05 + rng.unit() * 0.1;
    b.axis_phase = rng.unit() * 6.283;
  }
  Client client(3, older_gap);
  Tally tally;
  tally.name = "(c) 250 bodies, 30 Hz";
  const double dt = 1.0 / 30.0;
  double max_angle_error = 0;
  for (uint32_t tick = 1; tick <= 1800; ++tick) {
    const double t = tick * dt;
    ReplicaFrame f;
    f.tick = tick;
    for (std::size_t i = 0; i < bodies.size(); ++i) {
      Body& b = bodies[i];
      const double ax = std::cos(b.axis_freq * t + b.axis_phase), ay = std::sin(b.axis_freq * t + b.axis_phase);
      b.q = spin(b.q, b.rate * ax * 0.8, b.rate * ay * 0.8, b.rate * 0.6, dt);
      ReplicaState s;
      s.id = static_cast<uint32_t>(i + 1);
      s.kind = 2;
      for (int a = 0; a < 3; ++a) {
        double p = 0;
        for (int k = 0; k < 3; ++k) p += b.amp[a][k] * std::sin(b.freq[a][k] * t + b.phase[a][k]);
        s.position[a] = quant(p, 0.02);
      }
      set_rotation(s, b.q, rotation_steps);
      const wire::Quat back = unpack_smallest_three({s.rotation_largest, s.rotation}, rotation_steps);
      const double dot = std::fabs(back.x * b.q.x + back.y * b.q.y + back.z * b.q.z + back.w * b.q.w);
      max_angle_error = std::max(max_angle_error, 2 * std::acos(std::min(1.0, dot)));
      s.payload_count = 1;
      f.states.push_back(s);
    }
    if (tick > 30) {
      run_tick(client, f, kinds, tally);
    } else {
      client.deliver(f);
    }
  }
  tally.print(250);
  std::printf("  rotation max step %u: max angle error %.5f rad\n", rotation_steps, max_angle_error);
}

// Encoding cost: 60 visible entities, most moving, against a 6-tick baseline and an older frame.
void BM_EncodeSixtyMoving(benchmark::State& state) {
  const ReplicaKinds kinds = ReplicaKinds::defaults();
  Rng rng(3);
  ReplicaFrame older, baseline, current;
  older.tick = 94, baseline.tick = 100, current.tick = 106;
  for (uint32_t i = 0; i < 60; ++i) {
    ReplicaState s;
    s.id = i * 7 + 1;
    s.kind = 1;
    const int32_t v[3] = {int32_t(rng.between(-40, 40)), int32_t(rng.between(-40, 40)), int32_t(rng.between(-3, 3))};
    for (int a = 0; a < 3; ++a) s.position[a] = int32_t(rng.between(-100000, 100000));
    s.yaw = uint16_t(rng.below(4096));
    s.payload_count = 1;
    older.states.push_back(s);
    for (int a = 0; a < 3; ++a) s.position[a] += 6 * v[a];
    baseline.states.push_back(s);
    for (int a = 0; a < 3; ++a) s.position[a] += 6 * v[a] + int32_t(rng.between(-3, 3));
    if (i % 4 == 0) s.yaw = uint16_t((s.yaw + 10) & 4095);
    current.states.push_back(s);
  }
  std::vector<uint8_t> body;
  body.reserve(4096);
  for (auto _ : state) {
    auto stats = encode_snapshot_delta(current, {&baseline, &older}, kinds, body);
    benchmark::DoNotOptimize(stats);
  }
  state.counters["bytes"] = double(body.size());
  state.counters["ns_per_record"] =
      benchmark::Counter(double(state.iterations()) * 60.0, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_EncodeSixtyMoving);

}  // namespace replica_delta_bench

int main(int argc, char** argv) {
  using tickwire::ReplicaPrecision;
  const uint32_t gap = argc > 1 && argv[1][0] != '-' ? static_cast<uint32_t>(std::atoi(argv[1])) : 6;
  replica_delta_bench::scenario_a(gap);
  replica_delta_bench::scenario_b(gap);
  replica_delta_bench::scenario_c(gap == 6 ? 3 : gap, tickwire::rotation_steps_for_angle(0.001));
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

// The cost of a field-table walk against a hand-written straight-line codec of the same layout:
// a 50-record message (entity id varint, kind, position, bit-packed look angles, eye height,
// flags) encoded, measured and decoded both ways. Reports ns/record; the goal is the field table
// within 1.5x of hand-written.
#include <benchmark/benchmark.h>

#include <cstring>
#include <vector>

#include "tickwire/core/bit_reader.h"
#include "tickwire/core/bit_writer.h"
#include "tickwire/core/bytes.h"
#include "tickwire/core/rng.h"
#include "tickwire/core/varint.h"
#include "tickwire/wire/codec.h"
#include "tickwire/wire/quantize.h"

namespace wire_bench {

using namespace tickwire;
constexpr wire::QuantSpec kAngle{0.0, 360.0, 360.0 / 4095.0};
constexpr int kRecords = 50;

struct BenchRecord {
  static constexpr std::string_view wire_name = "BenchRecord";
  uint32_t entity_id = 0;
  uint8_t kind = 0;
  float x = 0, y = 0, z = 0;
  float yaw = 0, pitch = 0;
  float eye_height = 0;
  uint8_t flags = 0;
  template <class W>
  void fields(W& w) {
    w.varu32("entityId", entity_id);
    w.u8("kind", kind);
    w.f32("x", x);
    w.f32("y", y);
    w.f32("z", z);
    w.bits("look", [&](auto& b) {
      b.quant("yaw", yaw, kAngle);
      b.quant("pitch", pitch, kAngle);
    });
    w.f32("eyeHeight", eye_height);
    w.u8("flags", flags);
  }
};

struct BenchMessage {
  static constexpr std::string_view wire_name = "BenchMessage";
  uint32_t tick = 0;
  std::vector<BenchRecord> records;
  template <class W>
  void fields(W& w) {
    w.u32("tick", tick);
    w.list8("records", records, 0, 255);
  }
};

BenchMessage make_message() {
  Rng rng(5);
  BenchMessage m;
  m.tick = 1000;
  for (int i = 0; i < kRecords; ++i) {
    BenchRecord r;
    r.entity_id = static_cast<uint32_t>(rng.below(100000));
    r.kind = static_cast<uint8_t>(rng.below(6));
    r.x = static_cast<float>(rng.unit() * 100);
    r.y = static_cast<float>(rng.unit() * 100);
    r.z = static_cast<float>(rng.unit() * 10);
    r.yaw = static_cast<float>(rng.unit() * 360);
    r.pitch = static_cast<float>(rng.unit() * 360);
    r.eye_height = 1.6f;
    r.flags = static_cast<uint8_t>(rng.below(16));
    m.records.push_back(r);
  }
  return m;
}

// ---- the same layout, written by hand --------------------------------------------------------
std::size_t hand_encode(const BenchMessage& m, uint8_t* out, std::size_t cap) {
  std::size_t pos = 0;
  if (cap < 5) return 0;
  store_le<uint32_t>(out, m.tick);
  out[4] = static_cast<uint8_t>(m.records.size());
  pos = 5;
  for (const auto& r : m.records) {
    if (cap - pos < 5 + 1 + 12 + 3 + 4 + 1) return 0;
    pos += varint_write(r.entity_id, out + pos);
    out[pos++] = r.kind;
    store_le<float>(out + pos, r.x);
    store_le<float>(out + pos + 4, r.y);
    store_le<float>(out + pos + 8, r.z);
    pos += 12;
    BitWriter bw(std::span<uint8_t>(out + pos, 3));
    bw.write(wire::quantize(r.yaw, kAngle), 12);
    bw.write(wire::quantize(r.pitch, kAngle), 12);
    pos += 3;
    store_le<float>(out + pos, r.eye_height);
    pos += 4;
    out[pos++] = r.flags;
  }
  return pos;
}

std::size_t hand_measure(const BenchMessage& m) {
  std::size_t n = 5;
  for (const auto& r : m.records) n += varint_size(r.entity_id) + 1 + 12 + 3 + 4 + 1;
  return n;
}

bool hand_decode(const uint8_t* in, std::size_t size, BenchMessage& m) {
  if (size < 5) return false;
  m.tick = load_le<uint32_t>(in);
  m.records.resize(in[4]);
  std::size_t pos = 5;
  for (auto& r : m.records) {
    uint64_t id = 0;
    std::size_t used = 0;
    if (!varint_read(std::span<const uint8_t>(in + pos, size - pos), 32, id, used)) return false;
    r.entity_id = static_cast<uint32_t>(id);
    pos += used;
    if (size - pos < 1 + 12 + 3 + 4 + 1) return false;
    r.kind = in[pos++];
    r.x = load_le<float>(in + pos);
    r.y = load_le<float>(in + pos + 4);
    r.z = load_le<float>(in + pos + 8);
    pos += 12;
    BitReader br(std::span<const uint8_t>(in + pos, 3));
    r.yaw = static_cast<float>(wire::dequantize(br.read(12), kAngle));
    r.pitch = static_cast<float>(wire::dequantize(br.read(12), kAngle));
    pos += 3;
    r.eye_height = load_le<float>(in + pos);
    pos += 4;
    r.flags = in[pos++];
  }
  return pos == size;
}

void set_per_record(benchmark::State& state) {
  state.SetItemsProcessed(state.iterations() * kRecords);
  state.counters["ns/record"] =
      benchmark::Counter(static_cast<double>(state.iterations() * kRecords), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void BM_FieldTable_Encode(benchmark::State& state) {
  const BenchMessage m = make_message();
  std::vector<uint8_t> buf(2048);
  for (auto _ : state) {
    auto n = wire::encode(m, buf);
    benchmark::DoNotOptimize(n);
    benchmark::DoNotOptimize(buf.data());
  }
  set_per_record(state);
}
void BM_HandWritten_Encode(benchmark::State& state) {
  const BenchMessage m = make_message();
  std::vector<uint8_t> buf(2048);
  for (auto _ : state) {
    auto n = hand_encode(m, buf.data(), buf.size());
    benchmark::DoNotOptimize(n);
    benchmark::DoNotOptimize(buf.data());
  }
  set_per_record(state);
}
void BM_FieldTable_Measure(benchmark::State& state) {
  const BenchMessage m = make_message();
  for (auto _ : state) benchmark::DoNotOptimize(wire::measure(m));
  set_per_record(state);
}
void BM_HandWritten_Measure(benchmark::State& state) {
  const BenchMessage m = make_message();
  for (auto _ : state) benchmark::DoNotOptimize(hand_measure(m));
  set_per_record(state);
}
void BM_FieldTable_Decode(benchmark::State& state) {
  const BenchMessage m = make_message();
  std::vector<uint8_t> buf(2048);
  const std::size_t n = *wire::encode(m, buf);
  BenchMessage out;
  for (auto _ : state) {
    auto s = wire::decode(std::span<const uint8_t>(buf.data(), n), out);
    benchmark::DoNotOptimize(s);
    benchmark::DoNotOptimize(out.records.data());
  }
  set_per_record(state);
}
void BM_HandWritten_Decode(benchmark::State& state) {
  const BenchMessage m = make_message();
  std::vector<uint8_t> buf(2048);
  const std::size_t n = hand_encode(m, buf.data(), buf.size());
  BenchMessage out;
  for (auto _ : state) {
    bool ok = hand_decode(buf.data(), n, out);
    benchmark::DoNotOptimize(ok);
    benchmark::DoNotOptimize(out.records.data());
  }
  set_per_record(state);
}

BENCHMARK(BM_FieldTable_Encode);
BENCHMARK(BM_HandWritten_Encode);
BENCHMARK(BM_FieldTable_Measure);
BENCHMARK(BM_HandWritten_Measure);
BENCHMARK(BM_FieldTable_Decode);
BENCHMARK(BM_HandWritten_Decode);

}  // namespace wire_bench

BENCHMARK_MAIN();

// What reading another build costs: a 50-record RecordBatch decoded by the typed reader (the
// reference), walked with the schema alone into a DynTree, written back by the dynamic encoder,
// and carried through a plan both ways a plan can carry it (rewritten value by value, or walked
// and copied when the layout did not move). Reports ns/record.
#include <benchmark/benchmark.h>

#include <vector>

#include "tickwire/core/rng.h"
#include "tickwire/protocol/record_batch.h"
#include "tickwire/protocol/wire_messages.h"
#include "tickwire/wire/codec.h"
#include "tickwire/wire/dyn_encoder.h"
#include "tickwire/wire/schema_parser.h"
#include "tickwire/wire/schema_walker.h"
#include "tickwire/wire/wire_plan.h"

namespace wire_plan_bench {

using namespace tickwire;
constexpr int kRecords = 50;

std::vector<uint8_t> batch_bytes() {
  Rng rng(11);
  protocol::RecordBatch batch;
  batch.tick = 1000;
  for (int i = 0; i < kRecords; ++i) {
    protocol::EntityRecord e;
    e.kind = 2;
    e.position = {static_cast<float>(rng.unit() * 100), static_cast<float>(rng.unit() * 10), static_cast<float>(rng.unit() * 100)};
    e.yaw_deg = static_cast<float>(rng.unit() * 360);
    e.pitch_deg = static_cast<float>(rng.unit() * 90);
    e.flags = 1;
    if (i % 3 == 0) e.rotation = protocol::Rotation{wire::Quat{0, 0.38268343f, 0, 0.9238795f}};
    e.payload.channels = {protocol::KindChannel{0.5f}};
    batch.records.push_back(protocol::Record{static_cast<uint32_t>(i + 1), e});
  }
  batch.record_count = kRecords;
  std::vector<uint8_t> out(wire::measure(batch));
  (void)wire::encode(batch, out);
  return out;
}

const wire::Schema& schema() {
  static const wire::Schema s = std::move(wire::parse_schema(protocol::protocol_messages().schema_text()).value());
  return s;
}

void per_record(benchmark::State& state) {
  state.counters["ns/record"] = benchmark::Counter(static_cast<double>(state.iterations()) * kRecords,
                                                   benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void BM_TypedDecode(benchmark::State& state) {
  const auto bytes = batch_bytes();
  protocol::RecordBatch batch;
  for (auto _ : state) benchmark::DoNotOptimize(wire::decode(bytes, batch));
  per_record(state);
}

void BM_SchemaWalk(benchmark::State& state) {
  const auto bytes = batch_bytes();
  wire::DynTree tree;
  const auto& message = *schema().find_message("recordBatch");
  for (auto _ : state) benchmark::DoNotOptimize(wire::decode_message(schema(), message, bytes, tree));
  per_record(state);
}

void BM_DynamicEncode(benchmark::State& state) {
  const auto bytes = batch_bytes();
  wire::DynTree tree;
  (void)wire::decode_message(schema(), *schema().find_message("recordBatch"), bytes, tree);
  std::vector<uint8_t> out;
  for (auto _ : state) {
    out.clear();
    benchmark::DoNotOptimize(wire::encode_dynamic(tree.root(), out));
  }
  per_record(state);
}

void translate(benchmark::State& state, bool copy_unchanged) {
  const auto bytes = batch_bytes();
  const std::string& text = protocol::protocol_messages().schema_text();
  wire::PlanOptions options;
  options.copy_unchanged = copy_unchanged;
  auto plan = std::move(wire::WirePlan::build(text, text, options).value());
  std::vector<uint8_t> out;
  for (auto _ : state) {
    out.clear();
    benchmark::DoNotOptimize(plan.translate(protocol::RecordBatch::wire_id, wire::Direction::server_to_client, bytes, out));
  }
  per_record(state);
}
void BM_PlanRewrite(benchmark::State& state) { translate(state, false); }
void BM_PlanCopy(benchmark::State& state) { translate(state, true); }

BENCHMARK(BM_TypedDecode);
BENCHMARK(BM_SchemaWalk);
BENCHMARK(BM_DynamicEncode);
BENCHMARK(BM_PlanRewrite);
BENCHMARK(BM_PlanCopy);

}  // namespace wire_plan_bench

BENCHMARK_MAIN();

// The seed corpus of fuzz_rest_table_chunk (tests/fixtures/fuzz/fuzz_rest_table_chunk/): chunk
// streams cut from real tables, so the fuzzer starts with tables that complete, replace each
// other, get abandoned and break the rules. Checked here to be what they claim (each stream's
// effect on an assembler); regenerated with TICKWIRE_FUZZ_SEEDS=write.
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <string>

#include "rest_table_support.h"
#include "fuzz_seed_check.h"
#include "support.h"
#include "tickwire/core/bytes.h"
#include "tickwire/replication/rest_table/map_rest_table.h"
#include "tickwire/replication/rest_table/rest_table_assembler.h"
#include "tickwire/wire/codec.h"

namespace tickwire {
namespace {

using protocol::RestTableChunk;
using Bytes = std::vector<uint8_t>;

struct Seed {
  std::vector<RestTableChunk> chunks;
  uint64_t completed = 0;
  uint64_t refused = 0;
};

// Bare object records (no sections, small ids) so a two-chunk table fits the fuzzer's -max_len.
std::vector<protocol::Record> bare_objects(uint32_t count) {
  std::vector<protocol::Record> out;
  for (uint32_t i = 0; i < count; ++i) out.push_back(protocol::Record{i + 1, protocol::ObjectRecord{i, 1, {}, {}}});
  return out;
}

std::vector<RestTableChunk> table_chunks(uint32_t revision, std::vector<protocol::Record> records) {
  return test::chunks_of(RestTable(revision, std::move(records)));
}

std::map<std::string, Seed> build_seeds() {
  std::map<std::string, Seed> seeds;
  seeds["small_table"] = {table_chunks(1, test::rest_objects(6, 1)), 1, 0};
  seeds["empty_table"] = {table_chunks(4, {}), 1, 0};
  seeds["two_chunks"] = {table_chunks(2, bare_objects(513)), 1, 0};
  {
    Seed s{table_chunks(3, bare_objects(513)), 1, 1};
    const auto newer = table_chunks(5, test::rest_objects(4, 1));
    s.chunks.erase(s.chunks.begin() + 1);  // revision 3 left partial...
    s.chunks.push_back(newer[0]);          // ...abandoned by revision 5, which completes
    s.chunks.push_back(table_chunks(3, bare_objects(513))[1]);  // 3's straggler is stale
    seeds["abandoned_by_newer"] = s;
  }
  {
    Seed s{{}, 1, 0};
    for (uint32_t revision : {1u, 2u}) {
      auto c = table_chunks(revision, test::rest_objects(3, 1));
      s.chunks.insert(s.chunks.end(), c.begin(), c.end());
    }
    s.completed = 2;
    seeds["replaced"] = s;
  }
  {
    Seed s{{}, 0, 0};
    auto good = table_chunks(7, test::rest_objects(5, 1))[0];
    auto zero = good, over = good, index = good, entity = good, order = good;
    zero.revision = 0;
    over.chunk_count = 200;
    index.chunk_index = 1;
    index.revision = 8;
    entity.revision = 9;
    entity.records[2].body = protocol::EntityRecord{};
    order.revision = 10;
    std::swap(order.records[0].entity_id, order.records[1].entity_id);
    s.chunks = {zero, over, index, entity, order};
    s.refused = s.chunks.size();
    seeds["hostile_headers"] = s;
  }
  return seeds;
}

Bytes serialize(const Seed& seed) {
  Bytes out;
  for (const RestTableChunk& chunk : seed.chunks) {
    Bytes body(wire::measure(chunk));
    EXPECT_TRUE(wire::encode(chunk, body).ok());
    test::append_length_prefixed(out, body);
  }
  return out;
}

TEST(RestTableChunkFuzzSeeds, CheckedInSeedsAreTheStreamsTheyClaim) {
  const auto dir = test::fixtures_dir() / "fuzz" / "fuzz_rest_table_chunk";
  const ReplicaKinds kinds{};
  for (const auto& [name, seed] : build_seeds()) {
    const Bytes fresh = serialize(seed);
    test::check_fuzz_seed(dir, name, fresh);
    RestTableAssembler assembler(kinds);
    for (const RestTableChunk& chunk : seed.chunks) (void)assembler.accept(chunk);
    EXPECT_EQ(assembler.completed_tables(), seed.completed) << name;
    EXPECT_EQ(assembler.refusals().total(), seed.refused) << name;
    EXPECT_EQ(assembler.stored_chunks() + assembler.refusals().total(), seed.chunks.size()) << name;
  }
}

}  // namespace
}  // namespace tickwire

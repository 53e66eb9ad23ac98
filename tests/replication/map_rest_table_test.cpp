// The server's rest table: a take mints a new server-wide revision and holds the records sorted;
// the table slices into chunks of at most 512 records (ceil(n / 512), one empty chunk for an empty
// table) that wire-encode; and a retake is due exactly when a named entity stops being collected.
#include "tickwire/replication/rest_table/map_rest_table.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "rest_table_support.h"
#include "support.h"
#include "tickwire/protocol/wire_messages.h"
#include "tickwire/wire/codec.h"

namespace tickwire {
namespace {

using test::rest_objects;

std::vector<uint32_t> ids_of(const std::vector<protocol::Record>& records) {
  std::vector<uint32_t> ids;
  for (const auto& r : records) ids.push_back(r.entity_id);
  return ids;
}

TEST(RestRevisions, NeverZeroAndStrictlyIncreasing) {
  RestRevisions revisions;
  EXPECT_EQ(revisions.last(), 0u);
  uint32_t previous = 0;
  for (int i = 0; i < 100; ++i) {
    const uint32_t r = revisions.mint();
    EXPECT_NE(r, 0u);
    EXPECT_GT(r, previous);
    previous = r;
  }
}

TEST(MapRestTable, EveryTakeMintsANewServerWideRevision) {
  const ReplicaKinds kinds{};
  RestRevisions revisions;  // one per server: two rooms' tables never share a revision
  MapRestTable a(kinds), b(kinds);
  EXPECT_FALSE(a.taken());
  const auto records = rest_objects(10);
  a.take(records, revisions);
  b.take(records, revisions);
  a.take(records, revisions);
  EXPECT_EQ(b.revision(), 2u);
  EXPECT_EQ(a.revision(), 3u);
  EXPECT_EQ(a.takes(), 2u);
  EXPECT_EQ(a.table().records().size(), 10u);
}

TEST(MapRestTable, TakeSortsByEntityIdAndAssertsOnAGameError) {
  const ReplicaKinds kinds{};
  RestRevisions revisions;
  MapRestTable table(kinds);
  // Reversed by copying, not by std::reverse: GCC 12 at -O3 reports a false -Wmaybe-uninitialized
  // in the inactive alternative of Record's variant when it swaps two Records through a temporary
  // (the std::optional/std::variant family of GCC bug 80635).
  const auto in_order = rest_objects(20);
  const std::vector<protocol::Record> records(in_order.rbegin(), in_order.rend());
  table.take(records, revisions);
  const auto held = table.table().records();
  EXPECT_TRUE(std::is_sorted(held.begin(), held.end(), [](auto& x, auto& y) { return x.entity_id < y.entity_id; }));
  test::ThrowOnAssert throws;
  auto twice = rest_objects(3);
  twice.push_back(twice[0]);
  EXPECT_THROW(table.take(twice, revisions), test::AssertionFailure) << "duplicate ids";
  auto pawn = rest_objects(3);
  pawn.push_back(protocol::Record{5, protocol::EntityRecord{}});
  EXPECT_THROW(table.take(pawn, revisions), test::AssertionFailure) << "an entity record";
}

void expect_chunks(uint32_t objects, std::size_t expected_chunks) {
  const ReplicaKinds kinds{};
  RestRevisions revisions;
  MapRestTable table(kinds);
  const auto records = rest_objects(objects);
  table.take(records, revisions);
  ASSERT_EQ(table.chunk_count(), expected_chunks) << objects << " objects";
  std::vector<protocol::Record> joined;
  for (std::size_t i = 0; i < table.chunk_count(); ++i) {
    protocol::RestTableChunk chunk;
    table.write_chunk(i, chunk);
    EXPECT_EQ(chunk.revision, table.revision());
    EXPECT_EQ(chunk.object_count, objects);
    EXPECT_EQ(chunk.chunk_index, i);
    EXPECT_EQ(chunk.chunk_count, expected_chunks);
    EXPECT_LE(chunk.records.size(), protocol::RestTableChunkRecords);
    if (i + 1 < expected_chunks) {
      EXPECT_EQ(chunk.records.size(), protocol::RestTableChunkRecords);
    }
    // Each chunk is a well-formed mapRestTable body: it encodes and decodes to itself.
    std::vector<uint8_t> body(wire::measure(chunk));
    ASSERT_TRUE(wire::encode(chunk, body).ok());
    protocol::RestTableChunk back;
    ASSERT_TRUE(wire::decode(body, back).ok());
    EXPECT_EQ(back.records.size(), chunk.records.size());
    EXPECT_EQ(back.chunk_index, chunk.chunk_index);
    joined.insert(joined.end(), chunk.records.begin(), chunk.records.end());
  }
  EXPECT_EQ(ids_of(joined), ids_of(records));
}

TEST(MapRestTable, ChunksTheSeedsImportedMapOf1583ObjectsInFour) { expect_chunks(1583, 4); }
TEST(MapRestTable, ChunksTheReferenceMapOf315ObjectsInOne) { expect_chunks(315, 1); }
TEST(MapRestTable, ChunksExactMultiplesWithoutAnEmptyTail) {
  expect_chunks(512, 1);
  expect_chunks(1024, 2);
  expect_chunks(513, 2);
}
TEST(MapRestTable, AnEmptyTableIsOneEmptyChunk) { expect_chunks(0, 1); }

TEST(MapRestTable, NamesItsEntitiesAndObjects) {
  const ReplicaKinds kinds{};
  RestRevisions revisions;
  MapRestTable table(kinds);
  table.take(rest_objects(5, 100), revisions);
  EXPECT_TRUE(table.names_entity(100));
  EXPECT_TRUE(table.names_entity(104));
  EXPECT_FALSE(table.names_entity(105));
  EXPECT_FALSE(table.names_entity(99));
  EXPECT_TRUE(table.names_object(0));
  EXPECT_TRUE(table.names_object(4));
  EXPECT_FALSE(table.names_object(5));
}

TEST(MapRestTable, ARetakeIsDueWhenANamedEntityStopsBeingCollected) {
  const ReplicaKinds kinds{};
  RestRevisions revisions;
  MapRestTable table(kinds);
  const auto objects = rest_objects(50, 1000);
  table.take(objects, revisions);
  // The tick collects two pawns and every object, in any order, some twice: nothing to do.
  std::vector<uint32_t> collected{7, 3};
  for (auto it = objects.rbegin(); it != objects.rend(); ++it) collected.push_back(it->entity_id);
  collected.push_back(1010);
  EXPECT_FALSE(table.needs_retake(collected));
  // Object 1020 despawns: the table would keep filling it in on every client.
  collected.erase(std::find(collected.begin(), collected.end(), 1020u));
  EXPECT_TRUE(table.needs_retake(collected));
  // Retaken without it: a new revision that no longer names it, and nothing is missing.
  std::vector<protocol::Record> remaining;
  for (const auto& r : objects)
    if (r.entity_id != 1020) remaining.push_back(r);
  const uint32_t before = table.revision();
  table.take(remaining, revisions);
  EXPECT_GT(table.revision(), before);
  EXPECT_FALSE(table.names_entity(1020));
  EXPECT_FALSE(table.needs_retake(collected));
  // The same check over the tick's records.
  std::vector<protocol::Record> tick = remaining;
  tick.push_back(protocol::Record{7, protocol::EntityRecord{}});
  EXPECT_FALSE(table.needs_retake(std::span<const protocol::Record>(tick)));
  tick.erase(tick.begin());
  EXPECT_TRUE(table.needs_retake(std::span<const protocol::Record>(tick)));
}

TEST(MapRestTable, AnEmptyTableNeverAsksForARetake) {
  const ReplicaKinds kinds{};
  RestRevisions revisions;
  MapRestTable table(kinds);
  table.take({}, revisions);
  EXPECT_TRUE(table.taken());
  EXPECT_FALSE(table.needs_retake(std::span<const uint32_t>{}));
}

}  // namespace
}  // namespace tickwire

// The client's rest-table assembler: a server's chunks rebuild the very table it took; a newer
// revision abandons a partial one and replaces a whole one; and every hostile chunk is refused,
// counted under its reason, and never leaves a half-built table current.
#include "tickwire/replication/rest_table/rest_table_assembler.h"

#include <gtest/gtest.h>

#include "rest_table_support.h"
#include "tickwire/replication/rest_table/map_rest_table.h"

namespace tickwire {
namespace {

using protocol::RestTableChunk;
using test::chunks_of;
using test::rest_objects;

struct Fixture {
  ReplicaKinds kinds{};
  RestRevisions revisions;
  MapRestTable server{kinds};
  RestTableAssembler client{kinds};

  std::vector<RestTableChunk> take(uint32_t objects, uint32_t first_id = 1u << 24) {
    server.take(rest_objects(objects, first_id), revisions);
    return chunks_of(server.table());
  }
};

RestChunkVerdict feed(RestTableAssembler& client, const std::vector<RestTableChunk>& chunks) {
  RestChunkVerdict last;
  for (const auto& c : chunks) last = client.accept(c);
  return last;
}

void expect_round_trip(uint32_t objects) {
  Fixture f;
  const auto chunks = f.take(objects);
  for (std::size_t i = 0; i < chunks.size(); ++i) {
    const RestChunkVerdict v = f.client.accept(chunks[i]);
    const bool last = i + 1 == chunks.size();
    EXPECT_EQ(v.outcome, last ? RestChunkOutcome::completed : RestChunkOutcome::stored) << i;
    EXPECT_EQ(f.client.holds(f.server.revision()), last) << "a partial table is never current";
  }
  EXPECT_EQ(test::table_bytes(f.client.current()), test::table_bytes(f.server.table()));
  EXPECT_EQ(f.client.refusals().total(), 0u);
  EXPECT_EQ(f.client.completed_tables(), 1u);
}

TEST(RestTableAssembler, RebuildsTheServersTableOf1583Objects) { expect_round_trip(1583); }
TEST(RestTableAssembler, RebuildsTheServersTableOf315Objects) { expect_round_trip(315); }
TEST(RestTableAssembler, RebuildsAnEmptyTable) { expect_round_trip(0); }

TEST(RestTableAssembler, ANewerRevisionAbandonsAPartialTable) {
  Fixture f;
  const auto old_chunks = f.take(1200);
  const auto new_chunks = f.take(900);
  EXPECT_EQ(f.client.accept(old_chunks[0]).outcome, RestChunkOutcome::stored);
  const RestChunkVerdict v = f.client.accept(new_chunks[0]);
  EXPECT_TRUE(v.abandoned);
  EXPECT_EQ(f.client.abandoned_tables(), 1u);
  EXPECT_EQ(f.client.accept(old_chunks[1]).reason, RestTableRefusal::stale_revision);
  EXPECT_EQ(f.client.accept(new_chunks[1]).outcome, RestChunkOutcome::completed);
  EXPECT_EQ(test::table_bytes(f.client.current()), test::table_bytes(f.server.table()));
}

TEST(RestTableAssembler, HoldsAWholeTableUntilANewerWholeOneReplacesIt) {
  Fixture f;
  const auto first = f.take(700);
  const RestTable first_table = f.server.table();
  feed(f.client, first);
  ASSERT_TRUE(f.client.holds(first_table.revision()));
  const auto second = f.take(600);
  EXPECT_EQ(f.client.accept(second[0]).outcome, RestChunkOutcome::stored);
  EXPECT_EQ(test::table_bytes(f.client.current()), test::table_bytes(first_table)) << "the old table stays current while the new one arrives";
  EXPECT_EQ(f.client.accept(second[1]).outcome, RestChunkOutcome::completed);
  EXPECT_EQ(test::table_bytes(f.client.current()), test::table_bytes(f.server.table()));
  EXPECT_FALSE(f.client.holds(first_table.revision()));
  // The old revision, replayed, is stale.
  EXPECT_EQ(f.client.accept(first[0]).reason, RestTableRefusal::stale_revision);
  EXPECT_EQ(test::table_bytes(f.client.current()), test::table_bytes(f.server.table()));
}

// One hostile chunk against a fresh assembler that already holds a whole table of revision 1.
struct Hostile {
  Fixture f;
  RestTable held;
  std::vector<RestTableChunk> next;  // a valid revision-2 table of 1,100 objects (3 chunks)
  Hostile() {
    feed(f.client, f.take(10));
    held = f.client.current();
    next = f.take(1100);
  }
  void expect_refused(const RestTableChunk& chunk, RestTableRefusal reason) {
    const RestChunkVerdict v = f.client.accept(chunk);
    EXPECT_EQ(v.outcome, RestChunkOutcome::refused) << reason_name(reason);
    EXPECT_EQ(v.reason, reason) << reason_name(v.reason) << " instead of " << reason_name(reason);
    EXPECT_EQ(f.client.refusals()[reason], 1u);
    EXPECT_EQ(test::table_bytes(f.client.current()), test::table_bytes(held)) << "a refusal never touches the whole table held";
    EXPECT_FALSE(f.client.in_progress());
  }
};

TEST(RestTableAssemblerHostile, RevisionZero) {
  Hostile h;
  auto c = h.next[0];
  c.revision = 0;
  h.expect_refused(c, RestTableRefusal::revision_zero);
}

TEST(RestTableAssemblerHostile, StaleRevision) {
  Hostile h;
  auto c = h.next[0];
  c.revision = h.held.revision();
  h.expect_refused(c, RestTableRefusal::stale_revision);
}

TEST(RestTableAssemblerHostile, ObjectCountPastTheMaximum) {
  Hostile h;
  auto c = h.next[0];
  c.object_count = static_cast<uint32_t>(protocol::MaxRestTableObjects + 1);
  c.chunk_count = static_cast<uint16_t>(rest_table_chunk_count(c.object_count));
  h.expect_refused(c, RestTableRefusal::object_count_over_max);
}

TEST(RestTableAssemblerHostile, ChunkCountPastTheMaximum) {
  Hostile h;
  auto c = h.next[0];
  c.chunk_count = static_cast<uint16_t>(protocol::MaxRestTableChunks + 1);
  h.expect_refused(c, RestTableRefusal::chunk_count_over_max);
}

TEST(RestTableAssemblerHostile, ChunkCountDisagreesWithTheObjectCount) {
  Hostile h;
  auto c = h.next[0];
  c.chunk_count = 2;  // 1,100 objects travel in 3
  h.expect_refused(c, RestTableRefusal::chunk_count_mismatch);
  Hostile zero;
  auto z = zero.next[0];
  z.chunk_count = 0;
  zero.expect_refused(z, RestTableRefusal::chunk_count_mismatch);
}

TEST(RestTableAssemblerHostile, IndexOutOfRange) {
  Hostile h;
  auto c = h.next[0];
  c.chunk_index = 3;
  h.expect_refused(c, RestTableRefusal::index_out_of_range);
}

TEST(RestTableAssemblerHostile, ATableBegunMidWay) {
  Hostile h;
  h.expect_refused(h.next[1], RestTableRefusal::out_of_order);
  EXPECT_EQ(h.f.client.accept(h.next[0]).reason, RestTableRefusal::stale_revision) << "the revision is closed";
}

TEST(RestTableAssemblerHostile, AGapARepeatAndAChangedHeaderAbandonThePartialTable) {
  for (int variant = 0; variant < 3; ++variant) {
    Hostile h;
    ASSERT_EQ(h.f.client.accept(h.next[0]).outcome, RestChunkOutcome::stored);
    RestTableChunk c = variant == 0 ? h.next[2] : variant == 1 ? h.next[0] : h.next[1];
    RestTableRefusal reason = RestTableRefusal::out_of_order;
    if (variant == 2) {
      c.object_count = 1099;
      reason = RestTableRefusal::header_changed;
    }
    const RestChunkVerdict v = h.f.client.accept(c);
    EXPECT_TRUE(v.abandoned);
    EXPECT_EQ(h.f.client.abandoned_tables(), 1u);
    h.expect_refused(c, RestTableRefusal::stale_revision);  // and the rest of that table is stale
    EXPECT_EQ(h.f.client.refusals()[reason], 1u) << variant;
  }
}

TEST(RestTableAssemblerHostile, AChunkOfMoreThan512Records) {
  Hostile h;
  auto c = h.next[0];
  c.records.push_back(c.records.back());
  h.expect_refused(c, RestTableRefusal::chunk_too_large);
}

TEST(RestTableAssemblerHostile, MoreRecordsThanTheObjectCount) {
  Hostile h;
  auto small = h.f.take(5);
  auto c = small[0];
  c.object_count = 4;
  h.expect_refused(c, RestTableRefusal::records_past_count);
}

TEST(RestTableAssemblerHostile, FewerRecordsThanTheObjectCount) {
  Hostile h;
  auto small = h.f.take(5);
  auto c = small[0];
  c.records.pop_back();
  h.expect_refused(c, RestTableRefusal::records_short);
}

TEST(RestTableAssemblerHostile, AnEntityRecord) {
  Hostile h;
  auto c = h.next[0];
  c.records[7].body = protocol::EntityRecord{};
  h.expect_refused(c, RestTableRefusal::not_object_record);
}

TEST(RestTableAssemblerHostile, IdsThatDoNotAscendWithinAChunk) {
  Hostile h;
  auto c = h.next[0];
  std::swap(c.records[3].entity_id, c.records[4].entity_id);
  h.expect_refused(c, RestTableRefusal::ids_not_ascending);
}

TEST(RestTableAssemblerHostile, IdsThatDoNotAscendAcrossChunks) {
  Hostile h;
  ASSERT_EQ(h.f.client.accept(h.next[0]).outcome, RestChunkOutcome::stored);
  auto c = h.next[1];
  c.records[0].entity_id = h.next[0].records.back().entity_id;  // a repeat across the boundary
  h.expect_refused(c, RestTableRefusal::ids_not_ascending);
  EXPECT_EQ(h.f.client.abandoned_tables(), 1u);
}

TEST(RestTableAssemblerHostile, TwoRecordsNamingOneObjectIndex) {
  Hostile h;
  ASSERT_EQ(h.f.client.accept(h.next[0]).outcome, RestChunkOutcome::stored);
  ASSERT_EQ(h.f.client.accept(h.next[1]).outcome, RestChunkOutcome::stored);
  auto c = h.next[2];
  std::get<protocol::ObjectRecord>(c.records.back().body).object_index = 0;  // object 0 came in chunk 0
  h.expect_refused(c, RestTableRefusal::duplicate_object_index);
  EXPECT_EQ(h.f.client.abandoned_tables(), 1u);
}

TEST(RestTableAssemblerHostile, AMalformedChunkOfANewerRevisionStillAbandonsThePartialOne) {
  Hostile h;
  ASSERT_EQ(h.f.client.accept(h.next[0]).outcome, RestChunkOutcome::stored);
  auto newer = h.f.take(600);
  const auto& c = newer[1];  // the newer table's second chunk, without its first
  const RestChunkVerdict v = h.f.client.accept(c);
  EXPECT_TRUE(v.abandoned);
  EXPECT_EQ(v.reason, RestTableRefusal::out_of_order);
  EXPECT_EQ(test::table_bytes(h.f.client.current()), test::table_bytes(h.held));
  EXPECT_FALSE(h.f.client.in_progress());
}

}  // namespace
}  // namespace tickwire

// The reference game's map through the rest table: its 319 objects, taken whole, travel in one
// chunk and rebuild on a client as the server's own frame; every object the game writes on a tick
// at rest is one the table names, so no retake is asked for until the map is reinstalled.
#include <gtest/gtest.h>

#include "tickwire/replication/rest_table/map_rest_table.h"
#include "tickwire/replication/rest_table/rest_table_assembler.h"
#include "tickwire/world/map_loader.h"
#include "tickwire/world/reference_game.h"
#include "tickwire/world/reference_map.h"

namespace tickwire::world {
namespace {

TEST(ReferenceRestTable, TheReferenceMapRoundTripsThroughTheRestTable) {
  auto loaded = load_map(reference_map_text());
  ASSERT_TRUE(loaded.ok());
  const Map map = std::move(loaded).value();
  ReferenceGame game(map);
  const ReplicaKinds kinds = ReplicaKinds::defaults();
  RestRevisions revisions;
  MapRestTable server(kinds);
  std::vector<protocol::Record> rest;
  game.write_rest_records(rest);
  server.take(rest, revisions);
  ASSERT_EQ(server.chunk_count(), 1u);
  RestTableAssembler client(kinds);
  protocol::RestTableChunk chunk;
  server.write_chunk(0, chunk);
  EXPECT_EQ(client.accept(chunk).outcome, RestChunkOutcome::completed);
  EXPECT_EQ(client.frame(), server.frame());
  EXPECT_EQ(client.frame().states.size(), 319u);

  game.set_object_records(ObjectRecords::whole);
  TickRecords tick;
  game.write_records(Tick::from_value(1), tick);
  EXPECT_FALSE(server.needs_retake(std::span<const protocol::Record>(tick.records)));
  const uint64_t generation = game.map_generation();
  game.reinstall_objects();
  EXPECT_NE(game.map_generation(), generation) << "the room retakes on a reinstall";
}

}  // namespace
}  // namespace tickwire::world

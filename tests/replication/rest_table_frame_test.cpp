// The rest table as the delta codec's reference: the frame the client rebuilds from the chunks (wire
// bytes and all) is the very frame the server codes against, at tick 0; a retake replaces it on
// both ends; and a snapshot of objects at rest, coded against it, decodes on the client to the
// server's state.
#include <gtest/gtest.h>

#include "rest_table_support.h"
#include "tickwire/replication/rest_table/map_rest_table.h"
#include "tickwire/replication/rest_table/rest_table_assembler.h"
#include "tickwire/replication/delta/snapshot_delta_codec.h"
#include "tickwire/wire/codec.h"

namespace tickwire {
namespace {

// Server chunks through their wire bytes into the client's assembler.
void deliver(const MapRestTable& server, RestTableAssembler& client) {
  for (std::size_t i = 0; i < server.chunk_count(); ++i) {
    protocol::RestTableChunk chunk;
    server.write_chunk(i, chunk);
    std::vector<uint8_t> body(wire::measure(chunk));
    ASSERT_TRUE(wire::encode(chunk, body).ok());
    protocol::RestTableChunk received;
    ASSERT_TRUE(wire::decode(body, received).ok());
    (void)client.accept(received);
  }
}

TEST(RestTableFrame, TheClientRebuildsTheServersFrame) {
  const ReplicaKinds kinds = ReplicaKinds::defaults();
  RestRevisions revisions;
  MapRestTable server(kinds);
  RestTableAssembler client(kinds);
  server.take(test::rest_objects(1583), revisions);
  deliver(server, client);
  ASSERT_TRUE(client.holds(server.revision()));
  const ReplicaFrame& frame = client.frame();
  EXPECT_EQ(frame.tick, 0u);
  EXPECT_EQ(frame.states.size(), 1583u);
  EXPECT_EQ(frame, server.frame());
}

TEST(RestTableFrame, ARetakeReplacesTheFrameOnBothEnds) {
  const ReplicaKinds kinds = ReplicaKinds::defaults();
  RestRevisions revisions;
  MapRestTable server(kinds);
  RestTableAssembler client(kinds);
  auto objects = test::rest_objects(40);
  server.take(objects, revisions);
  deliver(server, client);
  const ReplicaFrame before = client.frame();
  objects.erase(objects.begin() + 7);  // one object despawned
  server.take(objects, revisions);
  EXPECT_EQ(client.frame(), before) << "the old table stands until the new one is whole";
  deliver(server, client);
  EXPECT_EQ(client.frame(), server.frame());
  EXPECT_EQ(client.frame().states.size(), 39u);
}

TEST(RestTableFrame, ASnapshotAtRestCodedAgainstTheTableDecodesToTheServersState) {
  const ReplicaKinds kinds = ReplicaKinds::defaults();
  RestRevisions revisions;
  MapRestTable server(kinds);
  RestTableAssembler client(kinds);
  auto objects = test::rest_objects(315);
  server.take(objects, revisions);
  deliver(server, client);
  // One lamp changed since the take; the rest stand as the table holds them.
  std::get<protocol::ObjectRecord>(objects[10].body).sections[0].bits ^= 1;
  ReplicaFrame now;
  now.tick = 120;
  quantize_records(objects, kinds, now.states);
  std::vector<uint8_t> body;
  auto coded = encode_snapshot_delta(now, DeltaRefs{&server.frame(), nullptr}, kinds, body);
  ASSERT_TRUE(coded.ok());
  EXPECT_EQ(coded.value().changed, 1u);
  EXPECT_EQ(coded.value().unchanged, 314u);
  ReplicaFrame decoded;
  ASSERT_TRUE(decode_snapshot_delta(body, now.tick, DeltaRefs{&client.frame(), nullptr}, kinds, decoded).ok());
  EXPECT_EQ(decoded, now);
  std::printf("315 objects at rest, one changed, against the rest table: %zu body bytes\n", body.size());
}

}  // namespace
}  // namespace tickwire

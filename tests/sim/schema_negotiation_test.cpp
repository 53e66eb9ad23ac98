// A client of another build (the frozen v0 schema: ids moved, the inputs list widened, fields
// added and removed) joins a room beside clients of ours: the connect sequence trades schema texts
// once per hash (both ways, whatever the number of sessions), the server reads the v0 client's
// inputs through a plan and applies them in order, and the v0 client reads the server's ping
// replies through its own plan. A hostile text or a foreign protocol version ends the session.
#include <gtest/gtest.h>

#include <cstdio>

#include "legacy_v0.h"
#include "room_sim.h"
#include "support.h"
#include "tickwire/protocol/fixed_frame.h"
#include "tickwire/wire/schema_hash.h"
#include "tickwire/wire/typed_channel.h"

namespace tickwire {
namespace {

using namespace tickwire::test;

// A v0 build's client, at the transport and connect-sequence level: it cannot read our welcome or
// snapshots (v0 had neither), so it starts sending inputs once its side of the handshake is done
// and the server has had time to admit it.
struct LegacyClient {
  LegacyClient(RoomSim& sim, uint32_t index, SchemaCache& shared_cache)
      : socket(sim.world.net.bind(client_address(100 + index))), netcode(*socket),
        reliable(netcode, session_endpoint_config()), cache(shared_cache) {
    netcode.connect(mint_token(sim.key, 7000 + index, {server_address()}, sim.world.wall(), 10, 600), sim.world.now);
  }

  void frame(MonoTime now) {
    reliable.receive(now);
    if (!reliable.connected()) {  // the endpoint went with the connection: nothing may use it
      net.reset();
      peer.reset();
    }
    if (reliable.connected() && !net) {
      net.emplace(*reliable.endpoint(), OwnerId{1}, kAuthorityOwner);
      peer.emplace(cache, wire::Direction::server_to_client, "tickwire-v0", kSessionReliableChannel);
      peer->start(*net);
    }
    if (net) {
      drain(kSessionReliableChannel, true);
      drain(kSessionUnreliableChannel, false);
      peer->poll(*net);
      if (peer->ready() && ++ready_frames > 30) send_input_and_ping();
    }
    reliable.send(now);
  }

  void drain(uint8_t channel, bool reliable_channel) {
    while (auto m = net->receive(channel)) {
      auto ours = peer->receive(*net, *m, reliable_channel);
      if (ours && ours->id == 9) {  // v0's ping id
        uint32_t sequence = 0;
        bool is_reply = false;
        if (legacy_v0_read_ping(ours->body, sequence, is_reply) && is_reply) ++ping_replies;
      }
    }
  }

  void send_input_and_ping() {
    // Each frame carries the newest input and the three before it (redundancy on a v0 list16).
    std::vector<uint8_t> buttons;
    const uint32_t first = next_sequence >= 3 ? next_sequence - 3 : 0;
    for (uint32_t s = first; s <= next_sequence; ++s) buttons.push_back(static_cast<uint8_t>(s & 0xff));
    const LegacyMessage input = legacy_v0_input_frame(first, buttons);
    (void)net->send(kSessionUnreliableChannel, input.id, input.body);
    ++next_sequence;
    if (next_sequence % 30 == 0) {
      const LegacyMessage ping = legacy_v0_ping(next_sequence, 0);
      (void)net->send(kSessionReliableChannel, ping.id, ping.body);
      ++pings_sent;
    }
  }

  std::unique_ptr<SimSocket> socket;
  NetcodeClient netcode;
  ReliableClient reliable;
  SchemaCache& cache;
  std::optional<NetChannel> net;
  std::optional<PeerSchema> peer;
  uint64_t ready_frames = 0;
  uint32_t next_sequence = 0;
  uint64_t pings_sent = 0;
  uint64_t ping_replies = 0;
};

TEST(SchemaNegotiation, AnOlderBuildConnectsAndIsReadThroughAPlanWithEachTextSentOnce) {
  const uint64_t seed = test_seed(0x5201);
  RoomSim sim(seed);
  sim.world.net.set_default_link(steady_link(20, 3));
  SchemaCache v0_cache(legacy_v0_schema_text());  // shared by the v0 process's two sessions
  LegacyClient old_a(sim, 0, v0_cache);
  LegacyClient old_b(sim, 1, v0_cache);
  SimSessionClient& ours = sim.add_client();

  for (int i = 0; i < 600; ++i) {  // 10 s at 60 frames per second
    sim.run_for(Duration::microseconds(16'667));
    old_a.frame(sim.world.now);
    old_b.frame(sim.world.now);
  }

  // The connect sequence: one text per hash each way, however many sessions met the other build.
  EXPECT_EQ(sim.server_cache.texts_learned(), 1u) << "the server learned the v0 text once";
  EXPECT_EQ(v0_cache.texts_sent(), 1u) << "and the v0 process sent it once";
  EXPECT_EQ(v0_cache.texts_learned(), 1u) << "the v0 process learned ours once";
  EXPECT_EQ(sim.server_cache.texts_sent(), 1u) << "and the server sent it once";
  EXPECT_TRUE(ours.session.welcomed());
  EXPECT_TRUE(ours.session.peer()->same_build()) << "a peer of our own build needs no text and no plan";
  EXPECT_EQ(ours.session.peer()->schema_texts_received(), 0u);

  for (LegacyClient* old : {&old_a, &old_b}) {
    ASSERT_TRUE(old->peer && old->peer->ready()) << "seed " << seed;
    EXPECT_FALSE(old->peer->same_build());
    EXPECT_GT(old->pings_sent, 0u);
    EXPECT_GE(old->ping_replies + 2, old->pings_sent) << "ping replies come back through the v0 plan";
  }
  uint64_t legacy_pawns = 0;
  for (uint32_t slot = 0; slot < 3; ++slot) {
    const PeerSchema* peer = sim.server.peer(slot);
    ASSERT_NE(peer, nullptr);
    if (peer->same_build()) continue;
    ++legacy_pawns;
    EXPECT_GT(peer->translated(), 500u) << "every v0 message was rewritten before dispatch";
    EXPECT_EQ(peer->refusals()[PeerRefusal::untranslatable], 0u);
    const RoomSession* session = sim.room.session(RoomServer::owner_of_slot(slot));
    ASSERT_NE(session, nullptr);
    const TestPawn& pawn = sim.simulation.pawns.at(session->pawn.raw());
    std::printf("seed=%llu slot %u (v0): translated %llu, applied %zu inputs\n", static_cast<unsigned long long>(seed),
                slot, static_cast<unsigned long long>(peer->translated()), pawn.applied.size());
    EXPECT_GT(pawn.applied.size(), 400u);
    EXPECT_EQ(out_of_order_applications(pawn), 0u);
    EXPECT_EQ(pawn.button_mismatches, 0u) << "each v0 input arrived as itself";
    EXPECT_GT(pawn.position.x, static_cast<float>(pawn.owner) + 1.0f) << "the v0 moves walked the pawn";
  }
  EXPECT_EQ(legacy_pawns, 2u);
  EXPECT_EQ(sim.invariants.total(), 0u);
}

// A raw peer for the refusal cases: it speaks the fixed frame by hand.
struct HandClient {
  HandClient(RoomSim& sim, uint32_t index)
      : socket(sim.world.net.bind(client_address(200 + index))), netcode(*socket),
        reliable(netcode, session_endpoint_config()) {
    netcode.connect(mint_token(sim.key, 8000 + index, {server_address()}, sim.world.wall(), 10, 600), sim.world.now);
  }
  std::unique_ptr<SimSocket> socket;
  NetcodeClient netcode;
  ReliableClient reliable;
  std::optional<NetChannel> net;
};

void run_hand_client(RoomSim& sim, HandClient& client, const std::function<void(NetChannel&)>& on_connect) {
  for (int i = 0; i < 120; ++i) {
    sim.run_for(Duration::microseconds(16'667));
    client.reliable.receive(sim.world.now);
    if (!client.reliable.connected()) client.net.reset();  // its endpoint is gone with the connection
    if (client.reliable.connected() && !client.net) {
      client.net.emplace(*client.reliable.endpoint(), OwnerId{1}, kAuthorityOwner);
      on_connect(*client.net);
    }
    if (client.net) {
      while (client.net->receive(kSessionReliableChannel)) {
      }
    }
    client.reliable.send(sim.world.now);
  }
}

TEST(SchemaNegotiation, ATextThatDoesNotHashToItsNameEndsTheSession) {
  const uint64_t seed = test_seed(0x5202);
  RoomSim sim(seed);
  HandClient client(sim, 0);
  const std::string v0_text = legacy_v0_schema_text();
  run_hand_client(sim, client, [&](NetChannel& net) {
    protocol::ConnectRequest hello;
    hello.schema_hash = wire::hash_schema_text(v0_text);
    (void)wire::send_message(net, kSessionReliableChannel, hello);
    protocol::SchemaText text;  // answers the request before it comes, with a doctored text
    text.schema_hash = hello.schema_hash;
    text.text = v0_text + "\n";
    (void)wire::send_message(net, kSessionReliableChannel, text);
  });
  EXPECT_EQ(sim.server.refusals()[PeerRefusal::schema_text_refused], 1u) << "seed " << seed;
  EXPECT_EQ(sim.server.sessions_admitted(), 0u);
  EXPECT_EQ(sim.server_cache.texts_learned(), 0u);
  EXPECT_FALSE(client.netcode.connected()) << "the server disconnected it";
}

TEST(SchemaNegotiation, AnotherProtocolVersionEndsTheSession) {
  const uint64_t seed = test_seed(0x5203);
  RoomSim sim(seed);
  HandClient client(sim, 0);
  run_hand_client(sim, client, [&](NetChannel& net) {
    protocol::ConnectRequest hello;
    hello.protocol_version = protocol::kProtocolVersion + 1;
    hello.schema_hash = sim.server_cache.our_hash();
    (void)wire::send_message(net, kSessionReliableChannel, hello);
  });
  EXPECT_EQ(sim.server.refusals()[PeerRefusal::protocol_mismatch], 1u) << "seed " << seed;
  EXPECT_EQ(sim.server.sessions_admitted(), 0u);
  EXPECT_FALSE(client.netcode.connected());
}

}  // namespace
}  // namespace tickwire

// A second game (Orbs: its own kinds, flags, pawn value and buttons) through the room, the codec
// and the client on the simulated network, with the engine unchanged: the schema hash is the one
// every game shares, the vocabulary lives in the contract (another hash), and a client built for
// another vocabulary is refused by name.
#include <gtest/gtest.h>

#include <set>

#include "facade_sim.h"
#include "orbs_game.h"
#include "support.h"
#include "tickwire/protocol/wire_messages.h"
#include "tickwire/world/reference_vocabulary.h"

namespace tickwire {
namespace {

using namespace tickwire::test;

RoomPolicy orbs_policy() {
  RoomPolicy policy = test_room_policy();
  policy.identity.game = "orbs";
  policy.vocabulary = orbs::vocabulary();
  return policy;
}

// Thrusts along a heading, boosting every other second.
InputSource thrust(float yaw_deg) {
  return [yaw_deg](uint32_t sequence) {
    protocol::InputCmd cmd;
    cmd.yaw_deg = yaw_deg;
    cmd.buttons = orbs::kButtonThrust | ((sequence / 60) % 2 == 0 ? orbs::kButtonBoost : 0u);
    return cmd;
  };
}

TEST(SecondGame, OrbsRunThroughRoomCodecAndClientWithItsOwnVocabulary) {
  const uint64_t seed = test_seed(0x0b5);
  orbs::OrbsGame game;
  FacadeSim sim(seed, orbs_policy(), game);
  const orbs::OrbModel model;
  FacadePeer& a = sim.add_client(orbs::vocabulary(), &model, thrust(0.0f));
  FacadePeer& b = sim.add_client(orbs::vocabulary(), &model, thrust(90.0f));
  std::set<uint8_t> beacon_bits_seen;
  uint64_t glowing_orbs_seen = 0, shielded_orbs_seen = 0;
  sim.after_frame = [&](FacadePeer& p) {
    if (&p != &a) return;
    for (const DrawnEntity& e : p.client->remote_entities()) {
      if (e.kind == orbs::kKindBeacon) beacon_bits_seen.insert(e.bits);
      if (e.kind == orbs::kKindOrb && (e.flags & orbs::kFlagGlowing) != 0) ++glowing_orbs_seen;
      if (e.kind == orbs::kKindOrb && (e.flags & orbs::kFlagShielded) != 0) ++shielded_orbs_seen;
    }
  };
  sim.run_for(Duration::seconds(5));
  ASSERT_TRUE(sim.all_playing()) << "seed " << seed;

  // Each client draws the other orb and the three beacons, of the game's kinds, blinking.
  std::map<uint8_t, int> kinds;
  for (const DrawnEntity& e : a.client->remote_entities()) ++kinds[e.kind];
  EXPECT_EQ(kinds[orbs::kKindOrb], 1);
  EXPECT_EQ(kinds[orbs::kKindBeacon], static_cast<int>(orbs::kBeacons));
  EXPECT_EQ(beacon_bits_seen, (std::set<uint8_t>{0, 1}));
  EXPECT_GT(glowing_orbs_seen, 0u);
  EXPECT_GT(shielded_orbs_seen, 0u);
  // The game's buttons arrived (thrust and boost: bits 0 and 7), and its pawn value (fuel) burns.
  EXPECT_EQ(game.buttons_seen, orbs::kButtonThrust | orbs::kButtonBoost);
  const float fuel = a.client->own_value(orbs::kValueFuel);
  EXPECT_LT(fuel, orbs::kFuelStart);
  EXPECT_GT(fuel, 0.0f);
  // The client predicted with the game's model: its drawn orb is where the server has it, within
  // a tick's motion.
  const protocol::Vec3 drawn = a.client->own_position();
  EXPECT_GT(drawn.z, 5.0f) << "thrusting along +z";
  const ClientStats stats = a.client->stats();
  EXPECT_EQ(stats.prediction_snaps, 0u);
  EXPECT_EQ(reason_count(stats.reasons, "session.drop.owner_malformed"), 0u);
  EXPECT_EQ(reason_count(sim.server->stats().reasons, "session.drop.undecodable"), 0u);
  (void)b;
}

TEST(SecondGame, TheSchemaIsEveryGamesTheVocabularyIsTheContracts) {
  // The schema text names no game's vocabulary: not the reference game's, not Orbs'.
  const std::string& schema = protocol::protocol_messages().schema_text();
  for (const char* name : {"playerPawn", "pressurePlate", "crouch", "grounded", "noclip", "eyeHeight", "stanceHeight",
                           "orb", "beacon", "glowing", "thrust", "fuel"}) {
    EXPECT_EQ(schema.find(name), std::string::npos) << name;
  }
  // The vocabulary is contract content: two games, one schema, two contract hashes.
  RoomPolicy reference = test_room_policy();
  reference.vocabulary = world::reference_vocabulary();
  const auto a = resolve_netcode_contract(orbs_policy());
  const auto b = resolve_netcode_contract(reference);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_NE(contract_hash(*a.contract).hex(), contract_hash(*b.contract).hex());
}

TEST(SecondGame, AClientOfAnotherVocabularyIsRefusedByName) {
  const uint64_t seed = test_seed(0x0b6);
  orbs::OrbsGame game;
  FacadeSim sim(seed, orbs_policy(), game);
  FacadePeer& stranger = sim.add_client(world::reference_vocabulary(), nullptr, {});
  sim.run_for(Duration::seconds(2));
  const ClientStatus status = stranger.client->status();
  EXPECT_EQ(status.phase, ClientPhase::refused) << "seed " << seed;
  EXPECT_EQ(status.reason, "vocabulary_mismatch");
  EXPECT_EQ(reason_count(stranger.client->stats().reasons, "session.drop.vocabulary_mismatch"), 1u);
}

}  // namespace
}  // namespace tickwire

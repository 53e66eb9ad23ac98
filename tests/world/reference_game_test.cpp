// The reference game's Simulation: pawns spawn at the map's spawn points and walk by the shared
// mover; with forgiveness below 1 a claim near the server's own answer is adopted whole, one beyond
// the radius is not (the server's answer stands); in `changed` mode map objects at rest write no
// records, a toggled or flickering one does; the rest records state every object whole.
#include "tickwire/world/reference_game.h"

#include <gtest/gtest.h>

#include <variant>
#include <vector>

#include "tickwire/world/logic_components.h"
#include "tickwire/world/map_loader.h"
#include "tickwire/world/map_object_table.h"
#include "tickwire/world/reference_map.h"

namespace tickwire::world {
namespace {

Map reference_map() {
  auto loaded = load_map(reference_map_text());
  EXPECT_TRUE(loaded.ok());
  return std::move(loaded).value();
}

TickInput walking(uint32_t sequence) {
  TickInput input;
  input.cmd.move_y = 1.0f;
  input.sequence = sequence;
  input.has_sequence = true;
  input.source = TickInputSource::fresh;
  return input;
}

// The room's contract for the reference game at `forgiveness`, as a room hands it over.
NetcodeContract reference_contract(double forgiveness) {
  RoomPolicy policy;
  policy.identity = {"room", "tickwire-reference", "test", "1", "test", "", ""};
  policy.input.forgiveness = forgiveness;
  apply_reference_policy(policy);
  const ContractResolution resolved = resolve_netcode_contract(policy);
  TW_ASSERT(resolved.ok(), "the reference policy resolves");
  return *resolved.contract;
}

// Seed 000: at forgiveness 0 the gate adopts unconditionally, and the touch volumes run against the
// adopted transform: a claim that stands the pawn on the west lift's plate, 20 m from where the server
// stepped it, is adopted and presses the plate.
TEST(ReferenceGame, AtForgivenessZeroAClaimIsAdoptedAndThePlateRunsAgainstIt) {
  const Map map = reference_map();
  ReferenceGame game(map);
  game.begin(reference_contract(/*forgiveness=*/0.0));
  const EntityRef pawn = EntityRef::make(EntityNetHandle::make(0, 1), 1);
  game.spawn_pawn(pawn, 1, Tick::from_value(0));
  for (uint32_t s = 0; s < 30; ++s) game.step_pawn(pawn, walking(s), Tick::from_value(s + 1), 1.0 / 60);
  const PawnState settled = *game.pawn(pawn);
  const uint32_t plate = *map.object_index("plate.lift.w");
  ASSERT_EQ(game.object_component(plate, 0).bits & 1u, 0u) << "nobody on the plate yet";

  TickInput claimed = walking(30);
  protocol::Claim claim;
  claim.position = {-22.0f, 0.0f, 12.0f};  // on the plate
  claim.values = protocol::PawnValues{{settled.stance_height_m}, {settled.eye_height_m}};
  claim.flags = 1;
  claim.placement_epoch = settled.placement_epoch.value;
  claimed.claim = claim;
  game.step_pawn(pawn, claimed, Tick::from_value(31), 1.0 / 60);
  EXPECT_EQ(game.claim_outcome(pawn), protocol::ClaimOutcome::accepted);
  EXPECT_FLOAT_EQ(game.pawn(pawn)->feet.x, -22.0f);
  game.step_world(Tick::from_value(31), 1.0 / 60);
  EXPECT_EQ(game.object_component(plate, 0).bits & 1u, 1u) << "the plate ran against the adopted transform";
}

TEST(ReferenceGame, AClaimInsideTheRadiusIsAdoptedWholeAndOneBeyondIsNot) {
  const Map map = reference_map();
  ReferenceGame game(map);
  game.begin(reference_contract(/*forgiveness=*/0.01));  // the least that bounds a claim (0 adopts any)
  const EntityRef pawn = EntityRef::make(EntityNetHandle::make(0, 1), 1);
  game.spawn_pawn(pawn, 1, Tick::from_value(0));
  for (uint32_t s = 0; s < 60; ++s) game.step_pawn(pawn, walking(s), Tick::from_value(s + 1), 1.0 / 60);
  const PawnState settled = *game.pawn(pawn);

  TickInput near = walking(60);
  protocol::Claim claim;
  ReferenceGame shadow(map);  // what the server alone would answer
  shadow.begin(reference_contract(0.01));
  shadow.spawn_pawn(pawn, 1, Tick::from_value(0));
  for (uint32_t s = 0; s < 61; ++s) shadow.step_pawn(pawn, walking(s), Tick::from_value(s + 1), 1.0 / 60);
  const PawnState server_answer = *shadow.pawn(pawn);
  claim.position = {server_answer.feet.x + 0.05f, server_answer.feet.y, server_answer.feet.z};
  claim.velocity = server_answer.velocity_mps.to_wire();
  claim.values = protocol::PawnValues{{server_answer.stance_height_m}, {server_answer.eye_height_m}};
  claim.flags = server_answer.grounded ? 1 : 0;
  claim.placement_epoch = settled.placement_epoch.value;
  near.claim = claim;
  EXPECT_EQ(game.claim_outcome(pawn), protocol::ClaimOutcome::none);  // no claim judged yet
  game.step_pawn(pawn, near, Tick::from_value(61), 1.0 / 60);
  EXPECT_EQ(game.gate().adopted(), 1u);
  EXPECT_EQ(game.claim_outcome(pawn), protocol::ClaimOutcome::accepted);  // ClaimAccepted for the owner detail
  EXPECT_FLOAT_EQ(game.pawn(pawn)->feet.x, claim.position.x) << "adopted whole, not blended";

  TickInput far = walking(61);
  claim.position.x += 3.0f;
  far.claim = claim;
  const float before_x = game.pawn(pawn)->feet.x;
  game.step_pawn(pawn, far, Tick::from_value(62), 1.0 / 60);
  EXPECT_EQ(game.gate().adopted(), 1u);
  EXPECT_EQ(game.gate().refusals().total(), 1u);
  EXPECT_EQ(game.claim_outcome(pawn), protocol::ClaimOutcome::corrected);
  EXPECT_LT(game.pawn(pawn)->feet.x - before_x, 1.0f) << "the server's answer stood";
  game.step_pawn(pawn, walking(62), Tick::from_value(63), 1.0 / 60);  // a tick without a claim
  EXPECT_EQ(game.claim_outcome(pawn), protocol::ClaimOutcome::none);
}

TEST(ReferenceGame, AnAuthoritativeRoomAdoptsNothing) {
  const Map map = reference_map();
  ReferenceGame game(map);
  game.begin(reference_contract(1.0));
  const EntityRef pawn = EntityRef::make(EntityNetHandle::make(0, 1), 1);
  game.spawn_pawn(pawn, 1, Tick::from_value(0));
  TickInput input = walking(0);
  protocol::Claim claim;
  claim.position = {0, 0, 0};
  input.claim = claim;
  game.step_pawn(pawn, input, Tick::from_value(1), 1.0 / 60);
  EXPECT_EQ(game.gate().adopted(), 0u);
  EXPECT_EQ(game.gate().refusals()[ClaimRefusal::authoritative], 1u);
}

TEST(ReferenceGame, InChangedModeObjectsAtRestWriteNoRecordsAndAToggledOneDoes) {
  const Map map = reference_map();
  ReferenceGame game(map);
  game.set_object_records(ObjectRecords::changed);  // the default is whole: the rest table thins
  TickRecords ticked;
  std::vector<protocol::Record>& records = ticked.records;
  game.write_records(Tick::from_value(0), ticked);
  EXPECT_TRUE(records.empty()) << "no pawn, nothing changed yet";
  game.step_world(Tick::from_value(30), 1.0 / 60);  // the flickering lights move off their rest
  records.clear();
  game.write_records(Tick::from_value(30), ticked);
  const std::size_t flickering = records.size();
  EXPECT_GT(flickering, 0u);
  game.toggle_object(0);
  records.clear();
  game.write_records(Tick::from_value(30), ticked);
  EXPECT_EQ(records.size(), game.changed_objects());
  bool toggled_sent = false;
  for (const auto& r : records) {
    ASSERT_TRUE(std::holds_alternative<protocol::ObjectRecord>(r.body));
    toggled_sent = toggled_sent || std::get<protocol::ObjectRecord>(r.body).object_index == 0;
  }
  EXPECT_TRUE(toggled_sent);
}

TEST(ReferenceGame, WritesEveryMapObjectWholeForTheRestTable) {
  const Map map = reference_map();
  ReferenceGame game(map);
  std::vector<protocol::Record> rest;
  game.write_rest_records(rest);
  ASSERT_EQ(rest.size(), map.objects().size());
  MapObjectTable table = MapObjectTable::build(map);
  for (uint32_t i = 0; i < rest.size(); ++i) {
    const auto& object = std::get<protocol::ObjectRecord>(rest[i].body);
    EXPECT_EQ(object.object_index, *table.index_of(map.objects()[i].key)) << "the table's index";
    EXPECT_EQ(rest[i].entity_id, map_object_entity_id(object.object_index));
    if (i > 0) {
      EXPECT_GT(rest[i].entity_id, rest[i - 1].entity_id) << "ascending ids";
    }
    // Every replicated component, in authored order; a collider is map data and writes no section.
    std::vector<const ObjectComponent*> replicated;
    for (const ObjectComponent& c : map.objects()[i].components)
      if (replicated_component(c.name)) replicated.push_back(&c);
    ASSERT_EQ(object.sections.size(), replicated.size());
    for (std::size_t c = 0; c < object.sections.size(); ++c) {
      const ObjectComponent& authored = *replicated[c];
      const protocol::ComponentSection& section = object.sections[c];
      EXPECT_EQ(section.channel_count, authored.channel_count);
      EXPECT_EQ(section.bits, authored.bits);
      for (uint8_t ch = 0; ch < authored.channel_count; ++ch) EXPECT_EQ(section.channel[ch], authored.channels[ch]);
    }
  }
}

TEST(ReferenceGame, MapObjectIdsNeverCollideWithPawns) {
  const Map map = reference_map();
  ReferenceGame game(map);
  game.set_object_records(ObjectRecords::whole);
  for (uint8_t i = 1; i <= 4; ++i) game.spawn_pawn(EntityRef::make(EntityNetHandle::make(0, i), 1), i, Tick::from_value(0));
  TickRecords ticked;
  std::vector<protocol::Record>& records = ticked.records;
  game.write_records(Tick::from_value(0), ticked);
  ASSERT_EQ(records.size(), 4 + map.objects().size()) << "whole: every pawn and every object, every tick";
  for (std::size_t i = 1; i < records.size(); ++i) EXPECT_GT(records[i].entity_id, records[i - 1].entity_id);
}

TEST(ReferenceGame, AReinstallMovesTheMapGenerationAndRestoresTheAuthoredState) {
  const Map map = reference_map();
  ReferenceGame game(map);
  const uint64_t installed = game.map_generation();
  EXPECT_GT(installed, 0u);
  game.toggle_object(3);
  EXPECT_EQ(game.changed_objects(), 1u);
  game.reinstall_objects();
  EXPECT_EQ(game.map_generation(), installed + 1);
  EXPECT_EQ(game.changed_objects(), 0u);
}

}  // namespace
}  // namespace tickwire::world

// The live map switch through ReferenceGame::switch_map, with no network: the old map's touch
// volumes settle and its runtime is discarded holding nothing; A -> B -> A writes, byte for byte, the
// records and rest records of a fresh install of A, and keeps doing so tick after tick; the logic's
// tick count goes on across each switch; pawns are placed at the new map's spawn points.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "game_rig.h"
#include "lifecycle_map.h"
#include "tickwire/replication/rest_table/map_rest_table.h"
#include "tickwire/wire/codec.h"

namespace tickwire::world {
namespace {

using rigs::Rig;

// Every object record of a list, encoded as the wire carries it, one after another.
std::vector<uint8_t> object_bytes(const std::vector<protocol::Record>& records) {
  std::vector<uint8_t> out;
  for (const protocol::Record& r : records) {
    if (!std::holds_alternative<protocol::ObjectRecord>(r.body)) continue;
    const std::size_t at = out.size();
    out.resize(at + wire::measure(r));
    const auto written = wire::encode(r, std::span<uint8_t>(out).subspan(at));
    TW_ASSERT(written.ok(), "a measured record encodes");
  }
  return out;
}

std::vector<uint8_t> tick_bytes(const ReferenceGame& game, int64_t tick) {
  TickRecords out;
  game.write_records(Tick::from_value(tick), out);
  return object_bytes(out.records);
}

std::vector<uint8_t> rest_bytes(const ReferenceGame& game) {
  std::vector<protocol::Record> rest;
  game.write_rest_records(rest);
  return object_bytes(rest);
}

// The rest table a room would take from the game (its first revision), as its chunk messages' bytes.
std::vector<std::vector<uint8_t>> rest_chunks(const ReferenceGame& game) {
  std::vector<protocol::Record> rest;
  game.write_rest_records(rest);
  RestRevisions revisions;
  MapRestTable table(ReplicaKinds::defaults());
  table.take(rest, revisions);
  std::vector<std::vector<uint8_t>> chunks;
  protocol::RestTableChunk chunk;
  for (std::size_t i = 0; i < table.chunk_count(); ++i) {
    table.write_chunk(i, chunk);
    std::vector<uint8_t>& bytes = chunks.emplace_back(1 + wire::measure(chunk));
    TW_ASSERT(wire::encode_message(chunk, bytes).ok(), "a measured chunk encodes");
  }
  return chunks;
}

// The reference map with its logic busy: a door opening, a lift rising under the pawn on its plate.
void busy(Rig& rig) {
  rig.stand({1.75f, 0, 30.25f}, 0);
  rig.tick(/*use=*/true);
  rig.stand({-22, 0, 12}, 0);  // on plate.lift.w
  rig.ticks(40);
}

TEST(MapSwitch, TheOldRuntimeIsDiscardedHoldingNothingAndPawnsMoveToTheNewSpawns) {
  Rig rig;
  const Map other = rigs::load_rig_map(tickwire::test::kLifecycleMapText);
  busy(rig);
  ASSERT_GT(rig.game.logic()->runtime().sizes().scheduled, 0u) << "work in flight";
  std::vector<std::string> fired;
  rig.game.logic()->set_fired_sink([&](uint32_t object, std::string_view output, LogicActivator) {
    fired.push_back(std::string(rig.map.objects()[object].key) + "." + std::string(output));
  });
  const uint64_t generation = rig.game.map_generation();
  const PawnSpawnEpoch epoch = rig.game.pawn(rig.pawn)->placement_epoch;

  rig.game.switch_map(other);
  EXPECT_NE(std::find(fired.begin(), fired.end(), "plate.lift.w.onEndTouch"), fired.end())
      << "the plate under the pawn ended its touch before its runtime went";
  EXPECT_EQ(rig.game.lifecycle().map_switches, 1u);
  EXPECT_EQ(rig.game.lifecycle().runtimes_discarded, 1u);
  EXPECT_EQ(rig.game.lifecycle().last_discarded, LogicRuntimeSizes{}) << "nodes, names, continuations, retired";
  EXPECT_NE(rig.game.map_generation(), generation);
  EXPECT_EQ(&rig.game.map(), &other);
  EXPECT_EQ(rig.game.logic()->logic_objects(), 8u);
  EXPECT_EQ(rest_bytes(rig.game).size() > 0, true);
  const PawnState& pawn = *rig.game.pawn(rig.pawn);
  EXPECT_EQ(pawn.feet, other.spawn_points()[0].position);
  EXPECT_NE(pawn.placement_epoch, epoch) << "its client snaps";
  std::vector<std::string> names;
  rig.game.visit_game_reasons([&](std::string_view name, uint64_t) { names.emplace_back(name); });
  EXPECT_NE(std::find(names.begin(), names.end(), "map.switch"), names.end());
  EXPECT_NE(std::find(names.begin(), names.end(), "logic.drop.unloaded_in_flight"), names.end())
      << "the discarded runtime's drops stay in the stats";
}

TEST(MapSwitch, AToBToAIsAFreshAByteForByteAndStaysSo) {
  Rig rig;
  const Map other = rigs::load_rig_map(tickwire::test::kLifecycleMapText);
  busy(rig);
  rig.game.switch_map(other);
  rig.ticks(50);  // B's timer blinking, its button's and plate's wiring idle
  rig.game.switch_map(rig.map);

  // A fresh install of A, whose pawn stands where the switched one was put (A's first spawn point).
  ReferenceGame fresh(rig.map);
  fresh.begin(rigs::rig_contract());
  fresh.spawn_pawn(rig.pawn, 1, Tick::from_value(rig.now));
  EXPECT_EQ(fresh.pawn(rig.pawn)->feet, rig.game.pawn(rig.pawn)->feet);
  EXPECT_EQ(tick_bytes(rig.game, rig.now), tick_bytes(fresh, rig.now));
  EXPECT_EQ(rest_bytes(rig.game), rest_bytes(fresh));
  EXPECT_EQ(rest_chunks(rig.game), rest_chunks(fresh));
  EXPECT_EQ(rig.game.logic()->runtime().sizes(), fresh.logic()->runtime().sizes());

  // Both run on from the same tick: the same records, byte for byte, every tick.
  for (int t = 0; t < 300; ++t) {
    rig.tick();
    fresh.step_pawn(rig.pawn, rigs::still_input(static_cast<uint32_t>(rig.now), fresh.pawn(rig.pawn)->yaw_deg),
                    Tick::from_value(rig.now), rigs::kRigDt);
    fresh.step_world(Tick::from_value(rig.now), rigs::kRigDt);
    ASSERT_EQ(tick_bytes(rig.game, rig.now), tick_bytes(fresh, rig.now)) << "tick " << rig.now;
  }
  EXPECT_EQ(rig.game.lifecycle().map_switches, 2u);
  EXPECT_EQ(rig.game.lifecycle().last_discarded, LogicRuntimeSizes{});
}

TEST(MapSwitch, TheLogicTickCountGoesOnAcrossEachSwitch) {
  Rig rig;
  const Map other = rigs::load_rig_map(tickwire::test::kLifecycleMapText);
  rig.ticks(10);
  const std::optional<Tick> before = rig.game.logic()->runtime().last_tick();
  ASSERT_TRUE(before.has_value());
  rig.game.switch_map(other);
  EXPECT_FALSE(rig.game.logic()->runtime().last_tick().has_value()) << "a new runtime";
  rig.tick();
  EXPECT_EQ(rig.game.logic()->runtime().last_tick(), *before + 1);
  rig.game.switch_map(rig.map);
  rig.game.switch_map(other);  // two switches with no tick between
  rig.tick();
  EXPECT_EQ(rig.game.logic()->runtime().last_tick(), *before + 2);
  // A room that declared ticks it did not run: the logic's count stays consecutive, never backwards.
  rig.now += 5;
  rig.tick();
  EXPECT_EQ(rig.game.logic()->runtime().last_tick(), *before + 3);
}

}  // namespace
}  // namespace tickwire::world

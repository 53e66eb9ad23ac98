// The reference map's logic running in the reference game: the button opens its door within the
// ticks its slide takes, the south button runs its chain of lights, the plate starts the lift, the
// trigger volume lights its lamp; the records carry it and leave the snapshot once back at rest;
// and every way a Use is refused is counted by its reason.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "tickwire/protocol/netcode_contract.h"
#include "tickwire/server/room.h"
#include "tickwire/world/button_behaviour.h"
#include "tickwire/world/door_behaviour.h"
#include "tickwire/world/map_loader.h"
#include "tickwire/world/pawn_buttons.h"
#include "tickwire/world/reference_game.h"
#include "tickwire/world/reference_map.h"
#include "game_rig.h"

namespace tickwire::world {
namespace {

using rigs::Rig;
constexpr uint32_t kHz = rigs::kRigHz;

// In front of the north button (at x 1.75, 1.25 m up, 31.875 north, on the wall), facing it.
constexpr Vec3 kBeforeNorthButton{1.75f, 0, 30.25f};

TEST(ReferenceLogic, PressingTheButtonOpensItsDoorInTheTicksItsSlideTakes) {
  Rig rig;
  ASSERT_NE(rig.game.logic(), nullptr);
  rig.stand(kBeforeNorthButton, 0);
  rig.tick(/*use=*/true);  // the press: the button latches, the door heads open and moves this tick
  EXPECT_EQ(rig.game.uses(), 1u);
  EXPECT_EQ(rig.bits("button.n") & ButtonBehaviour::kPressedBit, ButtonBehaviour::kPressedBit);
  EXPECT_GT(rig.channel("door.n", 0), 0.0f);
  EXPECT_FLOAT_EQ(rig.channel("door.n", 1), 1.0f / kHz) << "1.5 m at 1.5 m/s: a sixtieth per tick";
  int ticks = 1;
  while (rig.channel("door.n", 0) < 1.0f && ticks < 1000) {
    rig.tick();
    ++ticks;
  }
  EXPECT_EQ(ticks, static_cast<int>(kHz)) << "a one-second slide";
  EXPECT_EQ(rig.channel("door.n", 1), 0.0f) << "at rest once open";
  // The button lets go after its second; a second press closes the door again.
  for (int t = 0; t < static_cast<int>(kHz); ++t) rig.tick();
  EXPECT_EQ(rig.bits("button.n") & ButtonBehaviour::kPressedBit, 0);
  rig.tick(true);
  for (int t = 0; t < static_cast<int>(kHz) + 1; ++t) rig.tick();
  EXPECT_EQ(rig.channel("door.n", 0), 0.0f);
}

TEST(ReferenceLogic, ADoorBackAtRestLeavesTheChangedRecords) {
  Rig rig;
  rig.game.set_object_records(ObjectRecords::changed);
  const uint32_t door = rig.index("door.n");
  const auto door_written = [&] {
    TickRecords out;
    rig.game.write_records(Tick::from_value(rig.now), out);
    for (const protocol::Record& r : out.records)
      if (const auto* o = std::get_if<protocol::ObjectRecord>(&r.body); o != nullptr && o->object_index == door) return true;
    return false;
  };
  rig.stand(kBeforeNorthButton, 0);
  EXPECT_FALSE(door_written());
  rig.tick(true);
  EXPECT_TRUE(door_written()) << "moving, it differs from the map";
  for (int t = 0; t < 2 * static_cast<int>(kHz); ++t) rig.tick();
  rig.tick(true);
  for (int t = 0; t < static_cast<int>(kHz) + 1; ++t) rig.tick();
  EXPECT_FALSE(door_written()) << "closed and still: the map's own state again";
}

TEST(ReferenceLogic, TheSouthButtonRunsItsChainOfLightsAQuarterSecondApart) {
  Rig rig;
  rig.stand({1.75f, 0, -30.25f}, 180);
  const uint8_t first_before = rig.bits("light.wall.s.12");
  const uint8_t last_before = rig.bits("light.wall.s.19");
  rig.tick(true);
  EXPECT_NE(rig.bits("light.wall.s.12"), first_before) << "the chain's first call runs on the press";
  EXPECT_EQ(rig.bits("light.wall.s.13"), rig.map.objects()[rig.index("light.wall.s.13")].components[0].bits);
  // A press lands before its tick's logic advances, so its delays count from the tick before:
  // seven of 15 ticks end on the press tick + 104.
  for (int t = 0; t < 7 * 15 - 2; ++t) rig.tick();
  EXPECT_EQ(rig.bits("light.wall.s.19"), last_before) << "seven quarter-second delays not yet over";
  rig.tick();
  EXPECT_NE(rig.bits("light.wall.s.19"), last_before);
}

TEST(ReferenceLogic, ThePlateStartsTheLiftAndTheTriggerLightsItsLamp) {
  Rig rig;
  rig.stand({-22, 0, 12}, 0);  // on the plate
  rig.tick();
  EXPECT_EQ(rig.bits("plate.lift.w") & 1, 1) << "held down";
  for (int t = 0; t < 3 * static_cast<int>(kHz); ++t) rig.tick();
  EXPECT_EQ(rig.channel("lift.w", 0), 1.0f) << "3 m up at 1 m/s";
  rig.stand({-5, 0, -5}, 0);  // off the plate, into the trigger under the lamp
  rig.tick();
  EXPECT_EQ(rig.bits("plate.lift.w") & 1, 0);
  EXPECT_EQ(rig.bits("light.grid.05.05") & 1, 1);
  EXPECT_EQ(rig.channel("lift.w", 1), 0.0f) << "the lift waits two seconds before it comes down";
  for (int t = 0; t < 2 * static_cast<int>(kHz); ++t) rig.tick();
  EXPECT_LT(rig.channel("lift.w", 1), 0.0f);
  rig.stand({0, 0, 20}, 0);
  rig.tick();
  EXPECT_EQ(rig.bits("light.grid.05.05") & 1, 0) << "the lamp goes out as the trigger empties";
}

TEST(ReferenceLogic, EachRefusedUseIsCountedByItsReason) {
  Rig rig;
  const uint32_t button = rig.index("button.n");
  rig.stand(kBeforeNorthButton, 0);
  EXPECT_TRUE(rig.game.use_object(rig.pawn, button));

  rig.stand(kBeforeNorthButton, 90);  // looking east, beside it
  EXPECT_FALSE(rig.game.use_object(rig.pawn, button));
  EXPECT_EQ(rig.refused(UseRefusal::outside_cone), 1u);

  rig.stand({1.75f, 0, 28.5f}, 0);  // 3.4 m from the eye
  EXPECT_FALSE(rig.game.use_object(rig.pawn, button));
  EXPECT_EQ(rig.refused(UseRefusal::out_of_reach), 1u);

  rig.stand(kBeforeNorthButton, 0);
  EXPECT_FALSE(rig.game.use_object(rig.pawn, rig.index("light.door.n")));
  EXPECT_EQ(rig.refused(UseRefusal::not_interactive), 1u);

  rig.game.interact(rig.pawn, rig.pawn, 0, Tick::from_value(0));  // a pawn is not a map object
  rig.game.interact(rig.pawn, map_object_ref(static_cast<uint32_t>(rig.map.objects().size())), 0, Tick::from_value(0));
  EXPECT_EQ(rig.refused(UseRefusal::unknown_target), 2u);

  const EntityRef nobody = EntityRef::make(EntityNetHandle::make(0, 9), 1);
  rig.game.interact(nobody, map_object_ref(button), 0, Tick::from_value(0));
  EXPECT_EQ(rig.refused(UseRefusal::no_pawn), 1u);

  // Presses past the contract's interactions per second (10, the seed's, the bucket starting full).
  rig.stand({0, 0, 0}, 0);  // nothing in reach: each press that passes the bucket is out_of_reach
  // A press every other tick (30/s) against 10/s with a burst of 10: the k-th press (from 0) finds
  // 10 + k/3 - (presses passed) tokens, so presses 0..13 pass and the 15th (0.67 tokens) does not.
  for (int i = 0; i < 15; ++i) {
    rig.tick(true);
    rig.tick(false);
  }
  EXPECT_EQ(rig.refused(UseRefusal::out_of_reach), 1u + 14u);
  EXPECT_EQ(rig.refused(UseRefusal::rate_limited), 1u);

  std::vector<std::string> names;
  rig.game.visit_game_reasons([&](std::string_view name, uint64_t) { names.emplace_back(name); });
  EXPECT_NE(std::find(names.begin(), names.end(), "use.refusal.outside_cone"), names.end());
  EXPECT_NE(std::find(names.begin(), names.end(), "use.refusal.rate_limited"), names.end());
}

TEST(ReferenceLogic, TheRoomLetsAnInteractionNamingAMapObjectThroughToTheGame) {
  const Map map = rigs::load_rig_map(reference_map_text());
  ReferenceGame game(map);
  Room room(RoomConfig{rigs::rig_contract(), MonoTime{}}, game);
  const std::optional<EntityRef> pawn = room.admit(1);
  ASSERT_TRUE(pawn.has_value());
  game.place_pawn(*pawn, Placement{kBeforeNorthButton, {}, 0, 0, false});
  const uint32_t button = *map.object_index("button.n");
  EXPECT_TRUE(room.receive_interact(1, protocol::InteractRequest{map_object_ref(button).raw(), 0}, MonoTime{}));
  EXPECT_EQ(game.uses(), 1u);
  EXPECT_EQ(game.object_component(button, 0).bits & ButtonBehaviour::kPressedBit, ButtonBehaviour::kPressedBit);
  // A map object's ref with a generation is not one the game hands out: the room refuses it.
  const EntityRef stale = EntityRef::make(EntityNetHandle::from_raw(map_object_entity_id(button)), 3);
  EXPECT_FALSE(room.receive_interact(1, protocol::InteractRequest{stale.raw(), 0}, MonoTime{}));
  EXPECT_EQ(room.interact_refusals()[InteractRefusal::stale_or_foreign], 1u);
}

// A scene edit of a logic setting (seed 000, "Scene edits") is laid over the live component and the
// running node reads it at once (the door keeps its fraction and runs at its edited speed from its
// next step, a door made usable takes a Use); a node loaded later (a respawn) starts from it too.
TEST(ReferenceLogic, AnEditedLogicSettingRetunesTheRunningNodeAndTheNextLoad) {
  const Map map = rigs::load_rig_map(reference_map_text());
  ReferenceGame game(map);
  Room room(RoomConfig{rigs::rig_contract(), MonoTime{}}, game);
  const std::optional<EntityRef> pawn = room.admit(1, world_authority_grant());
  ASSERT_TRUE(pawn.has_value());
  game.place_pawn(*pawn, Placement{kBeforeNorthButton, {}, 0, 0, false});
  const uint32_t door = *map.object_index("door.n"), button = *map.object_index("button.n");
  protocol::SceneEdit retune;
  retune.field_edits = {protocol::FieldEdit{door, 2, "speed_mps", protocol::edit_numbers({6})}};
  EXPECT_FALSE(room.receive_edit(1, retune, MonoTime{}).has_value());
  EXPECT_EQ(setting_number(game.object_component(door, 0), "speed_mps"), 6.0f) << "laid over the live component";
  const auto* running = dynamic_cast<const DoorBehaviour*>(game.logic()->behaviour(door, 0));
  ASSERT_NE(running, nullptr);
  EXPECT_TRUE(room.receive_interact(1, protocol::InteractRequest{map_object_ref(button).raw(), 0}, MonoTime{}));
  game.step_world(Tick::from_value(1), room.seconds_per_tick());
  EXPECT_NEAR(running->rate_per_tick(), door_step_per_tick(6, 1.5, room.seconds_per_tick()), 1e-6) << "retuned live";
  EXPECT_TRUE(game.logic()->use_input(door).empty()) << "not usable as authored";
  protocol::SceneEdit usable;
  usable.field_edits = {protocol::FieldEdit{door, 2, "usable", protocol::edit_switch(true)}};
  EXPECT_FALSE(room.receive_edit(1, usable, MonoTime{}).has_value());
  EXPECT_EQ(game.logic()->use_input(door), DoorBehaviour::kToggle) << "a Use reaches it now";
  ASSERT_TRUE(game.despawn_object(door));
  ASSERT_TRUE(game.spawn_object(door));
  EXPECT_TRUE(game.logic()->use(door, LogicActivator::none())) << "usable now: a Use toggles it open";
  game.step_world(Tick::from_value(2), room.seconds_per_tick());
  const auto* mover = dynamic_cast<const DoorBehaviour*>(game.logic()->behaviour(door, 0));
  ASSERT_NE(mover, nullptr);
  EXPECT_NEAR(mover->rate_per_tick(), door_step_per_tick(6, 1.5, room.seconds_per_tick()), 1e-6);  // authored: a quarter of it
}

}  // namespace
}  // namespace tickwire::world

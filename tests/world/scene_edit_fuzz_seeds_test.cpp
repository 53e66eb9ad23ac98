// The seed corpus of fuzz_scene_edit (tests/fixtures/fuzz/fuzz_scene_edit/): scripts built here from
// what they claim (the four value forms and a revert, a write of each refused kind, a gesture from a
// session without world authority, component edits, hide and move and their undoing, a body that
// does not decode, wiring set, refused and reverted), held to their files (TICKWIRE_FUZZ_SEEDS=write regenerates), and each run through
// the fuzz target's own interpreter so the quick suite checks the edit set's rules on every seed.
#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "edit_script.h"
#include "fuzz_seed_check.h"
#include "support.h"

namespace tickwire::world::scripts {
namespace {

const std::filesystem::path kSeeds = test::source_dir() / "tests" / "fixtures" / "fuzz" / "fuzz_scene_edit";

constexpr uint8_t kLight = 1, kProp = 5, kCollider = 16, kMover = 2;

struct EditScriptWriter {
  EditScriptWriter& gesture(OwnerId sender, const protocol::SceneEdit& edit) {
    std::vector<uint8_t> body(wire::measure(edit));
    EXPECT_TRUE(wire::encode(edit, body).ok());
    return raw(sender, body);
  }
  EditScriptWriter& raw(OwnerId sender, const std::vector<uint8_t>& body) {
    bytes.push_back(sender == kEditAuthority ? 0 : 1);
    test::append_length_prefixed(bytes, body);
    return *this;
  }
  std::vector<uint8_t> bytes;
};

uint32_t index_of(std::string_view key) { return *script_world().map.object_index(key); }

protocol::SceneEdit fields(uint32_t gesture, std::vector<protocol::FieldEdit> edits) {
  protocol::SceneEdit g;
  g.gesture = gesture;
  g.field_edits = std::move(edits);
  return g;
}

struct Seed {
  std::vector<uint8_t> script;
  std::function<void(const EditScriptOutcome&)> expect;
};

std::map<std::string, Seed> seeds() {
  const uint32_t lamp = index_of("light.wall.n.00"), crate = index_of("prop.crate.0"), button = index_of("button.n"),
                 door = index_of("door.n");
  std::map<std::string, Seed> out;
  EditScriptWriter forms;
  forms.gesture(kEditAuthority, fields(1, {{lamp, kLight, "color", protocol::edit_numbers({1, 0.5f, 0})},
                                           {lamp, kLight, "shadows", protocol::edit_word("soft")},
                                           {lamp, kLight, "layers", protocol::edit_words({"world", "pawns"})},
                                           {button, kCollider, "solid", protocol::edit_switch(false)},
                                           {crate, kProp, "material", protocol::edit_word("rubber")}}))
      .gesture(kEditAuthority, fields(2, {{lamp, kLight, "shadows", std::nullopt}}));
  out["four_forms_and_a_revert"] = {forms.bytes, [](const EditScriptOutcome& o) {
                                      EXPECT_EQ(o.gestures, 2u);
                                      EXPECT_EQ(o.refusals, 0u);
                                      EXPECT_EQ(o.revision, 2u);
                                    }};
  EditScriptWriter refused;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  refused.gesture(kEditAuthority, fields(3, {{lamp, kProp, "mass", protocol::edit_numbers({1})},
                                             {lamp, kLight, "glow", protocol::edit_numbers({1})},
                                             {lamp, kLight, "intensity", protocol::edit_word("bright")},
                                             {lamp, kLight, "color", protocol::edit_numbers({1})},
                                             {lamp, kLight, "range_m", protocol::edit_numbers({nan})},
                                             {lamp, kLight, "shadows", protocol::edit_word("fuzzy")},
                                             {door, kMover, "axis", protocol::edit_numbers({0, 0, 0})},
                                             {70000, kLight, "intensity", protocol::edit_numbers({1})},
                                             {lamp, kLight, "intensity", std::nullopt}}));
  out["each_refusal"] = {refused.bytes, [](const EditScriptOutcome& o) {
                           EXPECT_EQ(o.refusals, 9u);
                           EXPECT_EQ(o.revision, 0u);
                         }};
  EditScriptWriter nobody;
  nobody.gesture(kEditNobody, fields(4, {{lamp, kLight, "intensity", protocol::edit_numbers({9})}}));
  out["without_authority"] = {nobody.bytes, [](const EditScriptOutcome& o) {
                                EXPECT_EQ(o.refused_whole, 1u);
                                EXPECT_EQ(o.revision, 0u);
                              }};
  EditScriptWriter components;
  protocol::SceneEdit add;
  add.gesture = 5;
  add.component_edits = {{lamp, kCollider, protocol::ComponentOp::add}, {button, kCollider, protocol::ComponentOp::remove},
                         {door, kMover, protocol::ComponentOp::remove}};
  add.field_edits = {{lamp, kCollider, "half_extents", protocol::edit_numbers({0.3f, 0.3f, 0.3f})}};
  protocol::SceneEdit undo;
  undo.gesture = 6;
  undo.component_edits = {{lamp, kCollider, protocol::ComponentOp::revert}, {button, kCollider, protocol::ComponentOp::revert}};
  components.gesture(kEditAuthority, add).gesture(kEditAuthority, undo);
  out["components_added_removed_reverted"] = {components.bytes, [](const EditScriptOutcome& o) {
                                                EXPECT_EQ(o.refusals, 1u);  // the door's mover
                                                EXPECT_EQ(o.revision, 2u);
                                              }};
  EditScriptWriter verbs;
  protocol::SceneEdit move;
  move.gesture = 7;
  move.object_edits = {{button, protocol::ObjectVerb::move, protocol::EditTransform{protocol::Vec3{2, 1, 2}, protocol::EditRotation{0, 1, 0, 1}}, ""},
                       {index_of("button.s"), protocol::ObjectVerb::hide, std::nullopt, ""},
                       {door, protocol::ObjectVerb::move, protocol::EditTransform{}, ""},
                       {crate, protocol::ObjectVerb::hide, std::nullopt, ""}};
  protocol::SceneEdit back;
  back.gesture = 8;
  back.object_edits = {{button, protocol::ObjectVerb::unmove, std::nullopt, ""},
                       {index_of("button.s"), protocol::ObjectVerb::show, std::nullopt, ""},
                       {crate, protocol::ObjectVerb::show, std::nullopt, ""}};
  verbs.gesture(kEditAuthority, move).gesture(kEditAuthority, back);
  out["hide_move_and_back"] = {verbs.bytes, [](const EditScriptOutcome& o) {
                                 EXPECT_EQ(o.refusals, 1u);  // the door is its mover's to place
                                 EXPECT_EQ(o.revision, 2u);
                               }};
  EditScriptWriter wiring;
  protocol::SceneEdit rewire;
  rewire.gesture = 9;
  rewire.wiring_edits = {
      {button, "onPressed", protocol::WiringOp::set, {protocol::wiring_call("door.e", "toggle"), protocol::wiring_delay(1), protocol::wiring_call("door.n", "toggle")}},
      {index_of("button.e"), "onPressed", protocol::WiringOp::set, {}},                                   // unwired
      {button, "onReleased", protocol::WiringOp::set, {protocol::wiring_call("door.zz", "toggle")}},        // unknown_target
      {button, "onReleased", protocol::WiringOp::set, {protocol::wiring_delay(-1)}},                       // bad_action
      {button, "on pressed", protocol::WiringOp::set, {}},                                                 // bad_action
      {crate, "onPressed", protocol::WiringOp::set, {protocol::wiring_call("door.n", "toggle")}},          // not_logic
      {door, "onOpened", protocol::WiringOp::revert, {}}};                                                 // not_edited
  protocol::SceneEdit unwire;
  unwire.gesture = 10;
  unwire.wiring_edits = {{button, "onPressed", protocol::WiringOp::revert, {}},
                         {index_of("button.e"), "onPressed", protocol::WiringOp::revert, {}}};
  wiring.gesture(kEditAuthority, rewire).gesture(kEditAuthority, unwire);
  out["wiring_set_refused_reverted"] = {wiring.bytes, [](const EditScriptOutcome& o) {
                                          EXPECT_EQ(o.refusals, 5u);
                                          EXPECT_EQ(o.revision, 2u);
                                        }};
  EditScriptWriter malformed;
  malformed.raw(kEditAuthority, {0x05, 0xff, 0xff, 0x00});
  out["undecodable"] = {malformed.bytes, [](const EditScriptOutcome& o) { EXPECT_EQ(o.undecodable, 1u); }};
  return out;
}

TEST(SceneEditFuzzSeeds, EachSeedDoesWhatItClaimsAndKeepsTheRules) {
  for (const auto& [name, seed] : seeds()) {
    SCOPED_TRACE(name);
    test::check_fuzz_seed(kSeeds, name, seed.script);
    const EditScriptOutcome outcome = run_edit_script(seed.script);
    EXPECT_FALSE(outcome.violation) << *outcome.violation;
    seed.expect(outcome);
  }
}

}  // namespace
}  // namespace tickwire::world::scripts

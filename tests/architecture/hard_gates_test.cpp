// The hard gates as a test: the real tree passes every gate with zero violations, and each gate
// fails on a violation planted in a copy of the tree, reporting exactly that violation with its
// file, line and rule (a gate that cannot fail proves nothing).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "hard_gates.h"
#include "planted_tree.h"

namespace tickwire::arch {
namespace {

using ::testing::HasSubstr;

std::string listed(const std::vector<Violation>& violations) {
  std::string out;
  for (const Violation& v : violations) out += "\n  " + describe(v);
  return out;
}

// The plants added exactly one violation: this rule's, at this file and line.
void expect_only(const PlantedTree& tree, std::string_view rule, const std::string& file, std::size_t line,
                 const std::string& detail_part) {
  const std::vector<Violation> added = tree.planted();
  ASSERT_EQ(added.size(), 1u) << "the plant should add exactly one violation:" << listed(added);
  EXPECT_EQ(added[0].rule, rule);
  EXPECT_EQ(added[0].file, file);
  EXPECT_EQ(added[0].line, line);
  EXPECT_THAT(added[0].detail, HasSubstr(detail_part));
  std::printf("caught: %s\n", describe(added[0]).c_str());
}

TEST(HardGates, RealTreePassesEveryGate) {
  const SourceTree tree = SourceTree::scan(TICKWIRE_SOURCE_DIR);
  std::printf("hard gates over %s: %zu files, %zu include lines\n", TICKWIRE_SOURCE_DIR, tree.files().size(),
              tree.include_count());
  ASSERT_GT(tree.files().size(), 0u);
  for (const GateReport& report : check_all(tree)) {
    std::printf("%s\n", report.summary().c_str());
    EXPECT_GT(report.files_scanned, 0u) << report.rule;
    EXPECT_GT(report.edges_checked, 0u) << report.rule;
    for (const Violation& v : report.violations) ADD_FAILURE() << describe(v);
  }
}

// ---- Rule 1: the engine never includes the game.

TEST(HardGates, WorldIncludeInReplicationIsCaught) {
  PlantedTree tree;
  tree.write("src/replication/planted_world_user.cpp",
             "// Planted: replication reaching into the game.\n"
             "#include \"tickwire/replication/tick_records.h\"\n"
             "#include \"tickwire/world/reference_game.h\"\n");
  expect_only(tree, kRuleWorld, "src/replication/planted_world_user.cpp", 3, "tickwire/world/reference_game.h");
}

TEST(HardGates, RelativeWorldIncludeIsCaught) {
  PlantedTree tree;
  tree.write("src/server/planted_relative.cpp",
             "// Planted: a relative path climbing into the game's headers.\n"
             "#include \"../../include/tickwire/world/map.h\"\n");
  expect_only(tree, kRuleWorld, "src/server/planted_relative.cpp", 2, "engine module 'server' includes the game");
}

// ---- Rule 2: layering.

TEST(HardGates, UpwardIncludeIsCaught) {
  PlantedTree tree;
  tree.write("include/tickwire/core/planted_upward.h",
             "// Planted: core reaching up into protocol.\n"
             "#pragma once\n"
             "#include \"tickwire/core/assert.h\"\n"
             "#include \"tickwire/protocol/constants.h\"\n");
  expect_only(tree, kRuleLayering, "include/tickwire/core/planted_upward.h", 4, "'core' includes 'protocol', above it");
}

TEST(HardGates, LayerExceptionNoLongerNeededIsCaught) {
  PlantedTree tree;
  tree.remove_lines_with("include/tickwire/wire/typed_channel.h", "tickwire/protocol/constants.h");
  expect_only(tree, kRuleLayering, "include/tickwire/wire/typed_channel.h", 0, "no longer needed");
}

TEST(HardGates, ModuleWithoutAPlaceIsCaught) {
  PlantedTree tree;
  tree.write("src/planted/planted_module.cpp",  // a folder no real module will take (fleet/ had been the example)
             "// Planted: a new module the order does not know yet.\n"
             "#include \"tickwire/core/assert.h\"\n");
  expect_only(tree, kRuleLayering, "src/planted/planted_module.cpp", 0, "no place in kModuleOrder");
}

// ---- Rule 3: the prediction path.

TEST(HardGates, BulletReachedThroughAHeaderThePredictorIncludesIsCaught) {
  PlantedTree tree;
  tree.append_line("include/tickwire/client/predictor.h", "#include \"tickwire/client/planted_prediction_math.h\"");
  tree.write("include/tickwire/client/planted_prediction_math.h",
             "// Planted: a helper the predictor includes.\n"
             "#pragma once\n"
             "#include \"tickwire/client/planted_contact_solver.h\"\n");
  tree.write("include/tickwire/client/planted_contact_solver.h",
             "// Planted: a helper that brings in a dynamic-physics engine.\n"
             "#pragma once\n"
             "#include <btBulletDynamicsCommon.h>\n");
  expect_only(tree, kRulePrediction, "include/tickwire/client/planted_contact_solver.h", 3,
              "include/tickwire/client/predictor.h -> include/tickwire/client/planted_prediction_math.h -> "
              "include/tickwire/client/planted_contact_solver.h");
}

TEST(HardGates, LogicRuntimeInThePredictionClosureIsCaught) {
  PlantedTree tree;
  const std::size_t line =
      tree.append_line("include/tickwire/client/prediction_model.h", "#include \"tickwire/logic/logic_runtime.h\"");
  expect_only(tree, kRulePrediction, "include/tickwire/client/prediction_model.h", line,
              "the logic runtime on the prediction path: tickwire/logic/logic_runtime.h");
}

TEST(HardGates, MissingPredictionRootIsCaught) {
  PlantedTree tree;
  tree.remove("src/world/mover_prediction_model.cpp");
  expect_only(tree, kRulePrediction, "src/world/mover_prediction_model.cpp", 0, "prediction root is missing");
}

// ---- Rule 4: the fan-out corridor.

TEST(HardGates, ProducerCalledFromAnUnauthorizedFileIsCaught) {
  PlantedTree tree;
  tree.write("src/client/planted_rogue_encoder.cpp",
             "// Planted: a client file producing frames. Naming encode_snapshot_delta in a comment is no reference.\n"
             "#include \"tickwire/replication/delta/snapshot_delta_codec.h\"\n"
             "namespace tickwire {\n"
             "void planted(const FrameView& frame, const ReplicaKinds& kinds, std::vector<uint8_t>& out) {\n"
             "  const char* note = \"nor is encode_snapshot_delta in a string\";\n"
             "  (void)note;\n"
             "  (void)encode_snapshot_delta(frame, DeltaRefs{}, kinds, out);\n"
             "}\n"
             "}  // namespace tickwire\n");
  expect_only(tree, kRuleCorridor, "src/client/planted_rogue_encoder.cpp", 7, "names snapshot producer encode_snapshot_delta");
}

TEST(HardGates, GoneAuthorizedCallerIsCaught) {
  PlantedTree tree;
  tree.remove("src/server/room_server.cpp");
  expect_only(tree, kRuleCorridor, "src/server/room_server.cpp", 0, "authorized producer caller is gone");
}

}  // namespace
}  // namespace tickwire::arch

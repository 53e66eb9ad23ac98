// The README's inspection commands: `tickwire map check [FILE]` (the built-in or a file's counts and
// hash, a version 3 file's records resolved; a broken file's error at its JSON path, exit 2),
// `tickwire map crowd` (a crowd map a server then loads) and `tickwire schema` (the wire schema text).
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "cli_run.h"

namespace tickwire {
namespace {

using test::run_cli;

// A file under the source tree, built in place (GCC 12 misreads a temporary's concatenation inside an
// argument list as out of bounds, -Warray-bounds).
std::string source_file(const char* relative) {
  std::string path(TICKWIRE_SOURCE_DIR);
  path.append(relative);
  return path;
}

TEST(InspectionCommands, MapCheckCountsTheReferenceMap) {
  const test::CliRun run = run_cli({"map", "check", source_file("/maps/reference.json")});
  ASSERT_TRUE(run.exited_with(0)) << run.output;
  EXPECT_NE(run.output.find("(format 2)"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("objects 319"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("wired objects"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("hash "), std::string::npos) << run.output;
  const test::CliRun built_in = run_cli({"map", "check"});
  ASSERT_TRUE(built_in.exited_with(0)) << built_in.output;
  EXPECT_NE(built_in.output.find("objects 319"), std::string::npos) << built_in.output;
}

TEST(InspectionCommands, MapCrowdWritesAMapOfOneSpawnPointPerPlayer) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / ("tickwire-crowd-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "crowd.json").string();
  const test::CliRun run = run_cli({"map", "crowd", "--players", "255", "--spacing", "20", "--out", path});
  ASSERT_TRUE(run.exited_with(0)) << run.output;
  EXPECT_NE(run.output.find("spawn points 255"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("density 2500 players per km2"), std::string::npos) << run.output;
  const test::CliRun check = run_cli({"map", "check", path});
  ASSERT_TRUE(check.exited_with(0)) << check.output;
  EXPECT_NE(check.output.find("spawn points 255"), std::string::npos) << check.output;
  EXPECT_NE(check.output.find("boxes 1"), std::string::npos) << check.output;
  EXPECT_FALSE(std::filesystem::exists(path + ".partial"));
  const test::CliRun nowhere = run_cli({"map", "crowd", "--players", "4", "--out", (dir / "missing" / "x.json").string()});
  EXPECT_TRUE(nowhere.exited_with(2)) << "a folder that is not there refuses the map (the path goes to stderr)";
  EXPECT_EQ(nowhere.output.find("spawn points"), std::string::npos) << nowhere.output;
  std::filesystem::remove_all(dir);
}

TEST(InspectionCommands, MapCheckNamesABrokenFilesPathAndExitsTwo) {
  const std::filesystem::path path =
      std::filesystem::temp_directory_path() / ("tickwire-bad-map-" + std::to_string(getpid()) + ".json");
  std::ofstream(path) << R"({"format": "tickwire-map", "version": 2, "name": "x", "boxes": [], "spawns": [],
                             "objects": [{"key": 1}]})";
  const test::CliRun run = run_cli({"map", "check", path.string()});
  std::filesystem::remove(path);
  EXPECT_TRUE(run.exited_with(2));
}

TEST(InspectionCommands, MapCheckResolvesAVersion3MapsRecords) {
  const test::CliRun run =
      run_cli({"map", "check", source_file("/tests/fixtures/fuzz/fuzz_map_loader/records.json")});
  ASSERT_TRUE(run.exited_with(0)) << run.output;
  EXPECT_NE(run.output.find("(format 3)"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("objects 7"), std::string::npos) << "placements and their carried children: " << run.output;
  EXPECT_NE(run.output.find("  crate_prop 3"), std::string::npos) << run.output;
}

TEST(InspectionCommands, MapCheckRefusesABrokenRecordWithExitTwo) {
  const std::filesystem::path path =
      std::filesystem::temp_directory_path() / ("tickwire-bad-records-" + std::to_string(getpid()) + ".json");
  std::ofstream(path) << R"({"format": "tickwire-map", "version": 3, "name": "x", "spawns": [{"position": [0, 0, 0], "yaw_deg": 0}],
                             "objects": [{"key": "a", "source": "crate"}]})";
  const test::CliRun run = run_cli({"map", "check", path.string()});
  std::filesystem::remove(path);
  EXPECT_TRUE(run.exited_with(2)) << "an unknown source refuses the map (its path goes to stderr)";
  EXPECT_EQ(run.output.find("hash "), std::string::npos) << run.output;
}

TEST(InspectionCommands, SchemaPrintsTheWireSchemaText) {
  const test::CliRun run = run_cli({"schema"});
  ASSERT_TRUE(run.exited_with(0)) << run.output;
  EXPECT_EQ(run.output.rfind("tickwire-schema ", 0), 0u) << run.output.substr(0, 80);
  EXPECT_NE(run.output.find("message "), std::string::npos);
}

}  // namespace
}  // namespace tickwire

// The main job end to end: `tickwire demo` with 4 bots for 5 s on loopback (a real server, a real
// link conditioner and a bot process, all over UDP) writes a report whose figures are present and
// sane: every bot connected, no reliable channel failed, snapshots arrived at the tick rate within
// 5%, the server ran 60 Hz, and nothing was left running. A second run sends every bot a 2 MB
// reliable block mid-game on the broadband profile (README: `--block-mb`): all of it arrives and the
// snapshots keep the tick rate meanwhile. A third runs `--behaviour use` (README): the bots press the
// map's buttons and the report's "game uses (server)" line counts the uses the game took; a fourth
// runs `--behaviour fire`, and its "game shots (server)" line counts the shots the game traced. A
// fifth writes the HTML report (README: `--html`): the table and a drawn plot per figure, no script.
// A sixth runs the bot process on two threads (README: `--bot-threads 2`): the report has the same
// fields as a one-thread run's, and every bot played.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "child_process.h"
#include "page_text.h"

namespace tickwire {
namespace {

// Runs `tickwire demo ARGS --json FILE` to its report and returns the parsed JSON (discarded on
// failure); `printed` (when given) receives what the demo printed.
nlohmann::json run_demo(std::vector<std::string> args, std::string* printed = nullptr) {
  const std::filesystem::path json_path =
      std::filesystem::temp_directory_path() / ("tickwire-demo-test-" + std::to_string(getpid()) + ".json");
  args.insert(args.begin(), "demo");
  args.insert(args.end(), {"--json", json_path.string()});
  test::ChildProcess demo;
  EXPECT_TRUE(demo.spawn(TICKWIRE_CLI_PATH, args));
  EXPECT_TRUE(demo.wait_for_output("contract hash", 60000)) << demo.output();
  demo.stop();
  std::printf("%s", demo.output().c_str());
  if (printed != nullptr) *printed = demo.output();
  std::ifstream in(json_path);
  nlohmann::json report = nlohmann::json::parse(in, nullptr, false);
  std::filesystem::remove(json_path);
  return report;
}

TEST(Demo, AShortRunReportsSaneFigures) {
  const nlohmann::json report = run_demo({"--bots", "4", "--seconds", "5", "--profile", "lan"});
  ASSERT_FALSE(report.is_discarded());

  EXPECT_EQ(report["clients"]["connected"], 4);
  EXPECT_EQ(report["clients"]["reliable_failures"], 0);
  EXPECT_EQ(report["frames_refused"], 0);
  // Every client got a snapshot per server tick (60 Hz) within 5%, counted from its welcome.
  EXPECT_GT(report["snapshots"]["min_client_hz"].get<double>(), 57.0);
  EXPECT_LT(report["snapshots"]["per_client_hz"]["max"].get<double>(), 63.0);
  EXPECT_NEAR(report["server"]["tick_hz"].get<double>(), 60.0, 3.0);
  EXPECT_EQ(report["server"]["declared_ticks"], 0);
  EXPECT_GT(report["bandwidth_kbps"]["down"]["mean"].get<double>(), 10.0);
  EXPECT_GT(report["bandwidth_kbps"]["up"]["mean"].get<double>(), 1.0);
  EXPECT_GT(report["snapshot_bytes"]["mean"].get<double>(), 50.0);
  EXPECT_EQ(report["contract_hash"].get<std::string>().size(), 32u);
  EXPECT_EQ(report["server"]["snapshot_drops"], 0);
  EXPECT_FALSE(report.contains("block"));
}

// Every object key of `j`, as dotted paths (an array's first element stands for all of it).
void field_paths(const nlohmann::json& j, const std::string& at, std::set<std::string>& out) {
  if (j.is_array() && !j.empty()) field_paths(j.front(), at + "[]", out);
  if (!j.is_object()) return;
  for (const auto& [key, value] : j.items()) {
    out.insert(at + "." + key);
    field_paths(value, at + "." + key, out);
  }
}

TEST(Demo, BotsOnTwoThreadsReportTheSameFields) {
  const nlohmann::json threaded = run_demo({"--bots", "4", "--bot-threads", "2", "--seconds", "3", "--profile", "lan"});
  const nlohmann::json single = run_demo({"--bots", "4", "--seconds", "3", "--profile", "lan"});
  ASSERT_FALSE(threaded.is_discarded());
  ASSERT_FALSE(single.is_discarded());
  std::set<std::string> threaded_fields, single_fields;
  field_paths(threaded, "", threaded_fields);
  field_paths(single, "", single_fields);
  EXPECT_EQ(threaded_fields, single_fields);
  EXPECT_GT(threaded_fields.size(), 20u);
  EXPECT_EQ(threaded["clients"]["connected"], 4);
  EXPECT_EQ(threaded["clients"]["reliable_failures"], 0);
  EXPECT_EQ(threaded["frames_refused"], 0);
  EXPECT_GT(threaded["snapshots"]["min_client_hz"].get<double>(), 57.0);
  EXPECT_NEAR(threaded["server"]["tick_hz"].get<double>(), 60.0, 3.0);
}

TEST(Demo, AReliableBlockMidGameArrivesWhileSnapshotsKeepTheTickRate) {
  const nlohmann::json report = run_demo(
      {"--bots", "4", "--seconds", "8", "--profile", "broadband", "--block-mb", "2", "--block-at", "3"});
  ASSERT_FALSE(report.is_discarded());
  EXPECT_EQ(report["clients"]["connected"], 4);
  EXPECT_EQ(report["clients"]["reliable_failures"], 0);
  ASSERT_TRUE(report.contains("block"));
  EXPECT_EQ(report["block"]["clients"], 4);
  EXPECT_EQ(report["block"]["bytes"], 2u * 1024 * 1024);
  // 60 snapshots a second (within 5%) at every bot while its 2 MB arrived.
  EXPECT_GT(report["block"]["snapshot_hz_lowest"].get<double>(), 57.0);
  EXPECT_GT(report["snapshots"]["min_client_hz"].get<double>(), 57.0);
  EXPECT_EQ(report["server"]["snapshot_drops"], 0);
}

// Server-time mode from the CLI (README: `tickwire demo --mode server-time --logic-hz 30,60,144`):
// three bots at 30, 60 and 144 Hz logic against a room ticking at 30 Hz; every bot plays, the
// snapshots come at the room's rate, the server merged their inputs into fresh ticks, and the
// report names the mode and the rates.
TEST(Demo, ServerTimeModeBotsRunTheirOwnLogicRates) {
  std::string printed;
  const nlohmann::json report = run_demo({"--bots", "3", "--seconds", "5", "--profile", "broadband", "--tick-hz", "30",
                                          "--mode", "server-time", "--logic-hz", "30,60,144"},
                                         &printed);
  ASSERT_FALSE(report.is_discarded());
  EXPECT_EQ(report["clients"]["connected"], 3);
  EXPECT_EQ(report["run"]["mode"], "server-time");
  EXPECT_EQ(report["run"]["logic_hz"], "30,60,144");
  EXPECT_EQ(report["frames_refused"], 0);
  EXPECT_GT(report["snapshots"]["min_client_hz"].get<double>(), 27.0);
  EXPECT_NEAR(report["server"]["tick_hz"].get<double>(), 30.0, 2.0);
  EXPECT_LT(report["input_queue"]["starved_percent"].get<double>(), 50.0) << "inputs reached the ticks";
  EXPECT_NE(printed.find("runtime mode"), std::string::npos) << printed;
}

TEST(Demo, TheHtmlReportHasTheTableAndAPlotPerFigure) {
  const std::filesystem::path html_path =
      std::filesystem::temp_directory_path() / ("tickwire-demo-test-" + std::to_string(getpid()) + ".html");
  const nlohmann::json report = run_demo({"--bots", "3", "--seconds", "4", "--profile", "lan", "--html", html_path.string()});
  ASSERT_FALSE(report.is_discarded());
  EXPECT_EQ(report["clients"]["connected"], 3);
  std::ifstream in(html_path);
  const std::string page((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::filesystem::remove(html_path);
  EXPECT_EQ(page.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_EQ(page.find("<script"), std::string::npos);
  EXPECT_NE(page.find("<th>clients connected</th><td>3/3"), std::string::npos);
  EXPECT_EQ(test::count_of(page, "<svg class=\"plot\""), 7u);
  EXPECT_EQ(page.find("no data"), std::string::npos) << "every plot has points";
  EXPECT_GE(test::count_of(page, "<polyline"), 6u * 3 + 2) << "each client in each client plot, the server's p50 and p99";
  EXPECT_LT(page.size(), 200u * 1024);
}

TEST(Demo, UseBotsPressButtonsAndTheReportCountsTheServersUses) {
  std::string printed;
  const nlohmann::json report =
      run_demo({"--bots", "3", "--seconds", "12", "--profile", "lan", "--behaviour", "use"}, &printed);
  ASSERT_FALSE(report.is_discarded());
  EXPECT_EQ(report["clients"]["connected"], 3);
  ASSERT_TRUE(report.contains("uses")) << "the server counted uses";
  EXPECT_GE(report["uses"]["taken"].get<uint64_t>(), 2u) << "bots reach their buttons and press them";
  EXPECT_NE(printed.find("game uses (server)"), std::string::npos);
  EXPECT_NE(printed.find("taken " + std::to_string(report["uses"]["taken"].get<uint64_t>())), std::string::npos);
}

TEST(Demo, FireBotsShootAndTheReportCountsTheServersShots) {
  std::string printed;
  const nlohmann::json report =
      run_demo({"--bots", "3", "--seconds", "5", "--profile", "lan", "--behaviour", "fire"}, &printed);
  ASSERT_FALSE(report.is_discarded());
  EXPECT_EQ(report["clients"]["connected"], 3);
  ASSERT_TRUE(report.contains("shots")) << "the server counted shots";
  const uint64_t traced = report["shots"]["traced"].get<uint64_t>();
  EXPECT_GE(traced, 10u) << "three shots a second from each bot";
  EXPECT_EQ(report["shots"]["hit_events_sent"].get<uint64_t>(),
            3u * (report["shots"]["surface"].get<uint64_t>() + report["shots"]["water"].get<uint64_t>() +
                  report["shots"]["nothing"].get<uint64_t>()))
      << "every event to every session";
  EXPECT_NE(printed.find("game shots (server)"), std::string::npos);
  EXPECT_NE(printed.find("traced " + std::to_string(traced)), std::string::npos);
}

}  // namespace
}  // namespace tickwire

// `tickwire bot --threads N` (README) against a real `tickwire server` on loopback: 8 `fire` bots
// on 2 threads are all welcomed and fed, the progress lines sum both threads' bots (welcomed reaches
// 8, the series rows are every bot's, in id order), both threads' hit lines arrive, and no printed
// line is cut into by another thread's. `--threads` above 1 with --match or --http (driven from one
// loop) is refused by name with exit code 2.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <cstdio>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli_lines.h"

namespace tickwire {
namespace {

using test::free_port;
using test::lines_of;

TEST(BotThreads, EightFireBotsOnTwoThreadsAreAllWelcomedAndTheirLinesAreWhole) {
  test::KeyedTempDir dir("tickwire-bot-threads-test");
  const std::string port = std::to_string(free_port());
  test::ChildProcess server, bots;
  ASSERT_TRUE(server.spawn(TICKWIRE_CLI_PATH, {"server", "--key", dir.key().string(), "--port", port, "--seconds", "30"}));
  ASSERT_TRUE(server.wait_for_output("\"type\":\"ready\"", 20000)) << server.output();
  ASSERT_TRUE(bots.spawn(TICKWIRE_CLI_PATH, {"bot", "--server", "127.0.0.1:" + port, "--key", dir.key().string(), "--count", "8",
                                             "--threads", "2", "--seconds", "3", "--stats-interval", "0.5", "--series",
                                             "--behaviour", "fire"}));
  (void)bots.wait_for_output("\x01never printed\x01", 30000);  // reads until it exits after its final line
  EXPECT_EQ(bots.stop(), 0) << "exited by itself, rc 0";
  server.stop();
  const std::string& out = bots.output();

  // Every line whole: JSON, not two threads' text run together.
  std::istringstream lines(out);
  std::size_t line_count = 0;
  for (std::string line; std::getline(lines, line); ++line_count)
    EXPECT_FALSE(nlohmann::json::parse(line, nullptr, false).is_discarded()) << "a cut line: " << line;
  EXPECT_GT(line_count, 10u);

  const auto finals = lines_of(out, "bots_final");
  ASSERT_EQ(finals.size(), 1u) << out;
  const nlohmann::json& clients = finals[0]["clients"];
  ASSERT_EQ(clients.size(), 8u);
  for (std::size_t i = 0; i < clients.size(); ++i) {
    EXPECT_EQ(clients[i]["id"], 1000 + i);
    EXPECT_TRUE(clients[i]["welcomed"].get<bool>()) << clients[i];
    EXPECT_GT(clients[i]["snapshots"].get<uint64_t>(), 0u) << clients[i];
  }

  const auto progress = lines_of(out, "bots");
  ASSERT_GE(progress.size(), 4u) << out;
  uint64_t most_welcomed = 0;
  for (const auto& p : progress) {
    EXPECT_EQ(p["count"], 8);
    most_welcomed = std::max(most_welcomed, p["welcomed"].get<uint64_t>());
  }
  EXPECT_EQ(most_welcomed, 8u) << "both threads' bots summed";
  const auto series = lines_of(out, "bots_series");
  ASSERT_EQ(series.size(), progress.size()) << "one series line with each progress line";
  const nlohmann::json& rows = series.back()["clients"];
  ASSERT_EQ(rows.size(), 8u);
  for (std::size_t i = 0; i < rows.size(); ++i) EXPECT_EQ(rows[i][0], 1000 + i) << "every bot's row, in id order";

  std::set<uint64_t> parity;  // bot i runs on thread i % 2: both threads' bots shot and heard
  for (const auto& hit : lines_of(out, "hit")) parity.insert(hit["client"].get<uint64_t>() % 2);
  EXPECT_EQ(parity.size(), 2u) << out;
}

// Runs the CLI with stderr folded into stdout, under a timeout; its exit code and what it printed.
std::pair<int, std::string> run_with_stderr(const std::string& args) {
  std::FILE* pipe = ::popen(fmt::format("timeout 20 {} {} 2>&1", TICKWIRE_CLI_PATH, args).c_str(), "r");
  if (pipe == nullptr) return {-1, ""};
  std::string printed;
  char buffer[4096];
  for (std::size_t got = 0; (got = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) printed.append(buffer, got);
  const int status = ::pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, printed};
}

TEST(BotThreads, MoreThanOneThreadWithMatchOrHttpIsRefusedByName) {
  const auto [match_code, match_said] = run_with_stderr("bot --match 127.0.0.1:9 --count 2 --threads 2 --seconds 1");
  EXPECT_EQ(match_code, 2);
  EXPECT_NE(match_said.find("--threads"), std::string::npos) << match_said;
  EXPECT_NE(match_said.find("--match"), std::string::npos) << match_said;
  const auto [http_code, http_said] =
      run_with_stderr("bot --server 127.0.0.1:9 --key /nonexistent --count 2 --threads 2 --http 0 --seconds 1");
  EXPECT_EQ(http_code, 2);
  EXPECT_NE(http_said.find("--threads"), std::string::npos) << http_said;
  EXPECT_NE(http_said.find("--http"), std::string::npos) << http_said;
  const auto [range_code, range_said] = run_with_stderr("bot --server 127.0.0.1:9 --key /nonexistent --threads 65");
  EXPECT_EQ(range_code, 2);
  EXPECT_NE(range_said.find("--threads"), std::string::npos) << range_said;
}

}  // namespace
}  // namespace tickwire

// A user's mistake in a flag gets an error naming that flag and exit code 2, never a silent run:
// every floating-point option of every command refuses NaN and infinities by name (walked from
// each command's --help, so a new option is covered the day it is added), negative and zero
// durations are refused by name, and a key or map path that is a FIFO with no writer is refused
// at once instead of blocking in open().
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

namespace tickwire {
namespace {

struct Ran {
  int exit_code = -1;
  std::string output;  // stdout and stderr together
};

// Runs the CLI through the shell with stderr folded into stdout, under a timeout (124: it hung).
Ran run_shell(const std::string& args) {
  const std::string command = fmt::format("timeout 20 {} {} 2>&1", TICKWIRE_CLI_PATH, args);
  Ran ran;
  std::FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return ran;
  char buffer[4096];
  std::size_t got = 0;
  while ((got = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) ran.output.append(buffer, got);
  const int status = ::pclose(pipe);
  ran.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return ran;
}

std::vector<std::string> subcommands() {
  const Ran help = run_shell("--help");
  std::vector<std::string> names;
  std::istringstream lines(help.output);
  bool listing = false;
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("Subcommands:", 0) == 0) {
      listing = true;
    } else if (listing && line.size() > 2 && line[0] == ' ') {
      names.push_back(line.substr(2, line.find(' ', 2) - 2));
    }
  }
  return names;
}

std::vector<std::string> float_options(const std::string& command) {
  const Ran help = run_shell(command + " --help");
  const std::regex option(R"((--[a-z0-9-]+) FLOAT)");
  std::vector<std::string> names;
  for (std::sregex_iterator it(help.output.begin(), help.output.end(), option), end; it != end; ++it)
    names.push_back((*it)[1].str());
  return names;
}

TEST(FlagErrors, EveryFloatingPointOptionOfEveryCommandRefusesNanAndInfinityByName) {
  const std::vector<std::string> commands = subcommands();
  ASSERT_GE(commands.size(), 10u) << "the CLI lists its commands";
  std::size_t checked = 0;
  for (const std::string& command : commands) {
    for (const std::string& option : float_options(command)) {
      for (const char* value : {"nan", "inf", "-inf"}) {
        const Ran ran = run_shell(fmt::format("{} {} {}", command, option, value));
        EXPECT_EQ(ran.exit_code, 2) << command << " " << option << " " << value << ": " << ran.output;
        EXPECT_NE(ran.output.find(option + ":"), std::string::npos) << command << " " << option << ": " << ran.output;
      }
      ++checked;
    }
  }
  EXPECT_GE(checked, 40u) << "the commands' floating-point options were found in their help";
}

TEST(FlagErrors, TheServersOwnFlagsAreNamedNotThePolicy) {
  const Ran forgiveness = run_shell("server --forgiveness nan");
  EXPECT_EQ(forgiveness.exit_code, 2);
  EXPECT_NE(forgiveness.output.find("--forgiveness: 'nan' is not a finite number"), std::string::npos) << forgiveness.output;
  const Ran interval = run_shell("server --stats-interval nan");
  EXPECT_EQ(interval.exit_code, 2);
  EXPECT_NE(interval.output.find("--stats-interval: 'nan' is not a finite number"), std::string::npos) << interval.output;
  const Ran http = run_shell("server --http nope");
  EXPECT_EQ(http.exit_code, 2);
  EXPECT_NE(http.output.find("--http: a PORT or a numeric HOST:PORT"), std::string::npos) << http.output;
  const Ran zero = run_shell("server --stats-interval 0");
  EXPECT_EQ(zero.exit_code, 2);
  EXPECT_NE(zero.output.find("--stats-interval: '0' is not above 0"), std::string::npos) << zero.output;
}

TEST(FlagErrors, TheBotsDashboardAddressIsNamed) {
  const Ran bot_http = run_shell("bot --server 127.0.0.1:1 --http 127.0.0.1:nope");
  EXPECT_EQ(bot_http.exit_code, 2);
  EXPECT_NE(bot_http.output.find("--http: a PORT or a numeric HOST:PORT"), std::string::npos) << bot_http.output;
}

// Server-time mode's flags (README: `tickwire demo --mode server-time --logic-hz 30,60,144`): a
// mode no room serves, or a logic rate outside 1..1000, is refused by its flag's name.
TEST(FlagErrors, ServerTimeModesFlagsAreRefusedByName) {
  for (const char* command : {"server --mode lockstep", "demo --mode lockstep"}) {
    const Ran ran = run_shell(command);
    EXPECT_EQ(ran.exit_code, 2) << command << ": " << ran.output;
    EXPECT_NE(ran.output.find("--mode"), std::string::npos) << command << ": " << ran.output;
  }
  for (const char* command : {"demo --logic-hz 30,0", "demo --logic-hz 60,x", "bot --server 127.0.0.1:1 --logic-hz 1001"}) {
    const Ran ran = run_shell(command);
    EXPECT_EQ(ran.exit_code, 2) << command << ": " << ran.output;
    EXPECT_NE(ran.output.find("--logic-hz"), std::string::npos) << command << ": " << ran.output;
  }
}

TEST(FlagErrors, ANegativeOrNonFiniteRunLengthIsRefusedNotRunForeverOrNotAtAll) {
  for (const char* command : {"server", "shards", "host", "conditioner --listen 127.0.0.1:0 --forward 127.0.0.1:1"}) {
    const Ran negative = run_shell(fmt::format("{} --seconds -1", command));
    EXPECT_EQ(negative.exit_code, 2) << command << ": " << negative.output;
    EXPECT_NE(negative.output.find("--seconds: '-1' is below 0"), std::string::npos) << command << ": " << negative.output;
    const Ran nan = run_shell(fmt::format("{} --seconds nan", command));
    EXPECT_EQ(nan.exit_code, 2) << command << ": " << nan.output;
    EXPECT_NE(nan.output.find("--seconds: 'nan' is not a finite number"), std::string::npos) << command << ": " << nan.output;
  }
}

class FifoPath : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = std::filesystem::temp_directory_path() / fmt::format("tickwire-fifo-{}", ::getpid());
    std::filesystem::remove(path_);
    ASSERT_EQ(::mkfifo(path_.c_str(), 0600), 0);
  }
  void TearDown() override { std::filesystem::remove(path_); }
  std::filesystem::path path_;
};

TEST_F(FifoPath, AKeyFileThatIsAFifoWithNoWriterIsRefusedAtOnce) {
  const Ran server = run_shell(fmt::format("server --seconds 1 --key {}", path_.string()));
  EXPECT_EQ(server.exit_code, 2) << "124 would mean it hung in open(): " << server.output;
  EXPECT_NE(server.output.find(path_.string() + " is not a regular file"), std::string::npos) << server.output;
  const Ran token = run_shell(fmt::format("token --client-id 1 --server 127.0.0.1:40000 --key {}", path_.string()));
  EXPECT_NE(token.exit_code, 124) << token.output;
  EXPECT_NE(token.output.find("is not a regular file"), std::string::npos) << token.output;
}

TEST_F(FifoPath, AMapFileThatIsAFifoIsRefusedAtOnce) {
  const Ran check = run_shell(fmt::format("map check {}", path_.string()));
  EXPECT_EQ(check.exit_code, 2) << "124 would mean it hung in open(): " << check.output;
  EXPECT_NE(check.output.find("is not a regular file"), std::string::npos) << check.output;
}

TEST(FlagErrors, AKeyPathThatIsADirectoryIsRefusedByName) {
  const Ran server = run_shell(fmt::format("server --seconds 1 --key {}", std::filesystem::temp_directory_path().string()));
  EXPECT_EQ(server.exit_code, 2) << server.output;
  EXPECT_NE(server.output.find("is not a regular file"), std::string::npos) << server.output;
}

}  // namespace
}  // namespace tickwire

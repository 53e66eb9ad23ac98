// `tickwire host`, two fleet processes as real processes over one SQLite store: each serves its own
// rooms and lists them in the fleet directory (read here through the directory itself); players
// (a bot process keeping its resume tokens) sit in one of the first process's rooms. The first is
// killed with SIGKILL: it leaves the directory within its TTL, the second adopts its rooms once their
// leases run out (recovered from the store, nothing journaled lost: the heir's recovery reaches at
// least as far as the dead keeper's last reported journal), lists them at their new addresses, and
// the players (their bot process started again, pointed at the new address) are back in their pawns.
// A SIGTERM drains the survivor: its rooms checkpointed and given up, the process deregistered.
#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <map>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "cli_lines.h"
#include "cli_run.h"
#include "tickwire/clock/system_clock.h"
#include "tickwire/durable/fleet_directory.h"

namespace tickwire {
namespace {

using Clock = std::chrono::steady_clock;
using test::lines_of;

struct HostCli : test::KeyedTempDir {
  HostCli() : KeyedTempDir("tickwire-host-cli") {}
  std::string store() const { return "sqlite:" + (dir / "store").string(); }
  std::vector<std::string> host_args(const std::string& process, const std::string& own, const std::string& adopt) const {
    return {"host", "--store", store(), "--process", process, "--rooms", own, "--adopt", adopt, "--key", key().string(),
            "--ttl", "2", "--lease-term", "2", "--checkpoint-every", "60", "--pawn-hold", "30", "--stats-interval", "0.5",
            "--max-clients", "8"};
  }
  std::vector<std::string> bot_args(const std::string& address, const std::string& first_client_id) const {
    return {"bot", "--server", address, "--key", key().string(), "--count", "2", "--seconds", "60",
            "--first-client-id", first_client_id, "--resume-dir", (dir / "tokens").string()};
  }
};

// Where the directory lists `room` now (the process, the address), if anywhere.
struct Listed {
  std::string process;
  std::string address;
  uint32_t seats_taken = 0;
  std::vector<uint64_t> seated;
};
std::optional<Listed> listed(durable::FleetDirectory& directory, const std::string& room) {
  auto listing = directory.list(wall_now());
  if (!durable::stored(listing)) return std::nullopt;
  for (const durable::DirectoryProcess& p : std::get<durable::DirectoryListing>(listing).processes) {
    for (const durable::DirectoryRoom& r : p.rooms) {
      if (r.room == room) return Listed{p.process, r.public_address, r.seats_taken, r.seated};
    }
  }
  return std::nullopt;
}

bool process_listed(durable::FleetDirectory& directory, const std::string& process) {
  auto listing = directory.list(wall_now());
  if (!durable::stored(listing)) return false;
  for (const durable::DirectoryProcess& p : std::get<durable::DirectoryListing>(listing).processes) {
    if (p.process == process) return true;
  }
  return false;
}

template <class Done>
double seconds_until(Done done, double timeout_s) {
  const auto began = Clock::now();
  while (std::chrono::duration<double>(Clock::now() - began).count() < timeout_s) {
    if (done()) return std::chrono::duration<double>(Clock::now() - began).count();
    usleep(20'000);
  }
  return -1;
}

// The newest ticket line per bot.
std::map<int, nlohmann::json> tickets(test::ChildProcess& bots) {
  (void)bots.read_lines();
  std::map<int, nlohmann::json> newest;
  for (const nlohmann::json& t : lines_of(bots.output(), "ticket")) newest[t["bot"].get<int>()] = t;
  return newest;
}

bool all_tickets(test::ChildProcess& bots, const std::string& outcome) {
  const auto newest = tickets(bots);
  if (newest.size() != 2) return false;
  for (const auto& [bot, line] : newest)
    if (line.value("outcome", "") != outcome) return false;
  return true;
}

TEST(HostCommand, AKilledHostLeavesTheDirectoryAndItsRoomsAreAdoptedRecoveredAndResumed) {
  HostCli s;
  test::ChildProcess first;
  test::ChildProcess second;
  ASSERT_TRUE(first.spawn(TICKWIRE_CLI_PATH, s.host_args("h1", "r1,r2", "r3")));
  ASSERT_TRUE(first.wait_for_line("\"type\":\"ready\"", 20000)) << first.output();
  ASSERT_TRUE(second.spawn(TICKWIRE_CLI_PATH, s.host_args("h2", "r3", "r1,r2")));
  ASSERT_TRUE(second.wait_for_line("\"type\":\"ready\"", 20000)) << second.output();

  durable::FleetDirectoryConfig config;
  config.ttl = Duration::seconds(2);
  auto opened = durable::open_fleet_directory(s.store(), config);
  ASSERT_TRUE(durable::stored(opened));
  durable::FleetDirectory& directory = *std::get<std::unique_ptr<durable::FleetDirectory>>(opened);
  ASSERT_GE(seconds_until([&] { return listed(directory, "r1") && listed(directory, "r2") && listed(directory, "r3"); }, 15), 0)
      << first.output() << second.output();
  EXPECT_EQ(listed(directory, "r1")->process, "h1");
  EXPECT_EQ(listed(directory, "r3")->process, "h2");

  // Two players in r1; the directory names them seated there.
  test::ChildProcess bots;
  ASSERT_TRUE(bots.spawn(TICKWIRE_CLI_PATH, s.bot_args(listed(directory, "r1")->address, "1000")));
  ASSERT_GE(seconds_until([&] { return all_tickets(bots, "fresh"); }, 15), 0) << bots.output();
  std::map<int, uint64_t> pawns;
  for (const auto& [bot, line] : tickets(bots)) pawns[bot] = line["pawn"].get<uint64_t>();
  ASSERT_GE(seconds_until([&] { return listed(directory, "r1")->seated == std::vector<uint64_t>{1000, 1001}; }, 5), 0);
  usleep(1'500'000);  // a checkpoint and the journal after it
  (void)first.read_lines();
  const nlohmann::json last_report = lines_of(first.output(), "host").back();
  uint64_t journaled_r1 = 0;
  for (const nlohmann::json& room : last_report["rooms"]) {
    if (room["room"] != "r1") continue;
    journaled_r1 = room["durable"]["journaled_through"].get<uint64_t>();
    // The room's input queues reach the operator as a server's do: its players' ticks, fed or starved.
    EXPECT_GT(room["fresh_ticks"].get<uint64_t>(), 30u) << room.dump();
    EXPECT_LT(room["starved_ticks"].get<uint64_t>(), room["fresh_ticks"].get<uint64_t>()) << room.dump();
    EXPECT_EQ(room["depth_histogram"].size(), 21u) << room.dump();
  }

  // h1 dies without a word.
  const auto killed_at = Clock::now();
  first.kill_now();
  bots.kill_now();
  const double gone_s = seconds_until([&] { return !process_listed(directory, "h1"); }, 10);
  ASSERT_GE(gone_s, 0);
  EXPECT_LE(gone_s, 2.0 + 0.5) << "out of the directory within its TTL (plus one look)";
  ASSERT_GE(seconds_until([&] {
              const auto r1 = listed(directory, "r1");
              const auto r2 = listed(directory, "r2");
              return r1 && r1->process == "h2" && r2 && r2->process == "h2";
            }, 15), 0)
      << second.output();
  const double adopted_s = std::chrono::duration<double>(Clock::now() - killed_at).count();
  (void)second.read_lines();
  std::map<std::string, nlohmann::json> adoptions;
  for (const nlohmann::json& line : lines_of(second.output(), "room_serving"))
    if (line["adopted"].get<bool>()) adoptions[line["room"].get<std::string>()] = line;
  ASSERT_EQ(adoptions.size(), 2u) << second.output();
  EXPECT_GE(adoptions["r1"]["recovered"]["next_sequence"].get<uint64_t>(), journaled_r1 + 1) << "nothing journaled lost";

  test::ChildProcess back;
  ASSERT_TRUE(back.spawn(TICKWIRE_CLI_PATH, s.bot_args(listed(directory, "r1")->address, "2000")));
  ASSERT_GE(seconds_until([&] { return all_tickets(back, "resumed"); }, 15), 0) << back.output() << second.output();
  for (const auto& [bot, line] : tickets(back)) EXPECT_EQ(line["pawn"].get<uint64_t>(), pawns[bot]) << "bot " << bot;
  const double playing_s = std::chrono::duration<double>(Clock::now() - killed_at).count();
  std::printf("[ fleet ] host killed: out of the directory %.1f s later, its rooms adopted by %.1f s, players back in "
              "their pawns by %.1f s (2 s TTL and lease term)\n", gone_s, adopted_s, playing_s);

  // SIGTERM drains the survivor: every room given up, the process out of the directory.
  back.kill_now();
  second.request_stop();
  ASSERT_TRUE(second.wait_for_line("\"type\":\"host_final\"", 20000)) << second.output();
  EXPECT_EQ(second.stop(), 0);
  const nlohmann::json final_line = lines_of(second.output(), "host_final").back();
  EXPECT_EQ(final_line["lifecycle"], "stopped");
  EXPECT_EQ(final_line["serving"], 0);
  EXPECT_TRUE(final_line["directory"]["deregistered"].get<bool>());
  EXPECT_FALSE(process_listed(directory, "h2"));
}

TEST(HostCommand, RefusesToStartWithoutRoomsOrStore) {
  HostCli s;
  const test::CliRun no_rooms = test::run_cli({"host", "--store", s.store(), "--key", s.key().string()});
  EXPECT_TRUE(no_rooms.exited_with(2)) << no_rooms.output;
  EXPECT_FALSE(test::run_cli({"host", "--rooms", "r1", "--key", s.key().string()}).exited_with(0));  // --store is required
}

}  // namespace
}  // namespace tickwire

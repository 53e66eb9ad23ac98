// `tickwire fleet` as the README shows it, small enough for every CI run: host processes over one
// store, `tickwire match` reading the fleet directory, and bot processes seated by it over real
// loopback sockets. The line: more bots than seats, the first bot process leaving first: every
// queued bot is promoted in the order it joined and matched, and no refresh ever saw its place move
// back. A host killed with SIGKILL: it leaves the directory within its TTL, its rooms are adopted by
// the survivor (recovered at least as far as its keeper had journaled), and every player seated
// there is playing again in its own pawn, resumed through the matchmaker. The second runs on the
// throwaway PostgreSQL cluster, the fleet's real store.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_lines.h"
#include "cli_run.h"
#include "pg_cluster.h"

namespace tickwire {
namespace {

nlohmann::json fleet_report(const std::vector<std::string>& args) {
  const test::CliRun run = test::run_cli(args, 180000);
  EXPECT_TRUE(run.exited_with(0)) << run.output;
  const nlohmann::json report = test::last_line(run.output, "fleet_report");
  EXPECT_FALSE(report.is_null()) << run.output;
  std::printf("[ fleet ] %s\n", report.dump().c_str());
  return report;
}

TEST(FleetCommand, QueuedBotsArePromotedInTheOrderTheyJoinedAsTheFirstLeave) {
  test::KeyedTempDir dir("tickwire-fleet-queue");
  // 2 hosts x 1 room x 4 seats = 8 seats; 12 bots in three processes of 4: the third waits in line
  // until the first leaves (it runs 10 s, the second 14, the third 18).
  const nlohmann::json report =
      fleet_report({"fleet", "--store", "sqlite:" + (dir.dir / "store").string(), "--hosts", "2", "--rooms-per-host", "1",
                    "--seats", "4", "--bots", "12", "--bots-per-process", "4", "--seconds", "10", "--stagger", "4",
                    "--kill-at", "0", "--ttl", "2", "--lease-term", "2", "--key", dir.key().string()});
  ASSERT_TRUE(report.is_object());
  EXPECT_EQ(report["matched"], 12);
  EXPECT_GE(report["queuedBots"].get<uint64_t>(), 4u);
  EXPECT_EQ(report["queuedThenMatched"], report["queuedBots"]);
  EXPECT_GE(report["promotions"].get<uint64_t>(), 4u);
  EXPECT_EQ(report["promotionsOutOfOrder"], 0);
  EXPECT_EQ(report["placeMovedBack"], 0);
}

TEST(FleetCommand, AKilledHostsRoomsAreAdoptedAndItsPlayersResumeThroughTheMatchmakerOnPostgres) {
  std::string why;
  test::PgCluster* cluster = test::shared_pg_cluster(&why);
  if (cluster == nullptr) GTEST_FAIL() << "no throwaway PostgreSQL: " << why;
  const std::string url = cluster->fresh_database();
  ASSERT_FALSE(url.empty());
  test::KeyedTempDir dir("tickwire-fleet-kill");
  const nlohmann::json report =
      fleet_report({"fleet", "--store", url, "--hosts", "2", "--rooms-per-host", "2", "--seats", "6", "--bots", "12",
                    "--bots-per-process", "6", "--seconds", "16", "--kill-at", "5", "--ttl", "2", "--lease-term", "2", "--link-timeout", "2",
                    "--key", dir.key().string()});
  ASSERT_TRUE(report.is_object());
  EXPECT_EQ(report["matched"], 12);
  const nlohmann::json& kill = report["kill"];
  ASSERT_TRUE(kill.is_object()) << report;
  EXPECT_EQ(kill["host"], "host-1");
  EXPECT_GT(kill["stranded"].get<uint64_t>(), 0u);
  ASSERT_FALSE(kill["leftDirectorySeconds"].is_null());
  EXPECT_LE(kill["leftDirectorySeconds"].get<double>(), 2.0 + 0.6) << "out of the directory within its TTL (and a look)";
  ASSERT_EQ(kill["rooms"].size(), 2u);
  for (const nlohmann::json& room : kill["rooms"]) {
    EXPECT_EQ(room["heir"], "host-2") << room;
    // Killed before its first periodic checkpoint: its players' pawns are in the journal alone.
    EXPECT_GT(room["deadKeeperJournaled"].get<uint64_t>(), 0u) << room;
    EXPECT_GE(room["recoveredThrough"].get<uint64_t>(), room["deadKeeperJournaled"].get<uint64_t>()) << room;
  }
  EXPECT_EQ(kill["roomsShortOfTheirJournal"], 0);
  EXPECT_EQ(kill["strandedResumed"], kill["stranded"]);
  EXPECT_EQ(kill["resumeFailures"], 0);
  EXPECT_EQ(kill["samePawn"], kill["resumed"]);
  // Noticing the dead host takes the link timeout (2 s); adoption the lease term (2 s), at once.
  EXPECT_LE(kill["playingAgainSeconds"]["max"].get<double>(), 2.0 + 2.0 + 2.0) << kill;
}

}  // namespace
}  // namespace tickwire

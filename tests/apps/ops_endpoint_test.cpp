// `tickwire server --ops` as the README shows it, a real process on loopback probed over HTTP by
// the tests' own client: /healthz and /readyz 200 once it admits, /metrics read back line by line
// with the strict grammar and holding the families an operator scrapes; a bot seated turns it
// allocated and is counted; SIGTERM turns /readyz 503 (draining) at once while the drain's grace
// lets the bot play on, and the process exits 0 with its final line saying stopped. With --store
// the keeper's families are there too, and a drain with nobody seated is immediate, even one that
// comes before the room has advanced past its first checkpoint.
#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_lines.h"
#include "exposition_grammar.h"
#include "http_probe.h"

namespace tickwire {
namespace {

using Clock = std::chrono::steady_clock;

using test::free_port;
using test::last_line;

// Polls `path` until its answer's body is `body` (and its status `status`), for up to `timeout_s`.
test::HttpAnswer until_answer(const std::string& at, const std::string& path, int status, const std::string& body,
                              double timeout_s) {
  const auto began = Clock::now();
  test::HttpAnswer answer;
  while (std::chrono::duration<double>(Clock::now() - began).count() < timeout_s) {
    answer = test::http_get(at, path, 2000);
    if (answer.status == status && answer.body == body) break;
    usleep(20'000);
  }
  return answer;
}

double sample_value(const test::Exposition& e, const std::string& family, const std::map<std::string, std::string>& labels) {
  const auto found = e.find(family, labels);
  return found.size() == 1 ? std::stod(found[0].value) : -1;
}

struct OpsCli : test::KeyedTempDir {
  OpsCli() : KeyedTempDir("tickwire-ops-cli") {}
  // Starts the server and reads its ops address from the ready line.
  std::string start(test::ChildProcess& server, std::vector<std::string> extra) {
    std::vector<std::string> args{"server", "--key", key().string(), "--port", port, "--ops", "127.0.0.1:0",
                                  "--stats-interval", "0.5"};
    args.insert(args.end(), extra.begin(), extra.end());
    if (!server.spawn(TICKWIRE_CLI_PATH, args)) return {};
    (void)server.wait_until([&] { return !last_line(server.output(), "ready").is_null(); }, 30000);
    return last_line(server.output(), "ready").value("ops", "");
  }
  std::string port = std::to_string(free_port());
};

TEST(OpsEndpoint, ProbesMetricsAllocationAndADrainOnSigterm) {
  OpsCli s;
  test::ChildProcess server;
  const std::string at = s.start(server, {"--drain-grace", "20"});
  ASSERT_FALSE(at.empty()) << server.output();
  EXPECT_EQ(last_line(server.output(), "ops").value("address", ""), at);

  EXPECT_EQ(test::http_get(at, "/healthz").status, 200);
  const test::HttpAnswer ready = until_answer(at, "/readyz", 200, "ready\n", 5);
  EXPECT_EQ(ready.status, 200) << ready.body;
  EXPECT_EQ(test::http_get(at, "/nothing").status, 404);
  const test::HttpAnswer metrics = test::http_get(at, "/metrics");
  ASSERT_EQ(metrics.status, 200);
  EXPECT_EQ(metrics.header("Content-Type"), "text/plain; version=0.0.4; charset=utf-8");
  test::Exposition e = test::parse_exposition(metrics.body);
  ASSERT_TRUE(e.error.empty()) << e.error << "\n" << metrics.body;
  for (const char* family :
       {"tickwire_lifecycle_state", "tickwire_lifecycle_transitions_total", "tickwire_clients", "tickwire_client_slots",
        "tickwire_tick_rate_hz", "tickwire_tick_rate_target_hz", "tickwire_ticks_executed_total", "tickwire_sent_bytes_total",
        "tickwire_world_frames", "tickwire_frame_states_copied_total", "tickwire_tick_duration_seconds",
        "tickwire_refusals_total", "tickwire_drops_total", "tickwire_kicks_total", "tickwire_reasons_total",
        "tickwire_client_rtt_ms", "tickwire_client_reasons_total", "tickwire_metrics_refused"}) {
    EXPECT_EQ(e.types.count(family), 1u) << family;
  }
  EXPECT_EQ(sample_value(e, "tickwire_lifecycle_state", {{"state", "ready"}}), 1);
  EXPECT_EQ(sample_value(e, "tickwire_lifecycle_state", {{"state", "starting"}}), 0);
  EXPECT_EQ(sample_value(e, "tickwire_tick_rate_target_hz", {}), 60);
  EXPECT_EQ(sample_value(e, "tickwire_metrics_refused", {}), 0);
  EXPECT_EQ(e.types.at("tickwire_tick_duration_seconds"), "histogram");

  test::ChildProcess bot;
  ASSERT_TRUE(bot.spawn(TICKWIRE_CLI_PATH, {"bot", "--server", "127.0.0.1:" + s.port, "--key", s.key().string(), "--count",
                                            "1", "--seconds", "60", "--first-client-id", "4242"}));
  const test::HttpAnswer allocated = until_answer(at, "/readyz", 200, "allocated\n", 20);
  ASSERT_EQ(allocated.body, "allocated\n") << server.output();
  test::HttpAnswer seated;
  for (int i = 0; i < 100; ++i) {  // the copy is at most 250 ms old
    seated = test::http_get(at, "/metrics");
    e = test::parse_exposition(seated.body);
    if (sample_value(e, "tickwire_clients", {}) == 1) break;
    usleep(50'000);
  }
  ASSERT_TRUE(e.error.empty()) << e.error;
  EXPECT_EQ(sample_value(e, "tickwire_clients", {}), 1);
  EXPECT_EQ(sample_value(e, "tickwire_lifecycle_state", {{"state", "allocated"}}), 1);
  EXPECT_EQ(e.find("tickwire_client_rtt_ms", {{"client_id", "4242"}}).size(), 1u) << seated.body;
  EXPECT_EQ(e.find("tickwire_client_awaiting_ticks_total", {{"client_id", "4242"}}).size(), 1u) << seated.body;
  EXPECT_EQ(sample_value(e, "tickwire_sessions_admitted_total", {}), 1);

  // SIGTERM: /readyz says draining at once; the loop still beats; the seated bot plays on in the grace.
  server.request_stop();
  const test::HttpAnswer draining = until_answer(at, "/readyz", 503, "draining\n", 5);
  EXPECT_EQ(draining.status, 503);
  EXPECT_EQ(draining.body, "draining\n");
  EXPECT_EQ(test::http_get(at, "/healthz").status, 200);
  e = test::parse_exposition(test::http_get(at, "/metrics").body);
  EXPECT_EQ(sample_value(e, "tickwire_lifecycle_state", {{"state", "draining"}}), 1);
  EXPECT_EQ(sample_value(e, "tickwire_lifecycle_transitions_total", {{"state", "draining"}}), 1);

  // A second signal ends the grace: the clients are let go and the process exits 0.
  server.request_stop();
  ASSERT_TRUE(server.wait_for_line("server_final", 20000)) << server.output();
  EXPECT_EQ(server.stop(), 0);
  EXPECT_EQ(last_line(server.output(), "server_draining").value("lifecycle", ""), "draining");
  EXPECT_EQ(last_line(server.output(), "server_final").value("lifecycle", ""), "stopped");
  EXPECT_EQ(test::http_get(at, "/healthz", 500).status, 0);  // gone with the process
}

TEST(OpsEndpoint, ADurableServersKeeperIsScrapedAndAnEmptyRoomDrainsAtOnce) {
  OpsCli s;
  test::ChildProcess server;
  // One tick a second: the SIGTERM below comes before the room advances past its first checkpoint.
  const std::string at =
      s.start(server, {"--store", "sqlite:" + (s.dir / "store").string(), "--room", "arena", "--tick-hz", "1"});
  ASSERT_FALSE(at.empty()) << server.output();
  ASSERT_EQ(until_answer(at, "/readyz", 200, "ready\n", 5).status, 200);
  test::Exposition e;
  for (int i = 0; i < 100; ++i) {
    e = test::parse_exposition(test::http_get(at, "/metrics").body);
    if (e.types.count("tickwire_durable_authority")) break;
    usleep(50'000);
  }
  ASSERT_TRUE(e.error.empty()) << e.error;
  EXPECT_EQ(sample_value(e, "tickwire_durable_authority", {{"room", "arena"}}), 1);
  EXPECT_EQ(sample_value(e, "tickwire_durable_epoch", {{"room", "arena"}, {"epoch", "kernel.v1"}}), 1);
  EXPECT_EQ(e.types.at("tickwire_durable_journal_entries_total"), "counter");
  EXPECT_TRUE(e.find("tickwire_durable_stopped").empty());
  EXPECT_EQ(sample_value(e, "tickwire_lifecycle_transitions_total", {{"state", "starting"}}), 1);

  server.request_stop();
  ASSERT_TRUE(server.wait_for_line("server_final", 20000)) << server.output();
  EXPECT_EQ(server.stop(), 0);
  const nlohmann::json final_line = last_line(server.output(), "server_final");
  EXPECT_EQ(final_line.value("lifecycle", ""), "stopped");
  EXPECT_EQ(final_line["durable"]["stopped"], "released");
}

}  // namespace
}  // namespace tickwire

// `tickwire match` as a real process on a real store (SQLite, and PostgreSQL's throwaway cluster),
// asked over real HTTP, with the fleet's processes registered in the directory by the test itself
// (real rows; the rooms' addresses need no live server: the matchmaker only mints tokens). A room of
// three seats and another: nine players asking get six seats and three places in line, kept on
// refresh; heartbeats naming the seated claim their offers; a player gone from a room's list frees
// its seat and the head of the line is offered it, in order; a resumption is offered its listed room
// (its token carrying the ticket) and refused by name for a full or unlisted one; /leave, /fleet,
// /metrics; malformed requests 400. Every token is opened with the fleet's key and read back: the
// room's address, the player, the grants. The README's line, and bad options refused with exit 2.
#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "../durable/backend_stores.h"
#include "../fleet/matchmaker_fixture.h"
#include "cli_lines.h"
#include "cli_run.h"
#include "exposition_grammar.h"
#include "http_probe.h"
#include "tickwire/clock/system_clock.h"
#include "tickwire/core/hex.h"
#include "tickwire/durable/fleet_directory.h"
#include "tickwire/transport/key_file.h"

namespace tickwire {
namespace {

using Clock = std::chrono::steady_clock;
using durable::DirectoryProcess;
using durable::DirectoryRoom;
using durable::ProcessState;
using test::last_line;

struct Answer {
  int status = 0;
  nlohmann::json body;
  std::string content_type;
};

Answer ask(const std::string& at, const std::string& path) {
  const test::HttpAnswer raw = test::http_get(at, path);
  return Answer{raw.status, nlohmann::json::parse(raw.body, nullptr, false), raw.header("Content-Type")};
}

// Asks `path` until `done(answer)`, for up to `timeout_s`; the last answer.
Answer ask_until(const std::string& at, const std::string& path, const std::function<bool(const Answer&)>& done,
                 double timeout_s = 10) {
  const auto began = Clock::now();
  Answer answer = ask(at, path);
  while (!done(answer) && std::chrono::duration<double>(Clock::now() - began).count() < timeout_s) {
    usleep(20'000);
    answer = ask(at, path);
  }
  return answer;
}

std::string match_path(uint64_t actor) { return fmt::format("/match?actor={}", actor); }
bool has_status(const Answer& a, const char* status) { return a.body.is_object() && a.body.value("status", "") == status; }

// The room a process serves: `seated` named, as many seats taken.
DirectoryRoom room(const std::string& id, uint16_t port, std::vector<uint64_t> seated = {}) {
  return DirectoryRoom{id, fmt::format("127.0.0.1:{}", port), 3, static_cast<uint32_t>(seated.size()), std::move(seated)};
}

DirectoryProcess alpha(std::vector<uint64_t> arena = {}, std::vector<uint64_t> lobby = {}) {
  DirectoryProcess p;
  p.process = "alpha";
  p.state = ProcessState::ready;
  p.ops_address = "127.0.0.1:9100";
  p.rooms = {room("arena", 41001, std::move(arena)), room("lobby", 41002, std::move(lobby))};
  return p;
}

class MatchCommandTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    stores_ = std::make_unique<durable::test_support::BackendStores>(GetParam());
    ASSERT_FALSE(stores_->url().empty()) << stores_->why();
    auto opened = durable::open_fleet_directory(stores_->url(), {});
    ASSERT_TRUE(durable::stored(opened));
    directory_ = std::move(std::get<std::unique_ptr<durable::FleetDirectory>>(opened));
    std::string error;
    const auto key = netcode::read_private_key_file(keyed_.key(), error);
    ASSERT_TRUE(key.has_value()) << error;
    key_ = *key;
  }

  // Starts the matchmaker and reads its address from the ready line.
  std::string start(std::vector<std::string> extra = {}) {
    std::vector<std::string> args{"match",       "--store", stores_->url(), "--key", keyed_.key().string(), "--protocol-id",
                                  std::to_string(fleet::test::kProtocolId), "--poll", "0.05", "--stats-interval", "0.1"};
    args.insert(args.end(), extra.begin(), extra.end());
    if (!match_.spawn(TICKWIRE_CLI_PATH, args)) return {};
    (void)match_.wait_until([&] { return !last_line(match_.output(), "ready").is_null(); }, 30000);
    return last_line(match_.output(), "ready").value("address", "");
  }

  void beat(const DirectoryProcess& process, bool first = false) {
    const auto status = first ? directory_->register_process(process, wall_now()) : directory_->heartbeat(process, wall_now());
    ASSERT_TRUE(durable::stored(status)) << durable::store_failure(status)->detail;
  }

  // The token an offer carries, opened as the room's server opens it.
  std::optional<fleet::test::OpenedToken> token_of(const Answer& offer) {
    const auto bytes = from_hex(offer.body.value("token", ""));
    if (!bytes || bytes->size() != netcode::kConnectTokenBytes) return std::nullopt;
    netcode::ConnectTokenBytes token{};
    std::copy(bytes->begin(), bytes->end(), token.begin());
    return fleet::test::open_token(token, key_);
  }

  test::KeyedTempDir keyed_{"tickwire-match-cli"};
  std::unique_ptr<durable::test_support::BackendStores> stores_;
  std::unique_ptr<durable::FleetDirectory> directory_;
  netcode::Key key_{};
  test::ChildProcess match_;
};

TEST_P(MatchCommandTest, SeatsTheLineResumptionsAndTheFleetOverHttp) {
  const std::string at = start();
  ASSERT_FALSE(at.empty()) << match_.output();
  EXPECT_EQ(test::http_get(at, "/healthz").status, 200);
  beat(alpha(), true);
  ASSERT_EQ(ask_until(at, "/fleet", [](const Answer& a) { return a.body.is_object() && a.body["processes"].size() == 1; })
                .body["processes"]
                .size(),
            1u);

  // Nine players, six seats: the arena fills first, then the lobby; three wait, in order.
  std::vector<Answer> first;
  for (uint64_t actor = 1; actor <= 9; ++actor) first.push_back(ask(at, match_path(actor)));
  for (uint64_t actor = 1; actor <= 6; ++actor) {
    const Answer& a = first[actor - 1];
    ASSERT_EQ(a.status, 200) << a.body;
    EXPECT_EQ(a.content_type, "application/json");
    ASSERT_TRUE(has_status(a, "offered")) << a.body;
    const std::string room_id = actor <= 3 ? "arena" : "lobby";
    EXPECT_EQ(a.body["room"], room_id);
    EXPECT_EQ(a.body["process"], "alpha");
    EXPECT_EQ(a.body["address"], actor <= 3 ? "127.0.0.1:41001" : "127.0.0.1:41002");
    EXPECT_GT(a.body["claimBySeconds"].get<double>(), 19.0);
    EXPECT_LE(a.body["claimBySeconds"].get<double>(), 20.0);
    const auto token = token_of(a);
    ASSERT_TRUE(token.has_value()) << "the token opens under the fleet's key";
    EXPECT_EQ(token->client_id, actor);
    EXPECT_EQ(token->addresses, std::vector<Address>{*Address::parse(a.body["address"].get<std::string>())});
    EXPECT_EQ(token->grants, AdmissionGrants{});
  }
  for (uint64_t actor = 7; actor <= 9; ++actor) {
    const Answer& a = first[actor - 1];
    ASSERT_TRUE(has_status(a, "queued")) << a.body;
    EXPECT_EQ(a.body["position"], actor - 6);
    EXPECT_EQ(a.body["length"], actor - 6);  // the line as it stood when it joined
    EXPECT_TRUE(a.body["etaSeconds"].is_null());
  }
  const Answer refresh = ask(at, match_path(7));
  EXPECT_EQ(refresh.body["position"], 1) << "a refresh keeps its place";
  EXPECT_EQ(refresh.body["length"], 3);

  // The servers' heartbeats name who connected: their offers are claimed.
  beat(alpha({1, 2, 3}, {4, 5}));
  EXPECT_TRUE(has_status(ask_until(at, match_path(5), [](const Answer& a) { return has_status(a, "seated"); }), "seated"));
  for (uint64_t actor : {1, 2, 3, 4}) {
    const Answer a = ask(at, match_path(actor));
    EXPECT_TRUE(has_status(a, "seated")) << actor << a.body;
    EXPECT_FALSE(a.body.contains("token"));
  }
  EXPECT_TRUE(has_status(ask(at, match_path(6)), "offered"));

  // Player 2's session ends: its seat goes to the head of the line, then player 4's to the next.
  beat(alpha({1, 3}, {4, 5}));
  Answer seven = ask_until(at, match_path(7), [](const Answer& a) { return has_status(a, "offered"); });
  ASSERT_TRUE(has_status(seven, "offered")) << seven.body;
  EXPECT_EQ(seven.body["room"], "arena");
  EXPECT_EQ(ask(at, match_path(8)).body["position"], 1);
  EXPECT_EQ(ask(at, match_path(9)).body["position"], 2);
  beat(alpha({1, 3}, {5}));
  const Answer eight = ask_until(at, match_path(8), [](const Answer& a) { return has_status(a, "offered"); });
  ASSERT_TRUE(has_status(eight, "offered")) << eight.body;
  EXPECT_EQ(eight.body["room"], "lobby");
  EXPECT_EQ(ask(at, match_path(9)).body["position"], 1);

  // The last waiter gives up; the lobby's unclaimed offer is declined.
  EXPECT_EQ(ask(at, "/leave?actor=9").body, (nlohmann::json{{"status", "left"}}));
  const Answer again = ask(at, "/leave?actor=9");
  EXPECT_EQ(again.status, 404);
  EXPECT_EQ(again.body, (nlohmann::json{{"status", "not_held"}}));

  // Resumptions: a full room and an unlisted one refused by name; a free seat offered with the ticket.
  const std::vector<uint8_t> ticket = {0x01, 0x7f, 0x80, 0xff, 0x42};
  const std::string resume = fmt::format("/resume?actor=60&ticket={}&room=", to_hex(ticket));
  const Answer full = ask(at, resume + "arena");
  EXPECT_EQ(full.status, 503);
  EXPECT_EQ(full.body, (nlohmann::json{{"status", "refused"}, {"reason", "room_full"}}));
  const Answer unlisted = ask(at, resume + "elsewhere");
  EXPECT_EQ(unlisted.status, 404);
  EXPECT_EQ(unlisted.body, (nlohmann::json{{"status", "refused"}, {"reason", "room_not_listed"}}));
  EXPECT_EQ(ask(at, "/leave?actor=6").body["status"], "left");
  const Answer resumed = ask(at, resume + "lobby");
  ASSERT_EQ(resumed.status, 200) << resumed.body;
  ASSERT_TRUE(has_status(resumed, "offered"));
  EXPECT_EQ(resumed.body["room"], "lobby");
  EXPECT_EQ(resumed.body["process"], "alpha");
  const auto resume_token = token_of(resumed);
  ASSERT_TRUE(resume_token.has_value());
  EXPECT_EQ(resume_token->client_id, 60u);
  EXPECT_EQ(resume_token->addresses, std::vector<Address>{*Address::parse("127.0.0.1:41002")});
  EXPECT_EQ(resume_token->grants.resume_token, ticket);
  beat(alpha({1, 3, 7}, {5, 8, 60}));
  EXPECT_TRUE(has_status(ask_until(at, match_path(60), [](const Answer& a) { return has_status(a, "seated"); }), "seated"));
  EXPECT_TRUE(has_status(ask(at, match_path(7)), "seated"));

  // The fleet as listed.
  const Answer fleet = ask(at, "/fleet");
  ASSERT_EQ(fleet.status, 200);
  ASSERT_EQ(fleet.body["processes"].size(), 1u);
  const nlohmann::json& listed = fleet.body["processes"][0];
  EXPECT_EQ(listed["process"], "alpha");
  EXPECT_EQ(listed["state"], "ready");
  EXPECT_EQ(listed["ops"], "127.0.0.1:9100");
  EXPECT_NEAR(listed["heartbeatAt"].get<double>(), static_cast<double>(wall_now().ns()) * 1e-9, 30.0);
  EXPECT_EQ(listed["rooms"], nlohmann::json::parse(R"([
      {"room":"arena","address":"127.0.0.1:41001","seatsTotal":3,"seatsTaken":3,"seated":[1,3,7]},
      {"room":"lobby","address":"127.0.0.1:41002","seatsTotal":3,"seatsTaken":3,"seated":[5,8,60]}])"));

  // Malformed requests: 400, by name.
  for (const auto& [path, reason] : std::vector<std::pair<std::string, std::string>>{
           {"/match", "bad_actor"},
           {"/match?actor=0", "bad_actor"},
           {"/match?actor=abc", "bad_actor"},
           {"/leave?actor=-1", "bad_actor"},
           {"/resume?actor=5&room=lobby", "bad_ticket"},
           {"/resume?actor=5&room=lobby&ticket=zz", "bad_ticket"},
           {"/resume?actor=5&room=bad%20room&ticket=ab", "bad_room"},
       }) {
    const Answer bad = ask(at, path);
    EXPECT_EQ(bad.status, 400) << path;
    EXPECT_EQ(bad.body, (nlohmann::json{{"status", "bad_request"}, {"reason", reason}})) << path;
  }

  const test::HttpAnswer metrics = test::http_get(at, "/metrics");
  ASSERT_EQ(metrics.status, 200);
  const test::Exposition e = test::parse_exposition(metrics.body);
  ASSERT_TRUE(e.error.empty()) << e.error << "\n" << metrics.body;
  struct Expected {
    const char* family;
    std::map<std::string, std::string> labels;
    double value;
  };
  for (const Expected& row : std::vector<Expected>{
           {"tickwire_match_rooms", {}, 2},
           {"tickwire_match_capacity", {}, 5},  // the resumption's seat is outside the queue
           {"tickwire_match_queue_length", {}, 0},
           {"tickwire_match_seated", {{"kind", "queue"}}, 5},
           {"tickwire_match_seated", {{"kind", "resume"}}, 1},
           {"tickwire_match_offers", {{"kind", "queue"}}, 0},
           {"tickwire_match_promotions_total", {}, 2},
           {"tickwire_match_resumes_total", {{"outcome", "claimed"}}, 1},
           {"tickwire_match_resume_refusals_total", {{"reason", "room_full"}}, 1},
           {"tickwire_match_resume_refusals_total", {{"reason", "room_not_listed"}}, 1},
           {"tickwire_match_refusals_total", {{"reason", "line_full"}}, 0},
           {"tickwire_match_seat_report_refusals_total", {{"reason", "no_seat"}}, 0},
           {"tickwire_match_seats_lost_total", {{"reason", "seated_room_gone"}}, 0},
           {"tickwire_match_listing_failures_total", {}, 0},
           {"tickwire_match_http_refusals_total", {{"reason", "bad_actor"}}, 4},
           {"tickwire_match_http_refusals_total", {{"reason", "bad_ticket"}}, 2},
           {"tickwire_match_http_refusals_total", {{"reason", "not_found"}}, 0},
           {"tickwire_match_metrics_refused", {}, 0},
       }) {
    const auto found = e.find(row.family, row.labels);
    ASSERT_EQ(found.size(), 1u) << row.family;
    EXPECT_EQ(std::stod(found[0].value), row.value) << row.family;
  }

  match_.request_stop();
  ASSERT_TRUE(match_.wait_until([&] { return !last_line(match_.output(), "match_final").is_null(); }, 10000)) << match_.output();
  EXPECT_EQ(match_.stop(), 0);
  const nlohmann::json final_line = last_line(match_.output(), "match_final");
  EXPECT_EQ(final_line["rooms"], 2);
  EXPECT_EQ(final_line["seated"], 6);
  EXPECT_EQ(final_line["queued"], 0);
  EXPECT_EQ(final_line["promoted"], 2);
  EXPECT_EQ(final_line["refusals"]["resume"]["room_full"], 1);
  EXPECT_EQ(final_line["refusals"]["requests"]["bad_room"], 1);
  EXPECT_EQ(final_line["seatsLost"]["offer_room_gone"], 0);
  EXPECT_EQ(final_line["listingFailures"], 0);
  EXPECT_FALSE(last_line(match_.output(), "match").is_null());
}

INSTANTIATE_TEST_SUITE_P(Backends, MatchCommandTest, ::testing::Values("sqlite", "postgresql"),
                         [](const ::testing::TestParamInfo<std::string>& backend) { return backend.param; });

// The README's line, as it is written there.
TEST(MatchCommand, TheReadmesLineServesAPlayer) {
  test::KeyedTempDir keyed("tickwire-match-readme");
  const std::string dir = (keyed.dir / "store").string();
  auto opened = durable::open_fleet_directory(fmt::format("sqlite:{}", dir), {});
  ASSERT_TRUE(durable::stored(opened));
  auto& directory = std::get<std::unique_ptr<durable::FleetDirectory>>(opened);
  ASSERT_TRUE(durable::stored(directory->register_process(alpha(), wall_now())));
  test::ChildProcess match;
  // README: tickwire match --key FILE --store sqlite:DIR --listen 127.0.0.1:0
  ASSERT_TRUE(match.spawn(TICKWIRE_CLI_PATH, {"match", "--key", keyed.key().string(), "--store", fmt::format("sqlite:{}", dir),
                                             "--listen", "127.0.0.1:0"}));
  ASSERT_TRUE(match.wait_until([&] { return !last_line(match.output(), "ready").is_null(); }, 30000)) << match.output();
  const std::string at = last_line(match.output(), "ready").value("address", "");
  const Answer offer = ask(at, match_path(1));
  EXPECT_EQ(offer.status, 200);
  EXPECT_EQ(offer.body.value("room", ""), "arena") << offer.body;
  EXPECT_EQ(test::http_get(at, "/healthz").body, "ok\n");
  match.request_stop();
  ASSERT_TRUE(match.wait_for_output("match_final", 10000)) << match.output();
  EXPECT_EQ(match.stop(), 0);
}

TEST(MatchCommand, BadOptionsAndAStoreItCannotOpenAreRefusedWithExitCode2) {
  test::KeyedTempDir keyed("tickwire-match-refused");
  const std::string key = keyed.key().string();
  const std::string store = fmt::format("sqlite:{}", (keyed.dir / "store").string());
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"match", "--key", key},
           {"match", "--key", key, "--store", store, "--choice", "nearest"},
           {"match", "--key", key, "--store", store, "--poll", "0"},
           {"match", "--key", key, "--store", store, "--poll", "20", "--ttl", "10"},
           {"match", "--key", key, "--store", store, "--queue-cap", "0"},
           {"match", "--key", key, "--store", store, "--poll", "soon"},
           {"match", "--key", key, "--store", store, "--no-such-option"},
           {"match", "--key", key, "--store", "mysql://nowhere/fleet"},
           {"match", "--key", (keyed.dir / "no-such.key").string(), "--store", store},
           {"match", "--key", key, "--store", store, "--listen", "not-an-address"},
       }) {
    const test::CliRun run = test::run_cli(args, 30000);
    EXPECT_TRUE(run.exited_with(2)) << fmt::format("{}", fmt::join(args, " "));
  }
}

}  // namespace
}  // namespace tickwire

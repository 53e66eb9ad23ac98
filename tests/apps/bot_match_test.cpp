// `tickwire bot --match` as the README shows it, real processes on loopback: a durable
// `tickwire server --store sqlite:DIR --room arena`, and bots seated by a matchmaker over HTTP.
// `tickwire match` is not there yet: until it lands, the matchmaker's API (docs/matchmaking.md,
// /match, /resume, /leave) is served from this test on a real fleet::HttpEndpoint by a tiny scripted
// responder that stands in for it, minting real connect tokens for the live server's address. The
// bots are refused once (line_full), queue with falling positions, and are admitted in the order
// they were offered; then the server is killed with SIGKILL, a second server takes the room over on
// another port once the lease runs out, /resume answers room_not_listed while it does and then
// offers a token carrying the resume grant with the ticket each bot sent, and every bot is back in
// its own pawn. Also: answers that are not the API's, a stale seat and a lapsed offer (a canned
// script), a matchmaker nobody answers, each counted by reason; and the endpoint options checked.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli_lines.h"
#include "cli_run.h"
#include "tickwire/clock/system_clock.h"
#include "tickwire/core/hex.h"
#include "tickwire/fleet/http_endpoint.h"
#include "tickwire/server/admission_grants.h"
#include "tickwire/transport/connect_token.h"
#include "tickwire/transport/key_file.h"

namespace tickwire {
namespace {

using Clock = std::chrono::steady_clock;
using test::lines_of;

constexpr int kBots = 3;
constexpr uint64_t kFirstActor = 5000;
constexpr int kNotListedBeforeOffer = 3;  // /resume answers room_not_listed at least this often per actor

fleet::HttpResponse json_answer(unsigned status, const nlohmann::json& body) {
  return fleet::HttpResponse{status, "application/json", body.dump()};
}

// The stand-in for `tickwire match`: a line in join order, seats released by the test, offers
// minted for the server the test names; /resume offers the heir's address once the test names it.
class MatchmakerStandIn {
  template <class F>
  auto with_lock(F f) {
    const std::lock_guard lock(mutex_);
    return f();
  }

 public:
  explicit MatchmakerStandIn(netcode::Key key) : key_(key) {
    fleet::HttpEndpointOpen opened = fleet::HttpEndpoint::open(
        fleet::HttpEndpointConfig{}, {fleet::HttpRoute{"/match", [this](const fleet::HttpQuery& q) { return match(q); }},
                                      fleet::HttpRoute{"/resume", [this](const fleet::HttpQuery& q) { return resume(q); }},
                                      fleet::HttpRoute{"/leave", [](const fleet::HttpQuery&) {
                                        return json_answer(404, {{"status", "not_held"}});
                                      }}});
    EXPECT_TRUE(opened) << opened.error;
    endpoint_ = std::move(opened.endpoint);
  }
  std::string address() const { return endpoint_->bound_address().to_string(); }

  void serve_from(const std::string& server) { with_lock([&] { server_ = server; }); }
  void resume_at(const std::string& heir) { with_lock([&] { heir_ = heir; }); }
  std::size_t joined() { return with_lock([&] { return line_.size(); }); }
  void release_seat() { with_lock([&] { ++released_; }); }
  std::vector<uint64_t> offer_order() { return with_lock([&] { return offers_; }); }
  std::map<uint64_t, std::string> tickets() { return with_lock([&] { return tickets_; }); }
  std::map<uint64_t, int> not_listed() { return with_lock([&] { return not_listed_; }); }

 private:
  std::string token_for(uint64_t actor, const std::string& address, const AdmissionGrants& grants) const {
    netcode::ConnectTokenParams params;
    params.client_id = actor;
    params.server_addresses.add(*Address::parse(address));
    params.timeout_seconds = 2;  // a killed server is noticed 2 s after its last packet
    (void)write_admission_grants(grants, params.user_data);
    netcode::ConnectTokenBytes bytes;
    netcode::write_connect_token(netcode::generate_connect_token(params, key_, wall_now()).value(), bytes);
    return to_hex(bytes);
  }
  nlohmann::json offer(uint64_t actor, const std::string& address, const AdmissionGrants& grants) const {
    return {{"status", "offered"},  {"room", "arena"}, {"process", address == server_ ? "proc-a" : "proc-b"},
            {"address", address},   {"token", token_for(actor, address, grants)}, {"claimBySeconds", 20}};
  }
  static std::optional<uint64_t> actor_of(const fleet::HttpQuery& q) {
    const std::string* text = q.find("actor");
    if (text == nullptr || text->empty() || text->find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
    const uint64_t actor = std::stoull(*text);
    return actor == 0 ? std::nullopt : std::optional<uint64_t>(actor);
  }

  fleet::HttpResponse match(const fleet::HttpQuery& q) {
    const auto actor = actor_of(q);
    if (!actor) return json_answer(400, {{"status", "bad_request"}, {"reason", "actor"}});
    const std::lock_guard lock(mutex_);
    if (refused_once_.insert(*actor).second) return json_answer(503, {{"status", "refused"}, {"reason", "line_full"}});
    auto at = std::find(line_.begin(), line_.end(), *actor);
    if (at == line_.end()) at = line_.insert(line_.end(), *actor);
    const auto index = static_cast<std::size_t>(at - line_.begin());
    if (index < released_) {
      if (std::find(offers_.begin(), offers_.end(), *actor) == offers_.end()) offers_.push_back(*actor);
      return json_answer(200, offer(*actor, server_, AdmissionGrants{}));
    }
    return json_answer(200, {{"status", "queued"}, {"position", index - released_ + 1}, {"length", line_.size() - released_},
                             {"etaSeconds", nullptr}});
  }

  fleet::HttpResponse resume(const fleet::HttpQuery& q) {
    const auto actor = actor_of(q);
    const std::string* room = q.find("room");
    const std::string* ticket = q.find("ticket");
    std::optional<std::vector<uint8_t>> ticket_bytes;
    if (ticket != nullptr) ticket_bytes = from_hex(*ticket);
    if (!actor || room == nullptr || *room != "arena" || !ticket_bytes || ticket_bytes->empty())
      return json_answer(400, {{"status", "bad_request"}, {"reason", "resume"}});
    const std::lock_guard lock(mutex_);
    tickets_[*actor] = *ticket;
    if (heir_.empty() || not_listed_[*actor] < kNotListedBeforeOffer) {
      ++not_listed_[*actor];
      return json_answer(404, {{"status", "refused"}, {"reason", "room_not_listed"}});
    }
    AdmissionGrants grants;
    grants.resume_token = *ticket_bytes;
    return json_answer(200, offer(*actor, heir_, grants));
  }

  const netcode::Key key_;
  std::unique_ptr<fleet::HttpEndpoint> endpoint_;
  std::mutex mutex_;
  std::string server_, heir_;
  std::set<uint64_t> refused_once_;
  std::vector<uint64_t> line_;  // join order
  std::size_t released_ = 0;    // seats freed: the first `released_` in line are offered
  std::vector<uint64_t> offers_;
  std::map<uint64_t, std::string> tickets_;
  std::map<uint64_t, int> not_listed_;
};

struct BotMatchCli : test::KeyedTempDir {
  BotMatchCli() : KeyedTempDir("tickwire-bot-match") {}
  std::vector<std::string> server_args(uint16_t port) const {
    return {"server", "--key", key().string(), "--port", std::to_string(port), "--store", "sqlite:" + (dir / "store").string(),
            "--room", "arena", "--lease-term", "2", "--checkpoint-every", "120", "--pawn-hold", "30",
            "--stats-interval", "0.5"};
  }
  netcode::Key loaded_key() const {
    std::string error;
    const auto loaded = netcode::load_server_private_key(key(), error);
    EXPECT_TRUE(loaded) << error;
    return loaded.value_or(netcode::Key{});
  }
};

// Reads `child`'s output until `count` lines of `type` are in, or `timeout_s` passes.
std::vector<nlohmann::json> until_lines(test::ChildProcess& child, const std::string& type, std::size_t count, double timeout_s) {
  const auto began = Clock::now();
  for (;;) {
    (void)child.read_lines();
    auto found = lines_of(child.output(), type);
    if (found.size() >= count || std::chrono::duration<double>(Clock::now() - began).count() > timeout_s) return found;
    usleep(20'000);
  }
}

TEST(BotMatchCommand, BotsQueueAreAdmittedInOrderAndResumeThroughTheMatchmakerWhenTheirServerIsKilled) {
  BotMatchCli s;
  const uint16_t first_port = test::free_port();
  test::ChildProcess server;
  ASSERT_TRUE(server.spawn(TICKWIRE_CLI_PATH, s.server_args(first_port)));
  ASSERT_TRUE(server.wait_for_output("\"type\":\"ready\"", 20000)) << server.output();
  MatchmakerStandIn matchmaker(s.loaded_key());
  matchmaker.serve_from(fmt::format("127.0.0.1:{}", first_port));

  test::ChildProcess bots;
  ASSERT_TRUE(bots.spawn(TICKWIRE_CLI_PATH, {"bot", "--match", matchmaker.address(), "--count", std::to_string(kBots),
                                             "--first-client-id", std::to_string(kFirstActor), "--match-refresh", "0.2",
                                             "--resume-patience", "30", "--seconds", "60", "--stats-interval", "0.5"}));
  // Every bot in line (after its line_full), then a seat freed every 0.7 s.
  const auto began = Clock::now();
  while (matchmaker.joined() < kBots && std::chrono::duration<double>(Clock::now() - began).count() < 10) usleep(20'000);
  ASSERT_EQ(matchmaker.joined(), std::size_t{kBots}) << bots.output();
  for (int seat = 0; seat < kBots; ++seat) {
    usleep(700'000);
    matchmaker.release_seat();
  }
  const auto matched = until_lines(bots, "matched", kBots, 15);
  ASSERT_EQ(matched.size(), std::size_t{kBots}) << bots.output() << server.output();
  const std::vector<uint64_t> offered = matchmaker.offer_order();
  ASSERT_EQ(offered.size(), std::size_t{kBots});
  for (const nlohmann::json& m : matched) {
    const uint64_t actor = m["actor"].get<uint64_t>();
    EXPECT_EQ(actor, kFirstActor + m["bot"].get<uint64_t>());
    const auto place = std::find(offered.begin(), offered.end(), actor) - offered.begin();
    EXPECT_EQ(m["order"].get<int64_t>(), place + 1) << "admitted in the order offered: " << m;
    EXPECT_EQ(m["room"], "arena");
    EXPECT_EQ(m["process"], "proc-a");
    EXPECT_EQ(m["address"], fmt::format("127.0.0.1:{}", first_port));
    EXPECT_GT(m["waitedSeconds"].get<double>(), 0.5);
    // Its queued lines: from its place at joining down to 1, one line per change.
    std::vector<uint64_t> positions;
    for (const nlohmann::json& q : lines_of(bots.output(), "queued"))
      if (q["actor"] == actor) positions.push_back(q["position"].get<uint64_t>());
    std::vector<uint64_t> falling;
    for (auto p = static_cast<uint64_t>(place) + 1; p >= 1; --p) falling.push_back(p);
    EXPECT_EQ(positions, falling) << "actor " << actor;
  }
  usleep(1'500'000);  // their tickets in, their admissions journaled

  // The server dies; a second one takes the room over on another port once the lease runs out.
  server.kill_now();
  const uint16_t heir_port = test::free_port();
  test::ChildProcess heir;
  ASSERT_TRUE(heir.spawn(TICKWIRE_CLI_PATH, s.server_args(heir_port)));
  ASSERT_TRUE(heir.wait_for_output("\"type\":\"ready\"", 20000)) << heir.output();
  matchmaker.resume_at(fmt::format("127.0.0.1:{}", heir_port));
  const auto resumed = until_lines(bots, "resumed", kBots, 20);
  ASSERT_EQ(resumed.size(), std::size_t{kBots}) << bots.output() << heir.output();
  for (const nlohmann::json& r : resumed) {
    EXPECT_TRUE(r["samePawn"].get<bool>()) << r;
    EXPECT_EQ(r["outcome"], "resumed") << r;
    EXPECT_EQ(r["room"], "arena");
    EXPECT_EQ(r["address"], fmt::format("127.0.0.1:{}", heir_port));
    EXPECT_GT(r["gapSeconds"].get<double>(), 0.0);
    EXPECT_NEAR(r["playingAt"].get<double>() - r["lostAt"].get<double>(), r["gapSeconds"].get<double>(), 1e-6);
  }
  const auto tickets = matchmaker.tickets();
  const auto not_listed = matchmaker.not_listed();
  for (uint64_t actor = kFirstActor; actor < kFirstActor + kBots; ++actor) {
    EXPECT_FALSE(tickets.at(actor).empty());
    EXPECT_GE(not_listed.at(actor), kNotListedBeforeOffer) << "kept asking while the room was not listed";
  }
  std::printf("[ match ] server killed: the bots back in their pawns %.1f s after losing it (worst)\n",
              [&] {
                double worst = 0;
                for (const auto& r : resumed) worst = std::max(worst, r["gapSeconds"].get<double>());
                return worst;
              }());

  bots.request_stop();
  ASSERT_TRUE(bots.wait_for_line("\"type\":\"bots_final\"", 10000)) << bots.output();
  bots.stop();
  const nlohmann::json last = test::last_line(bots.output(), "bots_final");
  ASSERT_TRUE(last.is_object()) << bots.output();
  EXPECT_EQ(last["matched"], kBots);
  EXPECT_EQ(last["resumed"], kBots);
  EXPECT_EQ(last["resumeFailures"], 0);
  EXPECT_EQ(last["maxPosition"], kBots);
  EXPECT_GT(last["asks"].get<uint64_t>(), std::size_t{kBots * 4});
  EXPECT_EQ(last["refusals"]["line_full"], kBots);
  EXPECT_GE(last["refusals"]["room_not_listed"].get<int>(), kBots * kNotListedBeforeOffer);
  EXPECT_TRUE(last["askFailures"].empty()) << last["askFailures"];
  for (const nlohmann::json& client : last["clients"]) {
    EXPECT_TRUE(client["welcomed"].get<bool>()) << client;
    EXPECT_EQ(client["match"]["phase"], "playing");
  }
  heir.request_stop();
  ASSERT_TRUE(heir.wait_for_line("server_final", 20000)) << heir.output();
  EXPECT_EQ(heir.stop(), 0);
}

// A matchmaker that answers /match from a script, in order (its last answer repeated), and /leave
// with not_held; it keeps the paths it was asked, in order.
class CannedMatchmaker {
 public:
  explicit CannedMatchmaker(std::vector<fleet::HttpResponse> script) : script_(std::move(script)) {
    fleet::HttpEndpointOpen opened = fleet::HttpEndpoint::open(
        fleet::HttpEndpointConfig{},
        {fleet::HttpRoute{"/match", [this](const fleet::HttpQuery&) { return next("/match"); }},
         fleet::HttpRoute{"/leave", [this](const fleet::HttpQuery&) {
           asked("/leave");
           return json_answer(404, {{"status", "not_held"}});
         }}});
    EXPECT_TRUE(opened) << opened.error;
    endpoint_ = std::move(opened.endpoint);
  }
  std::string address() const { return endpoint_->bound_address().to_string(); }
  std::vector<std::string> paths() {
    const std::lock_guard lock(mutex_);
    return paths_;
  }

 private:
  void asked(const std::string& path) {
    const std::lock_guard lock(mutex_);
    paths_.push_back(path);
  }
  fleet::HttpResponse next(const std::string& path) {
    const std::lock_guard lock(mutex_);
    paths_.push_back(path);
    const std::size_t at = std::min(answered_++, script_.size() - 1);
    return script_[at];
  }

  const std::vector<fleet::HttpResponse> script_;
  std::unique_ptr<fleet::HttpEndpoint> endpoint_;
  std::mutex mutex_;
  std::size_t answered_ = 0;
  std::vector<std::string> paths_;
};

nlohmann::json queued_at(uint64_t position) {
  return {{"status", "queued"}, {"position", position}, {"length", 2}, {"etaSeconds", 4.5}};
}

TEST(BotMatchCommand, AnswersThatAreNotTheApisAStaleSeatAndALapsedOfferAreCountedAndTheBotAsksOn) {
  netcode::ConnectTokenParams params;  // for a port nobody serves: the offer lapses unclaimed
  params.client_id = 7000;
  params.server_addresses.add(*Address::parse(fmt::format("127.0.0.1:{}", test::free_port())));
  params.timeout_seconds = 5;
  netcode::ConnectTokenBytes token;
  netcode::write_connect_token(netcode::generate_connect_token(params, netcode::Key{}, wall_now()).value(), token);
  const nlohmann::json seat = {{"room", "arena"}, {"process", "p"}, {"address", "127.0.0.1:9"}};
  nlohmann::json seated = seat, bad_token = seat, lapsing = seat;
  seated["status"] = "seated";
  bad_token.update({{"status", "offered"}, {"token", "abcd"}, {"claimBySeconds", 20}});
  lapsing.update({{"status", "offered"}, {"token", to_hex(token)}, {"claimBySeconds", 1}});
  CannedMatchmaker matchmaker({json_answer(200, seated), json_answer(200, queued_at(2)),
                               fleet::HttpResponse{200, "text/html", "<html>a proxy's page</html>"},
                               json_answer(200, queued_at(1)), json_answer(200, bad_token), json_answer(200, lapsing),
                               json_answer(200, queued_at(1))});
  const test::CliRun run = test::run_cli({"bot", "--match", matchmaker.address(), "--first-client-id", "7000",
                                          "--match-refresh", "0.2", "--seconds", "4", "--stats-interval", "0.5"});
  ASSERT_TRUE(run.exited_with(0)) << run.output;
  const nlohmann::json last = test::last_line(run.output, "bots_final");
  ASSERT_TRUE(last.is_object()) << run.output;
  EXPECT_EQ(last["refusals"], nlohmann::json({{"stale_seat", 1}}));
  EXPECT_EQ(last["askFailures"], nlohmann::json({{"not_json", 1}, {"bad_token", 1}}));
  EXPECT_EQ(last["claimFailures"], nlohmann::json({{"lapsed", 1}}));
  EXPECT_EQ(last["matched"], 0);
  EXPECT_EQ(last["maxPosition"], 2);
  EXPECT_EQ(last["clients"][0]["match"]["phase"], "seeking");
  const std::vector<std::string> paths = matchmaker.paths();
  ASSERT_GE(paths.size(), 8u);
  EXPECT_EQ(paths[0], "/match");
  EXPECT_EQ(paths[1], "/leave") << "told seated while holding no session: it leaves, then asks again";
  EXPECT_EQ(std::count(paths.begin(), paths.end(), "/leave"), 1);
  std::vector<uint64_t> positions;
  for (const nlohmann::json& q : lines_of(run.output, "queued")) positions.push_back(q["position"].get<uint64_t>());
  EXPECT_EQ(positions, (std::vector<uint64_t>{2, 1, 1})) << "a line a change of place, and again once back in line after the lapse";
}

TEST(BotMatchCommand, AMatchmakerNobodyAnswersIsCountedByReasonAndTheBotsStayUnseated) {
  const uint16_t nobody = test::free_port();  // a UDP port free now: nothing listens on its TCP twin
  const test::CliRun run = test::run_cli({"bot", "--match", fmt::format("127.0.0.1:{}", nobody), "--count", "2",
                                          "--seconds", "2", "--stats-interval", "0.5"});
  ASSERT_TRUE(run.exited_with(0)) << run.output;
  const nlohmann::json last = test::last_line(run.output, "bots_final");
  ASSERT_TRUE(last.is_object()) << run.output;
  EXPECT_EQ(last["matched"], 0);
  EXPECT_GE(last["askFailures"]["connect_failed"].get<int>(), 4) << "asked at once, then again after 0.5 s and 1 s of backoff";
  EXPECT_EQ(last["askFailures"]["connect_failed"], last["asks"]);
  for (const nlohmann::json& client : last["clients"]) {
    EXPECT_EQ(client["status"], "unseated");
    EXPECT_EQ(client["match"]["phase"], "seeking");
  }
}

TEST(BotMatchCommand, ExactlyOneOfServerOrMatchIsGivenAndEitherIsANumericAddress) {
  EXPECT_TRUE(test::run_cli({"bot", "--seconds", "1"}).exited_with(2));
  EXPECT_FALSE(test::run_cli({"bot", "--server", "127.0.0.1:1", "--match", "127.0.0.1:2", "--seconds", "1"}).exited_with(0));
  EXPECT_TRUE(test::run_cli({"bot", "--match", "matchmaker.example:80", "--seconds", "1"}).exited_with(2));
  EXPECT_FALSE(test::run_cli({"bot", "--match", "127.0.0.1:2", "--resume-dir", "/tmp/x", "--seconds", "1"}).exited_with(0));
}

}  // namespace
}  // namespace tickwire

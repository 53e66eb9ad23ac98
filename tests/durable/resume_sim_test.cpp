// Resumption over a whole game (SimNetwork, seeded; SQLite remembers used tokens): a player whose
// process is killed comes back on a new connection with its resume token, into the same pawn,
// within 2 s, while its old connection has not even timed out; a recovered room takes its players
// back the same way; and every way a token is refused is named, counted, and told to the client,
// which is seated fresh.
#include <gtest/gtest.h>

#include <cstdio>
#include <optional>

#include "backend_stores.h"
#include "durable_room.h"
#include "game_sim.h"
#include "stalling_store.h"
#include "support.h"
#include "tickwire/core/hex.h"
#include "tickwire/durable/store_resume_desk.h"

namespace tickwire::durable {
namespace {

using namespace tickwire::test;
using namespace tickwire::durable::test_support;

constexpr Duration kTokenLife = Duration::seconds(600);
constexpr Duration kHold = Duration::seconds(30);
const ResumeKey kKey = [] {
  ResumeKey key{};
  for (std::size_t i = 0; i < key.size(); ++i) key[i] = static_cast<uint8_t>(0x40 + i);
  return key;
}();

GameSimConfig holding_config() {
  GameSimConfig config;
  config.pawn_hold = kHold;
  return config;
}

// A sim whose server offers resumption for room `room`, used tokens remembered in `store`.
struct ResumeSim {
  ResumeSim(uint64_t seed, Store& store, const std::string& room, const GameSimConfig& config = holding_config())
      : sim(seed, config), desk(kKey, store, room, kTokenLife) {
    sim.server.offer_resume(desk);
  }
  GameSim sim;
  StoreResumeDesk desk;
};

// A resuming sim over a fresh SQLite store of its own.
struct FreshResumeSim {
  FreshResumeSim(uint64_t seed, const std::string& room) : store(opened(stores)), resuming(seed, *store, room) {}
  static std::unique_ptr<Store> opened(BackendStores& from) {
    auto store = from.open();
    TW_ASSERT(store != nullptr, "a fresh SQLite store opens");
    return store;
  }
  BackendStores stores{"sqlite"};
  std::unique_ptr<Store> store;
  ResumeSim resuming;
};

std::vector<uint8_t> token_of(const SimGameClient& c) {
  const protocol::ResumeTicket* ticket = c.facade->resume_ticket();
  if (ticket == nullptr) return {};
  return from_hex(ticket->token_hex).value_or(std::vector<uint8_t>{});
}

// Runs until client `c` is welcomed and ticketed (at most `limit`); the sim time it took.
std::optional<Duration> until_ticketed(GameSim& sim, std::size_t c, Duration limit) {
  const MonoTime began = sim.world.now;
  while (sim.world.now - began < limit) {
    sim.run_for(Duration::milliseconds(10));
    const SimGameClient& client = *sim.clients[c];
    if (client.client.session().welcomed() && client.facade->resume_ticket() != nullptr) return sim.world.now - began;
  }
  return std::nullopt;
}

// Three players join and play two seconds: their resume tokens and their pawns.
void seat_three(GameSim& sim, std::vector<std::vector<uint8_t>>& tokens, std::vector<EntityRef>& pawns) {
  for (int i = 0; i < 3; ++i) sim.add_client({});
  sim.run_for(Duration::seconds(2));
  for (const auto& c : sim.clients) {
    tokens.push_back(token_of(*c));
    pawns.push_back(c->pawn());
    ASSERT_FALSE(tokens.back().empty()) << "a ticket is sent once the pawn's joining is journaled";
  }
}

// Each player comes back with its token on a new connection, into its own pawn, within 2 s; no
// pawn is held after.
void expect_back_in_their_pawns(GameSim& sim, const std::vector<std::vector<uint8_t>>& tokens, const std::vector<EntityRef>& pawns) {
  for (const std::vector<uint8_t>& token : tokens) {
    GameClientSetup returning;
    returning.resume_token = token;
    sim.add_client(returning);
  }
  sim.run_for(Duration::seconds(2));
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const SimGameClient& c = *sim.clients[i];
    ASSERT_NE(c.facade->resume_ticket(), nullptr);
    EXPECT_EQ(c.facade->resume_ticket()->outcome, protocol::ResumeOutcome::resumed) << i;
    EXPECT_EQ(c.pawn(), pawns[i]) << i;
  }
  EXPECT_TRUE(sim.room.held_pawns().empty());
}

TEST(ResumeSim, AKilledPlayerComesBackIntoItsPawnWithin2Seconds) {
  const uint64_t seed = test_seed(2151);
  FreshResumeSim fresh(seed, "resume-sim");
  GameSim& sim = fresh.resuming.sim;
  sim.add_client({});
  sim.add_client({});
  sim.run_for(Duration::seconds(3));
  ASSERT_TRUE(sim.all_welcomed()) << "seed=" << seed;
  const protocol::ResumeTicket* first = sim.clients[0]->facade->resume_ticket();
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(first->outcome, protocol::ResumeOutcome::fresh);
  EXPECT_EQ(first->lifetime_s, 600u);
  const std::vector<uint8_t> token = token_of(*sim.clients[0]);
  ASSERT_FALSE(token.empty());
  const EntityRef pawn = sim.clients[0]->pawn();
  const world::PawnState before = *sim.game.pawn(pawn);

  // The process dies; a new one starts at once with the token (another client id: the old
  // connection is still the server's until its timeout).
  sim.restart_client(0, 9001, token);
  const std::optional<Duration> back = until_ticketed(sim, 0, Duration::seconds(5));
  ASSERT_TRUE(back.has_value()) << "seed=" << seed;
  const SimGameClient& again = *sim.clients[0];
  EXPECT_LE(back->seconds_f(), 2.0);
  EXPECT_EQ(again.pawn(), pawn) << "the same pawn";
  EXPECT_EQ(again.facade->resume_ticket()->outcome, protocol::ResumeOutcome::resumed);
  EXPECT_NE(token_of(again), token) << "a fresh token: the old one is used up";
  EXPECT_EQ(sim.server.resumes(), 1u);
  EXPECT_EQ(sim.server.superseded(), 1u) << "the old connection, still live, was dropped for its player";
  EXPECT_EQ(sim.game.pawn_count(), 2u) << "no second pawn";
  EXPECT_TRUE(sim.room.held_pawns().empty());
  const float moved = (sim.game.pawn(pawn)->feet - before.feet).length();
  EXPECT_LT(moved, 3.0f) << "the pawn stood where its player left it (its inputs starved, then zeroed)";
  // It plays on: its inputs reach the same pawn.
  const uint64_t steps = sim.clients[0]->client.session().inputs().next_sequence();
  sim.run_for(Duration::seconds(1));
  EXPECT_GT(sim.clients[0]->client.session().inputs().next_sequence(), steps + 30);
  std::printf("[ resume ] seed=%llu: back in the same pawn %.0f ms after the kill (old connection superseded)\n",
              static_cast<unsigned long long>(seed), back->milliseconds_f());
}

// A room whose admissions are closed (its load ladder's top rung, or a drain) turns a newcomer away
// at the handshake with a denied packet (netcode's request_denied_by_server), and still lets a player
// holding a resume token back into its pawn: closing admissions sheds new load, never the players the
// room already has.
TEST(ResumeSim, ClosedAdmissionsTurnANewcomerAwayAndLetAResumingPlayerBackIn) {
  const uint64_t seed = test_seed(2153);
  FreshResumeSim fresh(seed, "closed-sim");
  GameSim& sim = fresh.resuming.sim;
  sim.add_client({});
  ASSERT_TRUE(until_ticketed(sim, 0, Duration::seconds(5)).has_value()) << "seed=" << seed;
  const std::vector<uint8_t> token = token_of(*sim.clients[0]);
  const EntityRef pawn = sim.clients[0]->pawn();

  sim.server.set_admissions_open(false);
  sim.add_client({});
  sim.run_for(Duration::seconds(3));
  EXPECT_FALSE(sim.clients[1]->client.session().welcomed()) << "seed=" << seed;
  // Turned away at the handshake with a denied packet: no session, no slot, no welcome to undo.
  EXPECT_GE(sim.server.transport().netcode().rejects()[netcode::Reject::request_denied_by_server], 1u);
  EXPECT_EQ(sim.server.drops()[SessionDrop::admissions_closed], 0u);
  EXPECT_EQ(sim.game.pawn_count(), 1u) << "no pawn for the newcomer";

  sim.restart_client(0, 9002, token);
  ASSERT_TRUE(until_ticketed(sim, 0, Duration::seconds(5)).has_value()) << "seed=" << seed;
  EXPECT_EQ(sim.clients[0]->pawn(), pawn) << "back in its pawn with admissions closed";
  EXPECT_EQ(sim.clients[0]->facade->resume_ticket()->outcome, protocol::ResumeOutcome::resumed);

  sim.server.set_admissions_open(true);  // reopened: the newcomer's next try is seated
  sim.restart_client(1, 9003, {});
  ASSERT_TRUE(until_ticketed(sim, 1, Duration::seconds(5)).has_value()) << "seed=" << seed;
  EXPECT_EQ(sim.game.pawn_count(), 2u);
}

// Every refusal: counted by the server by name, told to the client in its ticket, the client
// seated in a fresh pawn.
struct RefusalCase {
  protocol::ResumeRefusal reason;
  std::vector<uint8_t> token;
};

TEST(ResumeSim, EveryRefusalIsNamedCountedAndToldAndThePlayerIsSeatedFresh) {
  const uint64_t seed = test_seed(2152);
  FreshResumeSim fresh(seed, "refusals");
  GameSim& sim = fresh.resuming.sim;
  for (int i = 0; i < 3; ++i) sim.add_client({});
  sim.run_for(Duration::seconds(2));
  ASSERT_TRUE(sim.all_welcomed());
  const std::vector<uint8_t> good = token_of(*sim.clients[0]);
  const EntityRef pawn0 = sim.clients[0]->pawn();
  ASSERT_FALSE(good.empty());

  // Client 0 comes back once (the token is then used), client 1 leaves for good and its hold ends.
  sim.restart_client(0, 9100, good);
  ASSERT_TRUE(until_ticketed(sim, 0, Duration::seconds(5)));
  ASSERT_EQ(sim.clients[0]->pawn(), pawn0);
  const std::vector<uint8_t> gone_token = token_of(*sim.clients[1]);
  sim.clients[1]->facade->disconnect(sim.world.now);
  sim.run_for(kHold + Duration::seconds(2));
  EXPECT_EQ(sim.room.holds_expired(), 1u);

  std::vector<RefusalCase> cases;
  cases.push_back({protocol::ResumeRefusal::replayed, good});
  std::vector<uint8_t> forged = token_of(*sim.clients[0]);
  forged.back() ^= 0x01;
  cases.push_back({protocol::ResumeRefusal::forged, forged});
  cases.push_back({protocol::ResumeRefusal::malformed, std::vector<uint8_t>(forged.begin(), forged.begin() + 20)});
  const WallTime now = sim.world.wall();
  ResumeTokens tokens(kKey);
  cases.push_back({protocol::ResumeRefusal::expired,
                   *tokens.issue("refusals", "7002", pawn0.raw(), now - Duration::seconds(700), kTokenLife)});
  cases.push_back({protocol::ResumeRefusal::foreign, *tokens.issue("another-room", "7002", pawn0.raw(), now, kTokenLife)});
  // Signed for this room, but naming a pawn another player plays: refused, that player undisturbed.
  cases.push_back({protocol::ResumeRefusal::foreign, *tokens.issue("refusals", "someone-else", pawn0.raw(), now, kTokenLife)});
  cases.push_back({protocol::ResumeRefusal::pawn_gone, gone_token});
  for (std::size_t i = 0; i < cases.size(); ++i) {
    SCOPED_TRACE(reason_name(cases[i].reason));
    const uint64_t superseded = sim.server.superseded();
    sim.restart_client(2, 9200 + i, cases[i].token);
    ASSERT_TRUE(until_ticketed(sim, 2, Duration::seconds(5))) << "seed=" << seed;
    const protocol::ResumeTicket& ticket = *sim.clients[2]->facade->resume_ticket();
    EXPECT_EQ(ticket.outcome, protocol::ResumeOutcome::refused);
    EXPECT_EQ(ticket.refusal, cases[i].reason);
    EXPECT_FALSE(ticket.token_hex.empty()) << "seated fresh, with a token for the fresh pawn";
    EXPECT_NE(sim.clients[2]->pawn(), pawn0);
    EXPECT_EQ(sim.server.superseded(), superseded);
  }
  EXPECT_EQ(sim.clients[0]->pawn(), pawn0);
  EXPECT_TRUE(sim.clients[0]->client.session().sending()) << "the player whose pawn the tokens named plays on";
  const auto& refusals = sim.server.resume_refusals();
  EXPECT_EQ(refusals[protocol::ResumeRefusal::replayed], 1u);
  EXPECT_EQ(refusals[protocol::ResumeRefusal::forged], 1u);
  EXPECT_EQ(refusals[protocol::ResumeRefusal::malformed], 1u);
  EXPECT_EQ(refusals[protocol::ResumeRefusal::expired], 1u);
  EXPECT_EQ(refusals[protocol::ResumeRefusal::foreign], 2u);
  EXPECT_EQ(refusals[protocol::ResumeRefusal::pawn_gone], 1u);
}

TEST(ResumeSim, AStoreThatCannotSayIsUnavailableAndAServerWithoutResumptionSaysNotOffered) {
  const uint64_t seed = test_seed(2153);
  BackendStores stores("sqlite");
  StallingStore stalling(stores.open());
  ResumeSim r(seed, stalling, "unavailable");
  r.sim.add_client({});
  r.sim.run_for(Duration::seconds(2));
  const std::vector<uint8_t> token = token_of(*r.sim.clients[0]);
  ASSERT_FALSE(token.empty());
  stalling.set_stalled(true);
  r.sim.restart_client(0, 9300, token);
  ASSERT_TRUE(until_ticketed(r.sim, 0, Duration::seconds(5)));
  EXPECT_EQ(r.sim.clients[0]->facade->resume_ticket()->refusal, protocol::ResumeRefusal::unavailable);
  EXPECT_EQ(r.sim.server.resume_refusals()[protocol::ResumeRefusal::unavailable], 1u);

  // A server that offers no resumption: the token is not read, the client is told, and it holds no
  // ticket from this server but that one.
  GameSim plain(seed, holding_config());
  GameClientSetup presenting;
  presenting.resume_token = token;
  plain.add_client(presenting);
  ASSERT_TRUE(until_ticketed(plain, 0, Duration::seconds(5)));
  const protocol::ResumeTicket& ticket = *plain.clients[0]->facade->resume_ticket();
  EXPECT_EQ(ticket.refusal, protocol::ResumeRefusal::not_offered);
  EXPECT_TRUE(ticket.token_hex.empty());
  EXPECT_EQ(plain.server.resume_refusals()[protocol::ResumeRefusal::not_offered], 1u);
}

// A room a store keeps, checkpointed with its players in it, then lost with its process: a new
// process recovers it and each player comes back into its own pawn with the token it held.
TEST(ResumeSim, ARecoveredRoomTakesItsPlayersBackIntoTheirPawns) {
  const uint64_t seed = test_seed(2154);
  BackendStores stores("sqlite");
  auto desk_store = stores.open();
  ASSERT_NE(desk_store, nullptr);
  std::vector<std::vector<uint8_t>> tokens;
  std::vector<EntityRef> pawns;
  std::vector<world::PawnState> states;
  {
    ResumeSim r(seed, *desk_store, "recovered");
    DurableRoom durable(stores.open(), "recovered", "server-a", r.sim.room, r.sim.server, TickEpoch::kernel_v1);
    ASSERT_NE(durable.keeper, nullptr) << durable.error;
    seat_three(r.sim, tokens, pawns);
    ASSERT_TRUE(durable.keeper->checkpoint_and_flush(r.sim.room, r.sim.room.last_tick()));
    for (const EntityRef p : pawns) states.push_back(*r.sim.game.pawn(p));
    durable.keeper->release();  // (a crash would leave the lease to run out: the fleet test shows that)
  }
  ResumeSim r(seed + 1, *desk_store, "recovered");
  DurableRoom durable(stores.open(), "recovered", "server-b", r.sim.room, r.sim.server, TickEpoch::kernel_v1);
  ASSERT_NE(durable.keeper, nullptr) << durable.error;
  EXPECT_EQ(r.sim.room.held_pawns().size(), 3u);
  r.sim.run_for(Duration::seconds(3));  // its wall clock (a new sim's starts where the first's did) past the tokens' issue
  expect_back_in_their_pawns(r.sim, tokens, pawns);
}

// A server started from another's save state (ServerConfig::initial_state, seed 002) holds every
// saved player's pawn where the save left it, and each player comes back into its own by the token
// the first server gave it: a reconnecting client starts from the save.
TEST(ResumeSim, AServerStartedFromASaveStateTakesItsPlayersBackIntoTheirPawns) {
  const uint64_t seed = test_seed(2155);
  BackendStores stores("sqlite");
  auto desk_store = stores.open();
  ASSERT_NE(desk_store, nullptr);
  std::vector<std::vector<uint8_t>> tokens;
  std::vector<EntityRef> pawns;
  std::vector<world::PawnState> states;
  std::vector<uint8_t> saved;
  Tick saved_tick;
  {
    ResumeSim r(seed, *desk_store, "saved");
    seat_three(r.sim, tokens, pawns);
    ASSERT_FALSE(r.sim.facade->save_state(saved));
    saved_tick = r.sim.room.last_tick();
    for (const EntityRef p : pawns) states.push_back(*r.sim.game.pawn(p));
  }
  GameSimConfig from_save = holding_config();
  from_save.initial_state = saved;
  ResumeSim r(seed + 1, *desk_store, "saved", from_save);
  EXPECT_EQ(r.sim.room.last_tick(), saved_tick);
  EXPECT_EQ(r.sim.room.session_count(), 0u);
  ASSERT_EQ(r.sim.room.held_pawns().size(), 3u);
  for (std::size_t i = 0; i < pawns.size(); ++i) {
    ASSERT_NE(r.sim.game.pawn(pawns[i]), nullptr) << i;
    EXPECT_EQ(r.sim.game.pawn(pawns[i])->feet, states[i].feet) << "where the save left it: " << i;
  }
  r.sim.run_for(Duration::seconds(3));  // its wall clock (a new sim's starts where the first's did) past the tokens' issue
  EXPECT_GT(r.sim.room.last_tick().value(), saved_tick.value() + 170) << "it ran from the save at once";
  expect_back_in_their_pawns(r.sim, tokens, pawns);
  std::printf("[ resume ] seed=%llu: a %zu-byte save at tick %lld started a second server; 3 players back in their pawns\n",
              static_cast<unsigned long long>(seed), saved.size(), static_cast<long long>(saved_tick.value()));
}

// A save state that does not read is refused at open, by name, and no server starts.
TEST(ResumeSim, AMalformedInitialStateIsRefusedAtOpenByName) {
  test::TestSimulation game;
  SimServerSetup setup;
  setup.config.initial_state = {0x01, 0x02, 0x03};
  const ServerOpen opened = Server::open(setup.config, game);
  EXPECT_FALSE(opened);
  EXPECT_NE(opened.error.find("initial state refused: "), std::string::npos) << opened.error;
}

}  // namespace
}  // namespace tickwire::durable

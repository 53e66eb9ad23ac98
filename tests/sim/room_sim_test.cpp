// The room over the simulated network, end to end: honest acks under multi-packet drains, catch-up
// ticks, duplicated and reordered input packets; one snapshot per simulated tick; starvation as the
// owner detail reports it; a client sending faster than the tick rate gains nothing; the contract
// hash refusing foreign frames, world settings out of range dropped. Each test prints its seed; TICKWIRE_SEED replays one.
#include <gtest/gtest.h>

#include <algorithm>

#include <cstdio>
#include <limits>
#include <map>
#include <set>

#include "room_sim.h"
#include "support.h"
#include "tickwire/core/rng.h"
#include "tickwire/wire/typed_channel.h"

namespace tickwire {
namespace {

using namespace tickwire::test;

LinkModel rough_link() {
  LinkModel link;
  link.latency_ms = 30;
  link.jitter_ms = 15;
  link.jitter_keeps_order = false;  // jitter wider than the send spacing reorders
  link.loss = 0.02;
  link.duplicate = 0.05;
  link.reorder = 0.05;
  return link;
}

// A server process that now and then wakes late by 20..150 ms (a GC pause, a busy host): each late
// wake drains several input packets at once and runs catch-up ticks.
std::function<MonoTime(MonoTime)> stalling_wakes(Rng& rng, double stall_probability) {
  return [&rng, stall_probability](MonoTime due) {
    if (rng.chance(stall_probability)) return due + Duration::milliseconds(rng.between(20, 150));
    return due;
  };
}

// Sequences whose ticks never ran, neither on their input nor on a starved tick's guess.
uint64_t gaps(const TestPawn& pawn) {
  std::vector<uint32_t> ran = pawn.applied;
  ran.insert(ran.end(), pawn.guessed.begin(), pawn.guessed.end());
  std::sort(ran.begin(), ran.end());
  uint64_t missing = 0;
  for (std::size_t i = 1; i < ran.size(); ++i) missing += ran[i] - ran[i - 1] - 1;
  return missing;
}

// Of the sequences a client sent, those whose ticks ran on the guess (their inputs late for them).
uint64_t guessed_of_sent(const TestPawn& pawn, uint64_t sent) {
  return static_cast<uint64_t>(std::count_if(pawn.guessed.begin(), pawn.guessed.end(), [&](uint32_t s) { return s < sent; }));
}

TEST(RoomSim, HonestAcksUnderDrainsCatchUpDuplicationAndReordering) {
  const uint64_t seed = test_seed(0x5001);
  RoomSim sim(seed);
  sim.world.net.set_default_link(rough_link());
  Rng stalls(seed ^ 0x57a11);
  sim.wake = stalling_wakes(stalls, 0.04);
  for (int i = 0; i < 8; ++i) sim.add_client();
  sim.run_for(Duration::seconds(29));
  for (auto& c : sim.clients) c->sending = false;  // the last second lets every input in flight land
  sim.run_for(Duration::seconds(1));

  std::printf("seed=%llu: %llu server iterations, deepest update %u ticks, %llu ticks, %llu snapshots\n",
              static_cast<unsigned long long>(seed), static_cast<unsigned long long>(sim.server_iterations),
              sim.deepest_update, static_cast<unsigned long long>(sim.room.clock().executed_ticks()),
              static_cast<unsigned long long>(sim.server.snapshots_sent()));
  ASSERT_TRUE(sim.all_welcomed()) << "seed " << seed;
  EXPECT_EQ(sim.invariants.total(), 0u) << "seed " << seed << ": catch-up " << sim.invariants.catch_up_over_cap
                                        << " queue " << sim.invariants.queue_over_cap << " ack "
                                        << sim.invariants.ack_not_applied << " server ack "
                                        << sim.invariants.server_ack_ahead << " clock "
                                        << sim.invariants.clock_unbalanced;
  EXPECT_GT(sim.deepest_update, 1u) << "the stalls must have caused catch-up ticks";
  EXPECT_LE(sim.deepest_update, 4u);
  for (const auto& [ref, pawn] : sim.simulation.pawns) {
    SCOPED_TRACE(testing::Message() << "seed " << seed << " owner " << int(pawn.owner));
    EXPECT_EQ(out_of_order_applications(pawn), 0u) << "each input runs once, in order";
    EXPECT_EQ(pawn.button_mismatches, 0u) << "a fresh input is the one its sequence names";
    const SimSessionClient* found = sim.client_of(pawn.owner);
    ASSERT_NE(found, nullptr);
    const SimSessionClient& client = *found;
    ASSERT_FALSE(pawn.applied.empty());
    const uint64_t guessed = guessed_of_sent(pawn, client.inputs_sent);
    std::printf("  owner %d: sent %llu, applied %zu (first %u, last %u), guessed %llu, gaps %llu, starved %llu, "
                "received %zu snaps\n",
                pawn.owner, static_cast<unsigned long long>(client.inputs_sent), pawn.applied.size(),
                pawn.applied.front(), pawn.applied.back(), static_cast<unsigned long long>(guessed),
                static_cast<unsigned long long>(gaps(pawn)), static_cast<unsigned long long>(pawn.starved_steps),
                client.snapshot_ticks.size());
    // Redundancy carries every input past 2% loss, duplication and reordering: every sequence sent
    // ran exactly once (none skipped, none twice), on its input or, that input late for its tick
    // (a stalled server, a jittered packet), on the guess.
    EXPECT_EQ(gaps(pawn), 0u);
    EXPECT_EQ(pawn.applied.front(), 0u);
    EXPECT_EQ(pawn.applied.size() + guessed, client.inputs_sent);
  }
}

TEST(RoomSim, OneSnapshotPerSimulatedTickWithItsRealTickNumber) {
  const uint64_t seed = test_seed(0x5002);
  RoomSim sim(seed);
  sim.world.net.set_default_link(steady_link(5));
  Rng stalls(seed ^ 0x57a12);
  sim.wake = stalling_wakes(stalls, 0.05);
  for (int i = 0; i < 4; ++i) sim.add_client();
  sim.run_for(Duration::seconds(20));

  ASSERT_TRUE(sim.all_welcomed()) << "seed " << seed;
  EXPECT_EQ(sim.invariants.total(), 0u) << "seed " << seed;
  EXPECT_GT(sim.deepest_update, 1u);
  EXPECT_EQ(sim.room.clock().declared_ticks(), 0) << "stalls under the overload threshold lose nothing";
  for (uint32_t slot = 0; slot < 4; ++slot) {
    SCOPED_TRACE(testing::Message() << "seed " << seed << " slot " << slot);
    const SimSessionClient* client = sim.client_of(RoomServer::owner_of_slot(slot));
    ASSERT_NE(client, nullptr);
    const ReplicationClientStats* stats = snapshot_stats(sim.server, slot);
    ASSERT_NE(stats, nullptr);
    // Every tick from the first snapshot on produced exactly one snapshot for this client.
    EXPECT_EQ(stats->snapshots_sent,
              static_cast<uint64_t>(stats->last_snapshot_tick - stats->first_snapshot_tick + 1));
    EXPECT_EQ(stats->last_snapshot_tick, sim.room.last_tick());
    // Over a lossless link every one of them arrived, each once, in tick order, none merged.
    const auto& ticks = client->snapshot_ticks;
    ASSERT_GT(ticks.size(), 1000u);
    EXPECT_EQ(client->session.drops().total(), 0u);
    for (std::size_t i = 1; i < ticks.size(); ++i) ASSERT_EQ(ticks[i], ticks[i - 1] + 1) << "at " << i;
  }
  EXPECT_EQ(sim.simulation.world_steps, static_cast<uint64_t>(sim.room.clock().executed_ticks()));
}

// A game that allows snapshots of many messages (a budget of 16 KB): every tick's state goes whole.
TEST(RoomSim, ASnapshotPastOneMessageIsSlicedAndEveryTickReassembled) {
  const uint64_t seed = test_seed(0x5009);
  RoomPolicy policy = test_room_policy();
  policy.budgets.snapshot_budget_bytes = 16'000;
  RoomSim sim(seed, 16, policy);
  sim.world.net.set_default_link(steady_link(5));
  sim.simulation.extra_records = 600;  // every prop jumps every tick: about 7 KB even as a delta
  SimSessionClient& client = sim.add_client();
  sim.run_for(Duration::seconds(5));
  ASSERT_TRUE(client.session.welcomed()) << "seed " << seed;
  const ReplicationClientStats* stats = snapshot_stats(sim.server, 0);
  ASSERT_NE(stats, nullptr);
  EXPECT_GT(stats->fragments_sent, 3 * stats->snapshots_sent) << "each snapshot went as several fragments";
  EXPECT_EQ(client.session.reassembler().completed_sets(), client.session.snapshots_accepted());
  EXPECT_EQ(client.session.reassembler().refusals().total(), 0u);
  const auto& ticks = client.snapshot_ticks;
  ASSERT_GT(ticks.size(), 250u);
  // Until the client holds a frame to code against, a whole state that needs fragments goes once
  // per kUnreferencedEveryTicks; from the first one held on, one snapshot per tick.
  EXPECT_GT(stats->holds[SnapshotHold::unreferenced_recently], 0u);
  std::size_t from = 0;
  while (from + 1 < ticks.size() && ticks[from + 1] != ticks[from] + 1) ++from;
  EXPECT_LT(from, 8u) << "a round trip's worth of spaced-out whole states at most";
  for (std::size_t i = from + 1; i < ticks.size(); ++i) ASSERT_EQ(ticks[i], ticks[i - 1] + 1) << "at " << i;
  EXPECT_EQ(sim.server.drops().total(), 0u);
  EXPECT_EQ(sim.invariants.total(), 0u);
}

// The same 600 jumping props under the default budget: every snapshot fits one message, one per
// tick, and the budget rotates through the props so none waits long (priority accumulation).
TEST(RoomSim, TheByteBudgetKeepsSnapshotsWholeAndEveryPropFresh) {
  const uint64_t seed = test_seed(0x500a);
  RoomSim sim(seed);
  sim.world.net.set_default_link(steady_link(5));
  constexpr uint32_t kProps = 600;
  sim.simulation.extra_records = kProps;
  std::map<uint32_t, std::pair<protocol::Vec3, uint32_t>> seen;  // prop id -> (position, tick it last changed)
  uint32_t worst_staleness = 0, snapshots = 0;
  sim.on_snapshot = [&](SimSessionClient&, const protocol::Snapshot& snapshot) {
    ++snapshots;
    for (const protocol::Record& r : snapshot.records) {
      if (r.entity_id < 1'000'000) continue;
      const protocol::Vec3 p = std::get<protocol::EntityRecord>(r.body).position;
      auto [it, added] = seen.emplace(r.entity_id, std::make_pair(p, snapshot.tick));
      if (!added && !(it->second.first == p)) it->second = {p, snapshot.tick};
    }
    if (snapshots < 120) return;  // a second to settle: the first frames fill in over a few ticks
    for (const auto& [id, entry] : seen) worst_staleness = std::max(worst_staleness, snapshot.tick - entry.second);
  };
  SimSessionClient& client = sim.add_client();
  sim.run_for(Duration::seconds(5));
  ASSERT_TRUE(client.session.welcomed()) << "seed " << seed;
  const ReplicationClientStats* stats = snapshot_stats(sim.server, 0);
  ASSERT_NE(stats, nullptr);
  EXPECT_EQ(stats->fragments_sent, 0u) << "every snapshot within one message";
  EXPECT_GT(stats->records_deferred, 0u) << "the budget left props for later ticks";
  EXPECT_EQ(seen.size(), kProps) << "every prop reached the client";
  const double bytes_per_tick = static_cast<double>(stats->snapshot_bytes) / static_cast<double>(stats->snapshots_sent);
  EXPECT_LE(bytes_per_tick, 1100.0);
  // 600 props at about 9 bytes each, a budget of about 1,000 bytes: about six ticks for a full turn;
  // a prop's priority grows while it waits, so none waits more than a few turns.
  EXPECT_LE(worst_staleness, 30u) << "seed " << seed;
  const auto& ticks = client.snapshot_ticks;
  ASSERT_GT(ticks.size(), 250u);
  for (std::size_t i = 10; i < ticks.size(); ++i) ASSERT_EQ(ticks[i], ticks[i - 1] + 1) << "at " << i;
  EXPECT_EQ(sim.server.drops().total(), 0u);
  EXPECT_EQ(sim.invariants.total(), 0u);
  std::printf("budget: %.0f B/tick, worst staleness %u ticks, %llu deferred\n", bytes_per_tick, worst_staleness,
              static_cast<unsigned long long>(stats->records_deferred));
}

// The contract is the one source of truth for the budget: the same room under a policy with a
// smaller snapshot budget sends smaller snapshots (and defers more), a larger one larger ones.
TEST(RoomSim, APolicysSnapshotBudgetIsWhatTheServerSends) {
  const uint64_t seed = test_seed(0x500b);
  struct Figures {
    double bytes_per_snapshot = 0;
    uint64_t deferred = 0;
  };
  const auto run = [seed](uint32_t budget_bytes) {
    RoomPolicy policy = test_room_policy();
    policy.budgets.snapshot_budget_bytes = budget_bytes;
    RoomSim sim(seed, 16, policy);
    EXPECT_EQ(sim.room.contract().budgets.snapshot_budget_bytes, budget_bytes);
    sim.world.net.set_default_link(steady_link(5));
    sim.simulation.extra_records = 600;
    sim.add_client();
    sim.run_for(Duration::seconds(4));
    const ReplicationClientStats* stats = snapshot_stats(sim.server, 0);
    EXPECT_NE(stats, nullptr);
    Figures f;
    if (stats == nullptr || stats->snapshots_sent == 0) return f;
    f.bytes_per_snapshot = static_cast<double>(stats->snapshot_bytes) / static_cast<double>(stats->snapshots_sent);
    f.deferred = stats->records_deferred;
    return f;
  };
  const Figures tight = run(400);
  const Figures loose = run(1000);
  std::printf("budget 400: %.0f B/snapshot, %llu deferred; budget 1000: %.0f B/snapshot, %llu deferred\n",
              tight.bytes_per_snapshot, static_cast<unsigned long long>(tight.deferred), loose.bytes_per_snapshot,
              static_cast<unsigned long long>(loose.deferred));
  EXPECT_LE(tight.bytes_per_snapshot, 400.0 + 40.0) << "seed " << seed;
  EXPECT_GT(loose.bytes_per_snapshot, 1.8 * tight.bytes_per_snapshot);
  EXPECT_LE(loose.bytes_per_snapshot, 1000.0 + 100.0);
  EXPECT_GT(tight.deferred, loose.deferred);
}

TEST(RoomSim, StarvationRepeatsThenZeroesAndTheOwnerDetailSaysSo) {
  const uint64_t seed = test_seed(0x5003);
  RoomSim sim(seed);
  sim.world.net.set_default_link(steady_link(10));
  SimSessionClient& client = sim.add_client();
  sim.run_for(Duration::seconds(3));
  ASSERT_TRUE(client.session.welcomed());
  const TestPawn& pawn = sim.simulation.pawns.begin()->second;
  const uint64_t starved_before = pawn.starved_steps;

  client.sending = false;  // the player's link to the input goes dead for one second
  sim.run_for(Duration::seconds(1));
  const auto& latest = client.session.newest();
  ASSERT_TRUE(latest && latest->owner);
  // About 60 starved ticks: the first 3 repeat the last input, the rest zero its movement.
  const uint64_t starved = pawn.starved_steps - starved_before;
  EXPECT_GE(starved, 55u);
  EXPECT_EQ(starved - pawn.zeroed_steps, 3u) << "seed " << seed;
  EXPECT_LE(latest->owner->queue_depth, -50) << "the depth byte reports the starved run";
  const float x_before = pawn.position.x;
  sim.run_for(Duration::milliseconds(500));
  EXPECT_EQ(pawn.position.x, x_before + 0.0f) << "zeroed movement: the pawn stands still";

  client.sending = true;
  sim.run_for(Duration::seconds(2));
  EXPECT_GT(pawn.position.x, x_before);
  EXPECT_GE(client.session.newest()->owner->queue_depth, 0) << "fed again, the queue is no longer starved";
  EXPECT_EQ(sim.invariants.total(), 0u) << "seed " << seed;
}

// `kick`: the contract's offence bucket as resolved (a client past the tick rate is kicked, see
// below); else one so deep nobody is, so the queue alone is what is shown.
void expect_fast_client_gains_nothing(double rate, uint64_t fallback_seed, bool kick = false) {
  const uint64_t seed = test_seed(fallback_seed);
  RoomPolicy policy = test_room_policy();
  if (!kick) policy.limits.kick_after_offences = kContractMaxKickAfterOffences;
  RoomSim sim(seed, 16, policy);
  sim.world.net.set_default_link(steady_link(20, 2));
  SimSessionClient& fast = sim.add_client(rate);
  SimSessionClient& honest = sim.add_client(1.0);
  sim.run_for(Duration::seconds(10));
  ASSERT_TRUE(fast.session.welcomed() && honest.session.welcomed());
  const TestPawn* fast_pawn = sim.pawn_of(fast);
  const TestPawn* honest_pawn = sim.pawn_of(honest);
  ASSERT_TRUE(fast_pawn && honest_pawn);
  std::printf("seed=%llu rate x%.2f: fast sent %llu, applied %zu, steps %llu; honest applied %zu, steps %llu\n",
              static_cast<unsigned long long>(seed), rate, static_cast<unsigned long long>(fast.inputs_sent),
              fast_pawn->applied.size(), static_cast<unsigned long long>(fast_pawn->steps),
              honest_pawn->applied.size(), static_cast<unsigned long long>(honest_pawn->steps));
  // One input per tick, whatever the rate: the fast pawn steps exactly as often as the honest one
  // and never moves farther than a tick's worth of movement per tick.
  const RoomSession* fast_session = sim.room.session(fast.session.welcome()->owner_id);
  const RoomSession* honest_session = sim.room.session(honest.session.welcome()->owner_id);
  ASSERT_TRUE(fast_session && honest_session);
  EXPECT_EQ(fast_pawn->steps, fast_session->ticks_simulated);
  EXPECT_EQ(honest_pawn->steps, honest_session->ticks_simulated);
  EXPECT_EQ(fast_session->ticks_simulated, static_cast<uint64_t>(sim.room.last_tick() - fast_session->admitted_at));
  EXPECT_LE(fast_pawn->applied.size(), fast_pawn->steps);
  EXPECT_LE(fast_pawn->position.x - static_cast<float>(fast_pawn->owner),  // spawned at x = owner
            static_cast<float>(fast_pawn->steps) * TestSimulation::kSpeedMps * static_cast<float>(sim.room.seconds_per_tick()) + 1e-3f);
  const auto& drops = fast_session->inputs.queue().drops();
  // Whatever it sent beyond one per tick was dropped and counted, never queued past the cap.
  EXPECT_GT(drops.total(), 0u);
  EXPECT_EQ(out_of_order_applications(*fast_pawn), 0u);
  EXPECT_EQ(sim.invariants.total(), 0u) << "seed " << seed;
  EXPECT_EQ(sim.server.kicks().total(), 0u);
}

// The regulator's own range (+2%) under the contract's offence bucket as resolved: never an offence.
TEST(RoomSim, AClientAt102PercentGainsNothing) { expect_fast_client_gains_nothing(1.02, 0x5004, true); }
TEST(RoomSim, AClientAtTwiceTheTickRateGainsNothing) { expect_fast_client_gains_nothing(2.0, 0x5005); }
TEST(RoomSim, AClientAtTenTimesTheTickRateGainsNothing) { expect_fast_client_gains_nothing(10.0, 0x5006); }

// Under the contract's offence bucket as resolved, a client at ten times the tick rate outruns its
// input sequences' allowance (the tick rate x1.25, a burst of 2 s) and is kicked by name; the honest
// client beside it plays on.
TEST(RoomSim, AClientAtTenTimesTheTickRateIsKickedByName) {
  const uint64_t seed = test_seed(0x500a);
  RoomSim sim(seed);
  sim.world.net.set_default_link(steady_link(20, 2));
  SimSessionClient& fast = sim.add_client(10.0);
  SimSessionClient& honest = sim.add_client(1.0);
  sim.run_for(Duration::seconds(10));
  EXPECT_EQ(sim.server.kicks()[KickReason::flood], 1u) << "seed " << seed;
  EXPECT_GT(sim.server.offences()[Offence::input_rate], 0u);
  EXPECT_FALSE(fast.session.sending()) << "its connection ended";
  EXPECT_TRUE(honest.session.sending());
  EXPECT_EQ(sim.server.offences().total(), sim.server.offences()[Offence::input_rate]) << "nothing else offended";
}

TEST(RoomSim, AFrameWithAForeignContractHashIsRefused) {
  const uint64_t seed = test_seed(0x5007);
  RoomSim sim(seed);
  SimSessionClient& client = sim.add_client();
  sim.run_for(Duration::seconds(2));
  ASSERT_TRUE(client.session.welcomed());
  EXPECT_EQ(client.session.guard()->expected(), sim.room.contract_hash());
  const uint64_t accepted = client.session.snapshots_accepted();

  // The server's own channel carries a frame stamped with another contract's hash.
  protocol::Snapshot foreign;
  foreign.tick = sim.room.last_tick().wire_u32() + 1000;
  NetcodeContract other = sim.room.contract();
  other.cadence.tick_rate_hz = 30;
  foreign.contract_hash.bytes = contract_hash(other).bytes();
  ASSERT_TRUE(wire::send_message(*sim.server.channel(0), 1, foreign).ok());
  sim.run_for(Duration::milliseconds(200));
  EXPECT_EQ(client.session.drops()[ClientDrop::frame_refused], 1u);
  EXPECT_EQ(client.session.guard()->refused(), 1u);
  EXPECT_LT(client.session.newest()->tick, foreign.tick) << "the refused frame was not used";
  EXPECT_GT(client.session.snapshots_accepted(), accepted) << "the room's own frames still are";

  // A welcome whose contract does not hash to what it claims ends the session on the client.
  protocol::RoomWelcome lying;
  lying.owner_id = 1;
  lying.contract = sim.room.contract();
  lying.contract_hash.bytes = contract_hash(other).bytes();
  ASSERT_TRUE(wire::send_message(*sim.server.channel(0), 0, lying).ok());
  sim.run_for(Duration::milliseconds(200));
  EXPECT_EQ(client.session.drops()[ClientDrop::contract_hash_mismatch], 1u);
  EXPECT_TRUE(client.session.refused());
}

// A welcome naming an owner id past the 10-bit space (or the authority's 0) is refused before the
// client builds a channel under it, its contract whole and honest as it may be.
TEST(RoomSim, AWelcomeWithAnOwnerIdOutsideTheSpaceIsRefused) {
  for (const uint16_t owner : {uint16_t{kOwnerIdCount}, uint16_t{0xFFFF}, uint16_t{kAuthorityOwner}}) {
    SCOPED_TRACE(owner);
    RoomSim sim(test_seed(0x5008));
    SimSessionClient& client = sim.add_client();
    sim.run_for(Duration::seconds(2));
    ASSERT_TRUE(client.session.welcomed());
    protocol::RoomWelcome stray;
    stray.owner_id = owner;
    stray.contract = sim.room.contract();
    stray.contract_hash.bytes = contract_hash(stray.contract).bytes();
    ASSERT_TRUE(wire::send_message(*sim.server.channel(0), 0, stray).ok());
    sim.run_for(Duration::milliseconds(100));
    EXPECT_EQ(client.session.drops()[ClientDrop::owner_id_invalid], 1u);
    EXPECT_TRUE(client.session.refused());
  }
}

// A snapshot naming world settings out of range (a NaN time scale would step the predicted pawn by
// NaN seconds) is dropped by reason and never becomes the client's settings.
TEST(RoomSim, ASnapshotWithWorldSettingsOutOfRangeIsDropped) {
  const uint64_t seed = test_seed(0x5009);
  RoomSim sim(seed);
  SimSessionClient& client = sim.add_client();
  sim.run_for(Duration::seconds(2));
  ASSERT_TRUE(client.session.welcomed());
  EXPECT_EQ(client.session.world_settings(), protocol::WorldSettings{});
  protocol::Snapshot bad;
  bad.tick = sim.room.last_tick().wire_u32() + 1000;
  bad.contract_hash.bytes = sim.room.contract_hash().bytes();
  bad.world = protocol::WorldSettings{1.0f, std::numeric_limits<float>::quiet_NaN()};
  ASSERT_TRUE(wire::send_message(*sim.server.channel(0), 1, bad).ok());
  sim.run_for(Duration::milliseconds(200));
  EXPECT_EQ(client.session.drops()[ClientDrop::world_malformed], 1u);
  EXPECT_LT(client.session.newest()->tick, bad.tick) << "the dropped frame was not used";
  EXPECT_EQ(client.session.world_settings(), protocol::WorldSettings{});
}

TEST(RoomSim, AnInteractionNamingAStaleEntityNeverReachesTheGame) {
  const uint64_t seed = test_seed(0x5008);
  RoomSim sim(seed);
  SimSessionClient& a = sim.add_client();
  SimSessionClient& b = sim.add_client();
  sim.run_for(Duration::seconds(2));
  ASSERT_TRUE(a.session.welcomed() && b.session.welcomed());
  const uint64_t b_pawn = b.session.welcome()->pawn_ref;

  // b leaves: its pawn despawns; a third client takes the freed entity slot with a new generation.
  b.netcode.disconnect(sim.world.now);
  sim.run_for(Duration::seconds(1));
  SimSessionClient& c = sim.add_client();
  sim.run_for(Duration::seconds(2));
  ASSERT_TRUE(c.session.welcomed());
  const uint64_t c_pawn = c.session.welcome()->pawn_ref;
  ASSERT_EQ(EntityRef::from_raw(c_pawn).handle(), EntityRef::from_raw(b_pawn).handle()) << "the slot was reused";
  ASSERT_NE(EntityRef::from_raw(c_pawn).generation(), EntityRef::from_raw(b_pawn).generation());

  NetChannel* net = nullptr;
  ASSERT_TRUE(a.reliable.endpoint() != nullptr);
  NetChannel a_net(*a.reliable.endpoint(), a.session.welcome()->owner_id, kAuthorityOwner);
  net = &a_net;
  ASSERT_TRUE(wire::send_message(*net, 0, protocol::InteractRequest{b_pawn, 1}).ok());  // stale
  ASSERT_TRUE(wire::send_message(*net, 0, protocol::InteractRequest{c_pawn, 2}).ok());  // current
  sim.run_for(Duration::milliseconds(300));
  EXPECT_EQ(sim.room.interact_refusals()[InteractRefusal::stale_or_foreign], 1u) << "seed " << seed;
  ASSERT_EQ(sim.simulation.interactions.size(), 1u);
  EXPECT_EQ(sim.simulation.interactions[0].target, c_pawn);
  EXPECT_EQ(sim.simulation.interactions[0].action, 2);
}

}  // namespace
}  // namespace tickwire

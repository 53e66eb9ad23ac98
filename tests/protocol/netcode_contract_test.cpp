// The netcode contract: identical content gives an identical hash (pinned, so every process and
// build agrees), a changed tick rate changes it, a changed player count does not; nonsense
// policies are refused with named errors; a frame with a foreign hash is refused and counted.
#include "tickwire/protocol/netcode_contract.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "contract_test_policy.h"
#include "tickwire/protocol/contract_guard.h"

namespace tickwire {
namespace {

constexpr std::string_view kPinnedJson =
    R"({"budgets":{"client_bytes_per_second":262144,"max_packet_bytes":1200,"max_snapshot_fragments":16,)"
    R"("snapshot_budget_bytes":9600},"cadence":{"max_catch_up_ticks":4,"snapshot_rate_hz":60,"tick_rate_hz":60,)"
    R"("ticks_per_snapshot":1},"identity":{"blueprint":"arena.v3","content_version":"1.4.2","deployment":"eu-west",)"
    R"("environment":"staging","game":"tickwire-arena","room_id":"room-7","room_template":"duel"},)"
    R"("input":{"forgiveness":0.35,"queue_ticks":12,"starvation_ticks":3},"interpolation":{"auto_margin":true,)"
    R"("buffer_ticks":16,"delay_snapshot_intervals":2,"delay_ticks":3,"margin_decay_seconds":2.5,)"
    R"("margin_growth_ticks":1,"max_extrapolation_ms":100,"max_margin_ticks":8},"limits":{"fire_per_second":15,)"
    R"("interaction_range_m":3,"interactions_per_second":8,"max_rewind_ms":250},"version":1})";
constexpr std::string_view kPinnedHashHex = "6f141e3bf9034d28268184970b7c57cb";

NetcodeContract resolve(const RoomPolicy& policy) {
  const ContractResolution resolution = resolve_netcode_contract(policy);
  EXPECT_TRUE(resolution.ok()) << contract_error_name(resolution.issue.error) << " in " << resolution.issue.field;
  return resolution.contract.value_or(NetcodeContract{});
}

TEST(NetcodeContract, ResolvesDefaultsAndDerivedValues) {
  const NetcodeContract contract = resolve(test::fixed_room_policy());
  EXPECT_EQ(contract.version, kNetcodeContractVersion);
  EXPECT_EQ(contract.input.queue_ticks, 12u);
  EXPECT_EQ(contract.input.starvation_ticks, 3u);
  EXPECT_EQ(contract.cadence.max_catch_up_ticks, 4u);
  EXPECT_EQ(contract.ticks_per_snapshot, 1u);
  EXPECT_EQ(contract.interp_delay_ticks, 3u);  // two snapshot intervals + one margin tick
  RoomPolicy twenty = test::fixed_room_policy();
  twenty.cadence.snapshot_rate_hz = 20;
  EXPECT_EQ(resolve(twenty).ticks_per_snapshot, 3u);
  EXPECT_EQ(resolve(twenty).interp_delay_ticks, 7u);
}

// Pinned: the canonical text and its BLAKE2b-128, so every process and build agrees. Cross-checked
// outside this code: Python's hashlib.blake2b(text, digest_size=16) gives the same hex, and
// json.dumps(json.loads(text), sort_keys=True, separators=(",", ":")) gives back the same text.
// A change here changes every deployed contract hash: bump kNetcodeContractVersion with it.
TEST(NetcodeContract, CanonicalJsonAndHashArePinned) {
  const NetcodeContract contract = resolve(test::fixed_room_policy());
  const std::string json = contract_canonical_json(contract);
  EXPECT_EQ(json, kPinnedJson);
  EXPECT_EQ(contract_hash(contract).hex(), kPinnedHashHex);
  EXPECT_EQ(contract_hash(contract), ContractHash::of(json));
}

TEST(NetcodeContract, IdenticalContentIdenticalHash) {
  const RoomPolicy a = test::fixed_room_policy();
  RoomPolicy b;  // built in another order, same content
  b.bookkeeping = a.bookkeeping;
  b.limits = a.limits;
  b.input = a.input;
  b.identity = a.identity;
  b.interpolation = a.interpolation;
  EXPECT_EQ(contract_hash(resolve(a)), contract_hash(resolve(b)));
  EXPECT_EQ(contract_revision_key(a), contract_revision_key(b));
}

TEST(NetcodeContract, TickRateChangesTheHashAndTheRevisionKey) {
  const RoomPolicy base = test::fixed_room_policy();
  RoomPolicy faster = base;
  faster.cadence.tick_rate_hz = 64;
  faster.cadence.snapshot_rate_hz = 64;
  EXPECT_NE(contract_hash(resolve(base)), contract_hash(resolve(faster)));
  EXPECT_NE(contract_revision_key(base), contract_revision_key(faster));
}

TEST(NetcodeContract, EveryContentFieldChangesTheHash) {
  const RoomPolicy base = test::fixed_room_policy();
  const ContractHash base_hash = contract_hash(resolve(base));
  const auto differs = [&](auto&& edit) {
    RoomPolicy changed = base;
    edit(changed);
    return contract_hash(resolve(changed)) != base_hash && contract_revision_key(changed) != contract_revision_key(base);
  };
  EXPECT_TRUE(differs([](RoomPolicy& p) { p.identity.content_version = "1.4.3"; }));
  EXPECT_TRUE(differs([](RoomPolicy& p) { p.identity.room_template = ""; }));
  EXPECT_TRUE(differs([](RoomPolicy& p) { p.cadence.snapshot_rate_hz = 30; }));
  EXPECT_TRUE(differs([](RoomPolicy& p) { p.input.queue_ticks = 8; }));
  EXPECT_TRUE(differs([](RoomPolicy& p) { p.input.forgiveness = 0.4; }));
  EXPECT_TRUE(differs([](RoomPolicy& p) { p.interpolation.auto_margin = false; }));
  EXPECT_TRUE(differs([](RoomPolicy& p) { p.budgets.snapshot_budget_bytes = 4800; }));
  EXPECT_TRUE(differs([](RoomPolicy& p) { p.limits.fire_per_second = 10; }));
}

TEST(NetcodeContract, VolatileBookkeepingChangesNeitherHashNorRevisionKey) {
  const RoomPolicy base = test::fixed_room_policy();
  RoomPolicy busy = base;
  busy.bookkeeping.player_count = 63;
  busy.bookkeeping.lease_progress = 0.9;
  busy.bookkeeping.lease_renewals = 1234;
  EXPECT_EQ(contract_hash(resolve(base)), contract_hash(resolve(busy)));
  EXPECT_EQ(contract_revision_key(base), contract_revision_key(busy));
  EXPECT_EQ(contract_revision_key_json(base), contract_revision_key_json(busy));
}

TEST(NetcodeContract, RevisionKeyIsDomainSeparatedFromTheContractHash) {
  const RoomPolicy policy = test::fixed_room_policy();
  EXPECT_NE(contract_revision_key(policy), contract_hash(resolve(policy)));
  EXPECT_NE(contract_revision_key_json(policy).find("\"domain\""), std::string::npos);
}

struct Nonsense {
  const char* what;
  void (*edit)(RoomPolicy&);
  ContractError error;
  std::string_view field;
};

TEST(NetcodeContract, NonsenseIsRefusedWithNamedErrors) {
  const Nonsense cases[] = {
      {"tick rate 0", [](RoomPolicy& p) { p.cadence.tick_rate_hz = 0; }, ContractError::tick_rate_zero,
       "cadence.tick_rate_hz"},
      {"tick rate 1000", [](RoomPolicy& p) { p.cadence.tick_rate_hz = 1000; }, ContractError::tick_rate_too_high,
       "cadence.tick_rate_hz"},
      {"snapshot 0", [](RoomPolicy& p) { p.cadence.snapshot_rate_hz = 0; }, ContractError::snapshot_rate_zero,
       "cadence.snapshot_rate_hz"},
      {"snapshot above tick", [](RoomPolicy& p) { p.cadence.snapshot_rate_hz = 120; },
       ContractError::snapshot_rate_above_tick_rate, "cadence.snapshot_rate_hz"},
      {"snapshot not a divisor", [](RoomPolicy& p) { p.cadence.snapshot_rate_hz = 25; },
       ContractError::snapshot_rate_not_tick_divisor, "cadence.snapshot_rate_hz"},
      {"catch-up 0", [](RoomPolicy& p) { p.cadence.max_catch_up_ticks = 0; }, ContractError::catch_up_out_of_range,
       "cadence.max_catch_up_ticks"},
      {"queue 0", [](RoomPolicy& p) { p.input.queue_ticks = 0; }, ContractError::input_queue_out_of_range,
       "input.queue_ticks"},
      {"queue 200", [](RoomPolicy& p) { p.input.queue_ticks = 200; }, ContractError::input_queue_out_of_range,
       "input.queue_ticks"},
      {"forgiveness 1.5", [](RoomPolicy& p) { p.input.forgiveness = 1.5; }, ContractError::forgiveness_out_of_range,
       "input.forgiveness"},
      {"forgiveness NaN", [](RoomPolicy& p) { p.input.forgiveness = std::nan(""); }, ContractError::not_finite,
       "input.forgiveness"},
      {"empty room", [](RoomPolicy& p) { p.identity.room_id.clear(); }, ContractError::field_empty,
       "identity.room_id"},
      {"long game", [](RoomPolicy& p) { p.identity.game.assign(200, 'g'); }, ContractError::field_too_long,
       "identity.game"},
      {"control byte", [](RoomPolicy& p) { p.identity.environment = "prod\n"; }, ContractError::field_not_printable,
       "identity.environment"},
      {"packet 4000", [](RoomPolicy& p) { p.budgets.max_packet_bytes = 4000; }, ContractError::budget_out_of_range,
       "budgets.max_packet_bytes"},
      {"snapshot budget past fragments", [](RoomPolicy& p) { p.budgets.snapshot_budget_bytes = 16 * 1200 + 1; },
       ContractError::budget_out_of_range, "budgets.snapshot_budget_bytes"},
      {"fire 0", [](RoomPolicy& p) { p.limits.fire_per_second = 0; }, ContractError::limit_out_of_range,
       "limits.fire_per_second"},
      {"delay beyond ring", [](RoomPolicy& p) { p.interpolation.buffer_ticks = 8; },
       ContractError::interpolation_delay_exceeds_buffer, "interpolation.buffer_ticks"},
  };
  for (const Nonsense& c : cases) {
    RoomPolicy policy = test::fixed_room_policy();
    c.edit(policy);
    const ContractResolution resolution = resolve_netcode_contract(policy);
    EXPECT_FALSE(resolution.ok()) << c.what;
    EXPECT_EQ(resolution.issue.error, c.error) << c.what << ": got " << contract_error_name(resolution.issue.error);
    EXPECT_EQ(resolution.issue.field, c.field) << c.what;
    EXPECT_NE(contract_error_name(resolution.issue.error), "unknown") << c.what;
  }
}

TEST(NetcodeContract, AReceivedContractWithInconsistentDerivedFieldsIsRefused) {
  NetcodeContract contract = resolve(test::fixed_room_policy());
  EXPECT_TRUE(validate_netcode_contract(contract).ok());
  NetcodeContract wrong_delay = contract;
  wrong_delay.interp_delay_ticks = 1;
  EXPECT_EQ(validate_netcode_contract(wrong_delay).error, ContractError::derived_value_mismatch);
  NetcodeContract future = contract;
  future.version = kNetcodeContractVersion + 1;
  EXPECT_EQ(validate_netcode_contract(future).error, ContractError::unsupported_version);
}

// Our contract's hash and that of a room at another tick rate.
std::pair<ContractHash, ContractHash> ours_and_theirs() {
  const RoomPolicy policy = test::fixed_room_policy();
  RoomPolicy other = policy;
  other.cadence.tick_rate_hz = 30;
  other.cadence.snapshot_rate_hz = 30;
  return {contract_hash(resolve(policy)), contract_hash(resolve(other))};
}

TEST(ContractGuard, AFrameWithAForeignHashIsRefusedAndCounted) {
  const auto [ours, theirs] = ours_and_theirs();
  ContractGuard guard(ours);
  EXPECT_EQ(guard.check(ours), ContractVerdict::accept);
  EXPECT_EQ(guard.check(theirs), ContractVerdict::refuse);
  EXPECT_EQ(guard.check(std::span<const uint8_t>(ours.bytes())), ContractVerdict::accept);
  const uint8_t short_bytes[5] = {1, 2, 3, 4, 5};
  EXPECT_EQ(guard.check(std::span<const uint8_t>(short_bytes)), ContractVerdict::refuse);
  EXPECT_EQ(guard.check(ContractHash{}), ContractVerdict::refuse);
  EXPECT_EQ(guard.accepted(), 2u);
  EXPECT_EQ(guard.refused(), 3u);
  EXPECT_EQ(guard.refusals()[ContractRefusal::foreign_hash], 2u);
  EXPECT_EQ(guard.refusals()[ContractRefusal::malformed_hash], 1u);
}

TEST(ContractGuard, ADeltaFramesTagIsTheHashsFirstFourBytes) {
  const auto [ours, theirs] = ours_and_theirs();
  const auto& b = ours.bytes();
  EXPECT_EQ(ours.tag(), uint32_t{b[0]} | uint32_t{b[1]} << 8 | uint32_t{b[2]} << 16 | uint32_t{b[3]} << 24);
  ASSERT_NE(ours.tag(), theirs.tag());
  ContractGuard guard(ours);
  EXPECT_EQ(guard.check_tag(ours.tag()), ContractVerdict::accept);
  EXPECT_EQ(guard.check_tag(theirs.tag()), ContractVerdict::refuse);
  EXPECT_EQ(guard.check_tag(0), ContractVerdict::refuse);
  EXPECT_EQ(guard.refusals()[ContractRefusal::foreign_hash], 2u);
}

TEST(ContractHash, HexRoundTripsAndRefusesMalformedInput) {
  const ContractHash hash = ContractHash::of("tickwire");
  EXPECT_EQ(hash.hex().size(), 32u);
  EXPECT_EQ(ContractHash::from_hex(hash.hex()), hash);
  EXPECT_FALSE(ContractHash::from_hex("abcd").has_value());
  EXPECT_FALSE(ContractHash::from_hex(std::string(32, 'z')).has_value());
  EXPECT_TRUE(ContractHash{}.is_zero());
  EXPECT_FALSE(hash.is_zero());
}

}  // namespace
}  // namespace tickwire

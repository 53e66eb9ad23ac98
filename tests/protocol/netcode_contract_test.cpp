// The netcode contract: identical content gives an identical hash (pinned, so every process and
// build agrees), every content field changes it; nonsense policies are refused with named errors
// at the dotted path of the field; a frame with a foreign hash is refused and counted.
#include "tickwire/protocol/netcode_contract.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <string_view>
#include <utility>

#include "contract_test_policy.h"
#include "tickwire/protocol/contract_guard.h"

namespace tickwire {
namespace {

// The default load ladders and the default runtime mode, which both pinned contracts below carry
// where `"load"` and `"mode"` sort (before `"prediction"`); with_default_load puts them there.
constexpr std::string_view kDefaultLoadJson =
    R"("load":{"room":{"interestRadiusPercent":75,"releaseDwellMs":2000,"rungs":[{"enterCostPercent":50,"enterLagTicks":2,)"
    R"("releaseCostPercent":35,"releaseLagTicks":0,"rung":"worldLaneSlowed"},{"enterCostPercent":65,"enterLagTicks":3,)"
    R"("releaseCostPercent":50,"releaseLagTicks":1,"rung":"interestNarrowed"},{"enterCostPercent":80,"enterLagTicks":4,)"
    R"("releaseCostPercent":65,"releaseLagTicks":2,"rung":"snapshotBudgetCut"},{"enterCostPercent":95,"enterLagTicks":6,)"
    R"("releaseCostPercent":80,"releaseLagTicks":3,"rung":"admissionsClosed"}],"snapshotBudgetPercent":60,"worldLaneDivisor":2},)"
    R"("shard":{"killLagTicks":32,"releaseDwellMs":5000,"rungs":[{"enterBusyPercent":60,"enterLagTicks":2,"releaseBusyPercent":45,)"
    R"("releaseLagTicks":0,"rung":"placementClosed"},{"enterBusyPercent":75,"enterLagTicks":4,"releaseBusyPercent":60,)"
    R"("releaseLagTicks":1,"rung":"roomsShed"},{"enterBusyPercent":85,"enterLagTicks":8,"releaseBusyPercent":70,)"
    R"("releaseLagTicks":2,"rung":"admissionsClosed"},{"enterBusyPercent":95,"enterLagTicks":16,"releaseBusyPercent":80,)"
    R"("releaseLagTicks":4,"rung":"roomsMigrated"}]}},)"
    R"("mode":{"deterministic":{"inputBytes":4,"inputDelayFrames":2,"lagLimitMs":1000,"lagPolicy":"stall",)"
    R"("maxCatchUpFrames":8,"rollbackWindowFrames":8,"seats":4},"mode":"snapshot",)"
    R"("serverTime":{"maxLogicHz":240,"stampLeadMs":1000}},)";

std::string with_default_load(std::string_view json) {
  const std::size_t at = json.find(R"("prediction":)");
  return fmt::format("{}{}{}", json.substr(0, at), kDefaultLoadJson, json.substr(at));
}

constexpr std::string_view kPinnedJson =
    R"({"budgets":{"clientBytesPerSecond":262144,"maxSnapshotFragments":16,"snapshotBudgetBytes":1000},)"
    R"("cadence":{"maxCatchUpTicks":4,"snapshotRateHz":60,"tickRateHz":60,"timeScale":1},)"
    R"("identity":{"blueprint":"arena.v3","contentVersion":"1.4.2","deployment":"eu-west",)"
    R"("environment":"staging","game":"tickwire-arena","roomId":"room-7","roomTemplate":"duel"},)"
    R"("input":{"forgiveness":0.35,"queueTicks":12,"starvationTicks":3},"interest":{"poseRadiusM":24.5,)"
    R"("radiusM":100},"interpDelayTicks":3,"interpolation":{"autoMargin":true,"bufferTicks":32,)"
    R"("delaySnapshotIntervals":2,"marginDecaySeconds":2.5,"marginGrowthTicks":1,)"
    R"("maxExtrapolationMs":100,"maxMarginTicks":8},"limits":{"editsPerSecond":20,"fireEyeToleranceM":1,"firesPerSecond":10,"interactionRangeM":3,)"
    R"("interactionsPerSecond":8,"kickAfterOffences":200,"maxRewindMs":250,"offencesForgivenPerSecond":20,"pingsPerSecond":10,)"
    R"("relaysPerSecond":60},"prediction":{"demoted":true,"ownPawnPredicted":false,)"
    R"("requested":{"movementAuthority":"clientPredicted","pawnBody":"dynamicRigidbody"},"transformOwner":"physics"},)"
    R"("ticksPerSnapshot":1,"version":10,"vocabulary":{"buttons":[{"bit":0,)"
    R"("name":"jump","posture":false}],"components":[{"channels":2,"name":"mover","wireId":2}],"entityFlags":[{"bit":0,)"
    R"("claimable":true,"name":"grounded"},{"bit":3,"claimable":false,"name":"frozen"}],)"
    R"("kinds":[{"id":1,"important":true,"name":"pawn","precision":{"fitHistory":false,)"
    R"("positionQuantumM":0.001953,"rotationBits":9,"rotationSteps":0},"profile":"standard"},{"id":2,)"
    R"("important":false,"name":"crate","precision":{"fitHistory":true,"positionQuantumM":0.003906,)"
    R"("rotationBits":11,"rotationSteps":0},"profile":"doubled"}],"objectFlags":[{"bit":0,)"
    R"("claimable":false,"name":"enabled"}],"objects":{"fitHistory":false,"positionQuantumM":0.001953,)"
    R"("rotationBits":9,"rotationSteps":0},"pawnValues":[{"name":"eyeHeight"}]}})";
constexpr std::string_view kPinnedHashHex = "fc1202e9836a46211a8404a7f260d8ee";
constexpr std::string_view kDefaultJson =
    R"({"budgets":{"clientBytesPerSecond":262144,"maxSnapshotFragments":16,"snapshotBudgetBytes":1000},)"
    R"("cadence":{"maxCatchUpTicks":4,"snapshotRateHz":60,"tickRateHz":60,"timeScale":1},"identity":{"blueprint":"",)"
    R"("contentVersion":"1","deployment":"local","environment":"dev","game":"tickwire",)"
    R"("roomId":"room-1","roomTemplate":""},"input":{"forgiveness":1,"queueTicks":12,)"
    R"("starvationTicks":3},"interest":{"poseRadiusM":30,"radiusM":100},"interpDelayTicks":3,)"
    R"("interpolation":{"autoMargin":true,"bufferTicks":32,"delaySnapshotIntervals":2,)"
    R"("marginDecaySeconds":2,"marginGrowthTicks":1,"maxExtrapolationMs":100,"maxMarginTicks":8},)"
    R"("limits":{"editsPerSecond":20,"fireEyeToleranceM":1,"firesPerSecond":10,"interactionRangeM":3,"interactionsPerSecond":8,"kickAfterOffences":200,"maxRewindMs":250,"offencesForgivenPerSecond":20,"pingsPerSecond":10,"relaysPerSecond":60},)"
    R"("prediction":{"demoted":false,"ownPawnPredicted":false,"requested":{"movementAuthority":"serverAuthoritative",)"
    R"("pawnBody":"none"},"transformOwner":"physics"},"ticksPerSnapshot":1,"version":10,)"
    R"("vocabulary":{"buttons":[],"components":[],"entityFlags":[],"kinds":[],"objectFlags":[],)"
    R"("objects":{"fitHistory":false,"positionQuantumM":0.001953,"rotationBits":9,"rotationSteps":0},)"
    R"("pawnValues":[]}})";

NetcodeContract resolve(const RoomPolicy& policy) {
  const ContractResolution resolution = resolve_netcode_contract(policy);
  EXPECT_TRUE(resolution.ok()) << reason_name(resolution.issue.error) << " at " << resolution.issue.field;
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
  EXPECT_EQ(contract.budgets.snapshot_budget_bytes, 1000u);
  EXPECT_EQ(contract.budgets.max_snapshot_fragments, 16u);
  EXPECT_EQ(contract.interest.radius_m, 100.0);
  EXPECT_EQ(contract.interest.pose_radius_m, 24.5);
  EXPECT_EQ(contract.vocabulary, test::fixed_room_policy().vocabulary);
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
  EXPECT_EQ(json, with_default_load(kPinnedJson));
  EXPECT_EQ(contract_hash(contract).hex(), kPinnedHashHex);
  EXPECT_EQ(contract_hash(contract), ContractHash::of(json));
}

// The default contract (only its identity set), pinned: keys are the fields' wire names, nested
// parts are objects, lists are arrays.
TEST(NetcodeContract, DefaultContractJsonIsPinned) {
  EXPECT_EQ(contract_canonical_json(resolve(test::default_room_policy())), with_default_load(kDefaultJson));
}

TEST(NetcodeContract, IdenticalContentIdenticalHash) {
  const RoomPolicy a = test::fixed_room_policy();
  RoomPolicy b;  // built in another order, same content
  b.vocabulary = a.vocabulary;
  b.interest = a.interest;
  b.limits = a.limits;
  b.input = a.input;
  b.identity = a.identity;
  b.interpolation = a.interpolation;
  b.prediction = a.prediction;
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
  EXPECT_TRUE(differs([](RoomPolicy& p) { p.budgets.max_snapshot_fragments = 8; }));
  EXPECT_TRUE(differs([](RoomPolicy& p) { p.limits.interactions_per_second = 10; }));
  EXPECT_TRUE(differs([](RoomPolicy& p) { p.interest.radius_m = 80.0; }));
  EXPECT_TRUE(differs([](RoomPolicy& p) { p.interest.pose_radius_m = 20.0; }));
  EXPECT_TRUE(differs([](RoomPolicy& p) { p.vocabulary.kinds[1].precision.rotation_bits = 12; }));
  EXPECT_TRUE(differs([](RoomPolicy& p) { p.vocabulary.kinds[0].profile = InterpProfile::hug_newest; }));
  EXPECT_TRUE(differs([](RoomPolicy& p) { p.vocabulary.entity_flags[0].claimable = false; }));
  EXPECT_TRUE(differs([](RoomPolicy& p) { p.vocabulary.button(1, "crouch"); }));
  EXPECT_TRUE(differs([](RoomPolicy& p) { p.vocabulary.pawn_values[0].name = "stance"; }));
  EXPECT_TRUE(differs([](RoomPolicy& p) { p.prediction.pawn_body = PawnBody::kinematic_controller; }));
  EXPECT_TRUE(differs([](RoomPolicy& p) { p.prediction.movement = MovementAuthority::server_authoritative; }));
  EXPECT_TRUE(differs([](RoomPolicy& p) { p.load.room.rungs[1].enter_percent = 70; }));
  EXPECT_TRUE(differs([](RoomPolicy& p) { p.load.shard.kill_lag_ticks = 48; }));
}

// The policy holds nothing volatile (player counts and lease progress are not policy), so the
// revision key covers it whole: every part of its table is in the key, under the domain tag.
TEST(NetcodeContract, RevisionKeyCoversEveryPartOfThePolicy) {
  const std::string json = contract_revision_key_json(test::fixed_room_policy());
  for (const char* part :
       {"identity", "cadence", "interpolation", "input", "budgets", "limits", "interest", "prediction", "vocabulary",
        "load"}) {
    std::string key = "\"";  // appended: "\"" + std::string trips GCC 12's -Wrestrict at -O3 (GCC bug 105651)
    key += part;
    key += "\":{";
    EXPECT_NE(json.find(key), std::string::npos) << part;
  }
  EXPECT_EQ(json.find("\"version\""), std::string::npos) << "the key is the policy's, not the resolved contract's";
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

void expect_refused(const Nonsense& c) {
  RoomPolicy policy = test::fixed_room_policy();
  c.edit(policy);
  const ContractResolution resolution = resolve_netcode_contract(policy);
  EXPECT_FALSE(resolution.ok()) << c.what;
  EXPECT_EQ(resolution.issue.error, c.error) << c.what << ": got " << reason_name(resolution.issue.error);
  EXPECT_EQ(resolution.issue.field, c.field) << c.what;
  EXPECT_NE(reason_name(resolution.issue.error), "unknown") << c.what;
}

// Each field against its own table entry, named by the dotted path of its wire names.
TEST(NetcodeContract, NonsenseIsRefusedWithNamedErrorsAtItsPath) {
  const Nonsense cases[] = {
      {"tick rate 0", [](RoomPolicy& p) { p.cadence.tick_rate_hz = 0; }, ContractError::out_of_range,
       "cadence.tickRateHz"},
      {"tick rate 1000", [](RoomPolicy& p) { p.cadence.tick_rate_hz = 1000; }, ContractError::out_of_range,
       "cadence.tickRateHz"},
      {"snapshot 0", [](RoomPolicy& p) { p.cadence.snapshot_rate_hz = 0; }, ContractError::out_of_range,
       "cadence.snapshotRateHz"},
      {"catch-up 0", [](RoomPolicy& p) { p.cadence.max_catch_up_ticks = 0; }, ContractError::out_of_range,
       "cadence.maxCatchUpTicks"},
      {"queue 0", [](RoomPolicy& p) { p.input.queue_ticks = 0; }, ContractError::out_of_range, "input.queueTicks"},
      {"queue 200", [](RoomPolicy& p) { p.input.queue_ticks = 200; }, ContractError::out_of_range,
       "input.queueTicks"},
      {"forgiveness 1.5", [](RoomPolicy& p) { p.input.forgiveness = 1.5; }, ContractError::out_of_range,
       "input.forgiveness"},
      {"forgiveness NaN", [](RoomPolicy& p) { p.input.forgiveness = std::nan(""); }, ContractError::not_finite,
       "input.forgiveness"},
      {"decay infinite", [](RoomPolicy& p) { p.interpolation.margin_decay_seconds = INFINITY; },
       ContractError::not_finite, "interpolation.marginDecaySeconds"},
      {"empty room", [](RoomPolicy& p) { p.identity.room_id.clear(); }, ContractError::field_empty,
       "identity.roomId"},
      {"long game", [](RoomPolicy& p) { p.identity.game.assign(200, 'g'); }, ContractError::field_too_long,
       "identity.game"},
      {"control byte", [](RoomPolicy& p) { p.identity.environment = "prod\n"; }, ContractError::field_not_printable,
       "identity.environment"},
      {"high byte", [](RoomPolicy& p) { p.identity.blueprint = "caf\xc3\xa9"; }, ContractError::field_not_printable,
       "identity.blueprint"},
      {"fragments 0", [](RoomPolicy& p) { p.budgets.max_snapshot_fragments = 0; }, ContractError::out_of_range,
       "budgets.maxSnapshotFragments"},
      {"fragments 17", [](RoomPolicy& p) { p.budgets.max_snapshot_fragments = 17; }, ContractError::out_of_range,
       "budgets.maxSnapshotFragments"},
      {"budget 63", [](RoomPolicy& p) { p.budgets.snapshot_budget_bytes = 63; }, ContractError::out_of_range,
       "budgets.snapshotBudgetBytes"},
      {"client rate below a packet", [](RoomPolicy& p) { p.budgets.client_bytes_per_second = 1199; },
       ContractError::out_of_range, "budgets.clientBytesPerSecond"},
      {"interactions 0", [](RoomPolicy& p) { p.limits.interactions_per_second = 0; }, ContractError::out_of_range,
       "limits.interactionsPerSecond"},
      {"radius 0.5", [](RoomPolicy& p) { p.interest.radius_m = 0.5; }, ContractError::out_of_range,
       "interest.radiusM"},
      {"pose radius negative", [](RoomPolicy& p) { p.interest.pose_radius_m = -1.0; }, ContractError::out_of_range,
       "interest.poseRadiusM"},
  };
  for (const Nonsense& c : cases) expect_refused(c);
}

// The rules between fields, each by name.
TEST(NetcodeContract, CrossFieldRulesAreRefusedByName) {
  const Nonsense cases[] = {
      {"snapshot above tick", [](RoomPolicy& p) { p.cadence.snapshot_rate_hz = 120; },
       ContractError::snapshot_rate_above_tick_rate, "cadence.snapshotRateHz"},
      {"snapshot not a divisor", [](RoomPolicy& p) { p.cadence.snapshot_rate_hz = 25; },
       ContractError::snapshot_rate_not_tick_divisor, "cadence.snapshotRateHz"},
      {"margin past the buffer", [](RoomPolicy& p) { p.interpolation.max_margin_ticks = 33; },
       ContractError::margin_exceeds_buffer, "interpolation.maxMarginTicks"},
      {"delay beyond ring", [](RoomPolicy& p) { p.interpolation.buffer_ticks = 8; },
       ContractError::interpolation_delay_exceeds_buffer, "interpolation.bufferTicks"},
      {"budget past its fragments", [](RoomPolicy& p) {
         p.budgets.max_snapshot_fragments = 2;
         p.budgets.snapshot_budget_bytes = 2 * 1200 + 1;
       },
       ContractError::snapshot_budget_exceeds_fragments, "budgets.snapshotBudgetBytes"},
      {"pose lane wider than interest", [](RoomPolicy& p) { p.interest.pose_radius_m = 150.0; },
       ContractError::pose_radius_exceeds_radius, "interest.poseRadiusM"},
  };
  for (const Nonsense& c : cases) expect_refused(c);
}

// The vocabulary's rules, each refused by name at the element it was found in. Registration
// asserts most of these; a vocabulary built by hand or received on the wire is checked here.
TEST(NetcodeContract, VocabularyRulesAreRefusedByName) {
  const Nonsense cases[] = {
      {"kind id 0", [](RoomPolicy& p) { p.vocabulary.kinds[0].id = 0; }, ContractError::out_of_range,
       "vocabulary.kinds[0].id"},
      {"duplicate kind id", [](RoomPolicy& p) { p.vocabulary.kinds[1].id = 1; }, ContractError::vocabulary_duplicate,
       "vocabulary.kinds[1].id"},
      {"kinds out of order", [](RoomPolicy& p) { std::swap(p.vocabulary.kinds[0], p.vocabulary.kinds[1]); },
       ContractError::vocabulary_unordered, "vocabulary.kinds[1].id"},
      {"duplicate kind name", [](RoomPolicy& p) { p.vocabulary.kinds[1].name = "pawn"; },
       ContractError::vocabulary_duplicate, "vocabulary.kinds[1].name"},
      {"empty name", [](RoomPolicy& p) { p.vocabulary.kinds[0].name.clear(); }, ContractError::field_empty,
       "vocabulary.kinds[0].name"},
      {"name of 33 bytes", [](RoomPolicy& p) { p.vocabulary.components[0].name.assign(33, 'c'); },
       ContractError::field_too_long, "vocabulary.components[0].name"},
      {"unprintable name", [](RoomPolicy& p) { p.vocabulary.buttons[0].name = "ju\tmp"; },
       ContractError::field_not_printable, "vocabulary.buttons[0].name"},
      {"quantum 0", [](RoomPolicy& p) { p.vocabulary.kinds[1].precision.position_quantum_m = 0.0f; },
       ContractError::out_of_range, "vocabulary.kinds[1].precision.positionQuantumM"},
      {"quantum NaN", [](RoomPolicy& p) { p.vocabulary.objects.position_quantum_m = std::nanf(""); },
       ContractError::not_finite, "vocabulary.objects.positionQuantumM"},
      {"rotation bits 8", [](RoomPolicy& p) { p.vocabulary.kinds[0].precision.rotation_bits = 8; },
       ContractError::out_of_range, "vocabulary.kinds[0].precision.rotationBits"},
      {"rotation bits 16", [](RoomPolicy& p) { p.vocabulary.objects.rotation_bits = 16; },
       ContractError::out_of_range, "vocabulary.objects.rotationBits"},
      {"rotation steps 100", [](RoomPolicy& p) { p.vocabulary.kinds[1].precision.rotation_steps = 100; },
       ContractError::out_of_range, "vocabulary.kinds[1].precision.rotationSteps"},
      {"rotation steps 16384", [](RoomPolicy& p) { p.vocabulary.objects.rotation_steps = 16384; },
       ContractError::out_of_range, "vocabulary.objects.rotationSteps"},
      {"unknown profile", [](RoomPolicy& p) { p.vocabulary.kinds[0].profile = InterpProfile::count_; },
       ContractError::out_of_range, "vocabulary.kinds[0].profile"},
      {"flag bit 8", [](RoomPolicy& p) { p.vocabulary.entity_flags[1].bit = 8; }, ContractError::out_of_range,
       "vocabulary.entityFlags[1].bit"},
      {"duplicate flag bit", [](RoomPolicy& p) { p.vocabulary.entity_flags[1].bit = 0; },
       ContractError::vocabulary_duplicate, "vocabulary.entityFlags[1].bit"},
      {"duplicate flag name", [](RoomPolicy& p) { p.vocabulary.entity_flags[1].name = "grounded"; },
       ContractError::vocabulary_duplicate, "vocabulary.entityFlags[1].name"},
      {"duplicate object flag bit", [](RoomPolicy& p) { p.vocabulary.object_flags.push_back(FlagDef{0, "hidden"}); },
       ContractError::vocabulary_duplicate, "vocabulary.objectFlags[1].bit"},
      {"component wire id 0", [](RoomPolicy& p) { p.vocabulary.components[0].wire_id = 0; },
       ContractError::out_of_range, "vocabulary.components[0].wireId"},
      {"components out of order", [](RoomPolicy& p) { p.vocabulary.components.push_back(ComponentDef{1, "light", 1}); },
       ContractError::vocabulary_unordered, "vocabulary.components[1].wireId"},
      {"five channels", [](RoomPolicy& p) { p.vocabulary.components[0].channels = 5; }, ContractError::out_of_range,
       "vocabulary.components[0].channels"},
      {"five pawn values", [](RoomPolicy& p) { p.vocabulary.pawn_values.resize(5, PawnValueDef{"v"}); },
       ContractError::list_too_long, "vocabulary.pawnValues"},
      {"duplicate pawn value", [](RoomPolicy& p) { p.vocabulary.pawn_values.push_back(PawnValueDef{"eyeHeight"}); },
       ContractError::vocabulary_duplicate, "vocabulary.pawnValues[1].name"},
      {"nine buttons", [](RoomPolicy& p) { p.vocabulary.buttons.resize(9, ButtonDef{0, "b"}); },
       ContractError::list_too_long, "vocabulary.buttons"},
      {"button bit 9", [](RoomPolicy& p) { p.vocabulary.buttons[0].bit = 9; }, ContractError::out_of_range,
       "vocabulary.buttons[0].bit"},
  };
  for (const Nonsense& c : cases) expect_refused(c);
}

TEST(NetcodeContract, AReceivedContractWithInconsistentDerivedFieldsIsRefused) {
  NetcodeContract contract = resolve(test::fixed_room_policy());
  EXPECT_TRUE(validate_netcode_contract(contract).ok());
  NetcodeContract wrong_delay = contract;
  wrong_delay.interp_delay_ticks = 1;
  EXPECT_EQ(validate_netcode_contract(wrong_delay).error, ContractError::derived_value_mismatch);
  EXPECT_EQ(validate_netcode_contract(wrong_delay).field, "interpDelayTicks");
  NetcodeContract wrong_ratio = contract;
  wrong_ratio.ticks_per_snapshot = 2;
  EXPECT_EQ(validate_netcode_contract(wrong_ratio).error, ContractError::derived_value_mismatch);
  EXPECT_EQ(validate_netcode_contract(wrong_ratio).field, "ticksPerSnapshot");
  NetcodeContract future = contract;
  future.version = kNetcodeContractVersion + 1;
  EXPECT_EQ(validate_netcode_contract(future).error, ContractError::unsupported_version);
  EXPECT_EQ(validate_netcode_contract(future).field, "version");
  NetcodeContract bad_vocabulary = contract;
  bad_vocabulary.vocabulary.kinds[1].id = 1;
  EXPECT_EQ(validate_netcode_contract(bad_vocabulary).error, ContractError::vocabulary_duplicate);
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

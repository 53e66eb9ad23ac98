// The ladders in the netcode contract: both ladders' rungs are in it by name, in order, with their
// thresholds, so a client or operator reading the contract sees them; they cross the wire with it
// and move its hash; a ladder out of order, without hysteresis, incomplete, or with a shard rung at
// or past the kill threshold is refused by name at the field it was found at.
#include <gtest/gtest.h>

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tickwire/protocol/netcode_contract.h"
#include "tickwire/wire/codec.h"

namespace tickwire {
namespace {

RoomPolicy named_policy() {
  RoomPolicy policy;
  policy.identity = {"room-1", "tickwire", "local", "1", "dev", "", ""};
  return policy;
}

NetcodeContract resolve(const RoomPolicy& policy) {
  const ContractResolution resolution = resolve_netcode_contract(policy);
  EXPECT_TRUE(resolution.ok()) << reason_name(resolution.issue.error) << " at " << resolution.issue.field;
  return resolution.contract.value_or(NetcodeContract{});
}

// Where each of `names` first appears in `text` after `from`, in order; npos for one that does not.
std::vector<std::size_t> positions(const std::string& text, std::size_t from,
                                   const std::vector<std::string_view>& names) {
  std::vector<std::size_t> found;
  for (const std::string_view name : names) {
    std::string quoted = "\"rung\":\"";  // built in place: a literal + std::string trips GCC 12 at -O3
    quoted += name;
    quoted += '"';
    found.push_back(text.find(quoted, from));
  }
  return found;
}

bool ascending_and_found(const std::vector<std::size_t>& found) {
  for (std::size_t i = 0; i < found.size(); ++i) {
    if (found[i] == std::string::npos || (i > 0 && found[i] <= found[i - 1])) return false;
  }
  return true;
}

TEST(LadderContract, TheContractNamesEveryRungInOrderWithItsThresholds) {
  const NetcodeContract contract = resolve(named_policy());
  EXPECT_EQ(contract.load, LoadPolicy{});
  const std::string json = contract_canonical_json(contract);
  const std::size_t load = json.find("\"load\":{\"room\":{");
  ASSERT_NE(load, std::string::npos) << json;
  const std::size_t shard = json.find("\"shard\":{", load);
  ASSERT_NE(shard, std::string::npos) << json;
  const auto room_names =
      positions(json, load, {"worldLaneSlowed", "interestNarrowed", "snapshotBudgetCut", "admissionsClosed"});
  EXPECT_TRUE(ascending_and_found(room_names)) << json;
  EXPECT_LT(room_names.back(), shard) << "the room's rungs are in the room's ladder";
  EXPECT_TRUE(ascending_and_found(
      positions(json, shard, {"placementClosed", "roomsShed", "admissionsClosed", "roomsMigrated"})))
      << json;
  EXPECT_NE(json.find(R"({"enterCostPercent":50,"enterLagTicks":2,"releaseCostPercent":35,"releaseLagTicks":0,)"
                      R"("rung":"worldLaneSlowed"})"),
            std::string::npos)
      << json;
  EXPECT_NE(json.find(R"("killLagTicks":32,"releaseDwellMs":5000,"rungs":[)"), std::string::npos) << json;
}

// Ladders off their defaults go out in a RoomWelcome's contract and come back the same, hash too.
TEST(LadderContract, TheLaddersCrossTheWireWithTheContract) {
  RoomPolicy policy = named_policy();
  policy.load.room.rungs[2].enter_percent = 85;
  policy.load.room.release_dwell_ms = 750;
  policy.load.room.snapshot_budget_percent = 40;
  policy.load.shard.kill_lag_ticks = 60;
  policy.load.shard.rungs[3].enter_lag_ticks = 30;
  const NetcodeContract sent = resolve(policy);
  NetcodeContract received;
  received.load.room.rungs.clear();
  ASSERT_TRUE(wire::decode(wire::encode_bytes(sent), received).ok());
  EXPECT_EQ(received.load, policy.load);
  EXPECT_TRUE(validate_netcode_contract(received).ok());
  EXPECT_EQ(contract_hash(received), contract_hash(sent));
}

TEST(LadderContract, EveryLadderFieldChangesTheHashAndTheRevisionKey) {
  const RoomPolicy base = named_policy();
  const ContractHash base_hash = contract_hash(resolve(base));
  const auto differs = [&](auto&& edit) {
    RoomPolicy changed = base;
    edit(changed.load);
    return contract_hash(resolve(changed)) != base_hash &&
           contract_revision_key(changed) != contract_revision_key(base);
  };
  EXPECT_TRUE(differs([](LoadPolicy& l) { l.room.rungs[0].enter_percent = 45; }));
  EXPECT_TRUE(differs([](LoadPolicy& l) { l.room.rungs[3].release_lag_ticks = 4; }));
  EXPECT_TRUE(differs([](LoadPolicy& l) { l.room.release_dwell_ms = 1'000; }));
  EXPECT_TRUE(differs([](LoadPolicy& l) { l.room.world_lane_divisor = 4; }));
  EXPECT_TRUE(differs([](LoadPolicy& l) { l.room.interest_radius_percent = 50; }));
  EXPECT_TRUE(differs([](LoadPolicy& l) { l.room.snapshot_budget_percent = 50; }));
  EXPECT_TRUE(differs([](LoadPolicy& l) { l.shard.rungs[1].release_percent = 50; }));
  EXPECT_TRUE(differs([](LoadPolicy& l) { l.shard.release_dwell_ms = 10'000; }));
  EXPECT_TRUE(differs([](LoadPolicy& l) { l.shard.kill_lag_ticks = 40; }));
}

struct BadLadder {
  const char* what;
  void (*edit)(LoadPolicy&);
  ContractError error;
  std::string_view field;
};

// The named policy with the case's edit is refused, by the case's error at its field.
void expect_refused(const BadLadder& c) {
  RoomPolicy policy = named_policy();
  c.edit(policy.load);
  const ContractResolution resolution = resolve_netcode_contract(policy);
  EXPECT_FALSE(resolution.ok()) << c.what;
  EXPECT_EQ(resolution.issue.error, c.error) << c.what << ": got " << reason_name(resolution.issue.error);
  EXPECT_EQ(resolution.issue.field, c.field) << c.what;
}

TEST(LadderContract, InvalidLaddersAreRefusedByNameAtTheirField) {
  const BadLadder cases[] = {
      {"room release at its enter", [](LoadPolicy& l) { l.room.rungs[1].release_percent = 65; },
       ContractError::ladder_release_not_below_enter, "load.room.rungs[1].releaseCostPercent"},
      {"room release lag above its enter", [](LoadPolicy& l) { l.room.rungs[0].release_lag_ticks = 3; },
       ContractError::ladder_release_not_below_enter, "load.room.rungs[0].releaseLagTicks"},
      {"shard release above its enter", [](LoadPolicy& l) { l.shard.rungs[2].release_percent = 90; },
       ContractError::ladder_release_not_below_enter, "load.shard.rungs[2].releaseBusyPercent"},
      {"room cost below the rung beneath",
       [](LoadPolicy& l) {
         l.room.rungs[2] = {RoomLoadRung::snapshot_budget_cut, 64, 40, 4, 2};
       },
       ContractError::ladder_enter_unordered, "load.room.rungs[2].enterCostPercent"},
      {"room lag equal to the rung beneath", [](LoadPolicy& l) { l.room.rungs[3].enter_lag_ticks = 4; },
       ContractError::ladder_enter_unordered, "load.room.rungs[3].enterLagTicks"},
      {"shard busy equal to the rung beneath",
       [](LoadPolicy& l) {
         l.shard.rungs[1] = {ShardLoadRung::rooms_shed, 60, 45, 4, 1};
       },
       ContractError::ladder_enter_unordered, "load.shard.rungs[1].enterBusyPercent"},
      {"two rungs swapped", [](LoadPolicy& l) { std::swap(l.room.rungs[1], l.room.rungs[2]); },
       ContractError::ladder_rung_misplaced, "load.room.rungs[1].rung"},
      {"calm listed", [](LoadPolicy& l) { l.shard.rungs[0].rung = ShardLoadRung::calm; },
       ContractError::ladder_rung_misplaced, "load.shard.rungs[0].rung"},
      {"a rung missing", [](LoadPolicy& l) { l.room.rungs.pop_back(); }, ContractError::ladder_incomplete,
       "load.room.rungs"},
      {"no rungs", [](LoadPolicy& l) { l.shard.rungs.clear(); }, ContractError::ladder_incomplete, "load.shard.rungs"},
      {"a fifth rung", [](LoadPolicy& l) { l.room.rungs.push_back(l.room.rungs.back()); },
       ContractError::ladder_rung_misplaced, "load.room.rungs[4].rung"},
      {"a list past the cap", [](LoadPolicy& l) { l.room.rungs.resize(kLoadMaxListedRungs + 1); },
       ContractError::list_too_long, "load.room.rungs"},
      {"an unknown rung", [](LoadPolicy& l) { l.room.rungs[0].rung = RoomLoadRung::count_; },
       ContractError::out_of_range, "load.room.rungs[0].rung"},
      {"busy past 100", [](LoadPolicy& l) { l.shard.rungs[3].enter_percent = 101; }, ContractError::out_of_range,
       "load.shard.rungs[3].enterBusyPercent"},
      {"an enter lag of 0", [](LoadPolicy& l) { l.room.rungs[0].enter_lag_ticks = 0; }, ContractError::out_of_range,
       "load.room.rungs[0].enterLagTicks"},
      {"a dwell past ten minutes", [](LoadPolicy& l) { l.room.release_dwell_ms = 600'001; },
       ContractError::out_of_range, "load.room.releaseDwellMs"},
      {"a world lane divisor of 0", [](LoadPolicy& l) { l.room.world_lane_divisor = 0; }, ContractError::out_of_range,
       "load.room.worldLaneDivisor"},
      {"a radius cut to 5 %", [](LoadPolicy& l) { l.room.interest_radius_percent = 5; }, ContractError::out_of_range,
       "load.room.interestRadiusPercent"},
      {"a budget kept at 101 %", [](LoadPolicy& l) { l.room.snapshot_budget_percent = 101; },
       ContractError::out_of_range, "load.room.snapshotBudgetPercent"},
  };
  for (const BadLadder& c : cases) expect_refused(c);
}

// The kill threshold is never relaxed to make room for a rung: every shard rung must engage strictly
// below it, in a policy and in a contract received on the wire alike.
TEST(LadderContract, AShardLadderReachingTheKillThresholdIsRefused) {
  const BadLadder cases[] = {
      {"the top rung at the kill threshold", [](LoadPolicy& l) { l.shard.rungs[3].enter_lag_ticks = 32; },
       ContractError::ladder_reaches_kill_threshold, "load.shard.rungs[3].enterLagTicks"},
      {"the top rung past it", [](LoadPolicy& l) { l.shard.rungs[3].enter_lag_ticks = 200; },
       ContractError::ladder_reaches_kill_threshold, "load.shard.rungs[3].enterLagTicks"},
      {"the kill threshold lowered onto the top rung", [](LoadPolicy& l) { l.shard.kill_lag_ticks = 16; },
       ContractError::ladder_reaches_kill_threshold, "load.shard.rungs[3].enterLagTicks"},
      {"the kill threshold lowered under two rungs", [](LoadPolicy& l) { l.shard.kill_lag_ticks = 8; },
       ContractError::ladder_reaches_kill_threshold, "load.shard.rungs[2].enterLagTicks"},
      {"a kill threshold below any ladder's room",
       [](LoadPolicy& l) { l.shard.kill_lag_ticks = static_cast<uint16_t>(kLoadMinKillLagTicks - 1); },
       ContractError::out_of_range, "load.shard.killLagTicks"},
  };
  for (const BadLadder& c : cases) expect_refused(c);
  NetcodeContract received = resolve(named_policy());
  ASSERT_TRUE(validate_netcode_contract(received).ok());
  received.load.shard.rungs[3].enter_lag_ticks = received.load.shard.kill_lag_ticks;
  EXPECT_EQ(validate_netcode_contract(received).error, ContractError::ladder_reaches_kill_threshold);
  // One tick under the threshold is a ladder that sheds everything before it: valid.
  received.load.shard.rungs[3].enter_lag_ticks = static_cast<uint16_t>(received.load.shard.kill_lag_ticks - 1);
  EXPECT_TRUE(validate_netcode_contract(received).ok());
}

}  // namespace
}  // namespace tickwire

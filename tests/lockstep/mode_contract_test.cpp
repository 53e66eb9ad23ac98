// The runtime mode as a contract axis: a deterministic policy resolves into a contract that carries
// its numbers (hashed: a different window is a different contract), lockstep reads its settings
// from that contract alone, and the snapshot-mode Server refuses a room whose mode it does not run.
#include <gtest/gtest.h>

#include "../sim/test_simulation.h"
#include "tickwire/lockstep/lockstep_settings.h"
#include "tickwire/protocol/netcode_contract.h"
#include "tickwire/server.h"

namespace tickwire::lockstep {
namespace {

RoomPolicy deterministic_policy(uint32_t window) {
  RoomPolicy policy;
  policy.identity = {"arena-1", "arena", "sim", "content-1", "test", "", ""};
  policy.vocabulary = test::test_vocabulary();
  policy.mode.mode = RuntimeMode::deterministic;
  policy.mode.deterministic.seats = 6;
  policy.mode.deterministic.rollback_window_frames = window;
  policy.mode.deterministic.lag_policy = LagPolicy::disconnect;
  return policy;
}

TEST(ModeContract, ADeterministicPolicyResolvesIntoTheSettingsLockstepRunsBy) {
  const ContractResolution resolved = resolve_netcode_contract(deterministic_policy(12));
  ASSERT_TRUE(resolved.ok()) << resolved.issue.field;
  const LockstepSettings settings = lockstep_settings(*resolved.contract);
  EXPECT_EQ(settings.logic_hz, resolved.contract->cadence.tick_rate_hz);
  EXPECT_EQ(settings.policy.seats, 6u);
  EXPECT_EQ(settings.policy.rollback_window_frames, 12u);
  EXPECT_EQ(settings.policy.lag_policy, LagPolicy::disconnect);
  EXPECT_TRUE(settings_valid(settings));
  const std::string json = contract_canonical_json(*resolved.contract);
  EXPECT_NE(json.find("\"mode\":\"deterministic\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"rollbackWindowFrames\":12"), std::string::npos);
  const ContractResolution other = resolve_netcode_contract(deterministic_policy(8));
  EXPECT_NE(contract_hash(*resolved.contract), contract_hash(*other.contract)) << "the window is part of the hash";
}

TEST(ModeContract, NumbersOutsideTheirRangesAreRefusedByField) {
  RoomPolicy policy = deterministic_policy(kContractMaxRollbackWindowFrames + 1);
  const ContractResolution resolved = resolve_netcode_contract(policy);
  ASSERT_FALSE(resolved.ok());
  EXPECT_EQ(resolved.issue.error, ContractError::out_of_range);
  EXPECT_EQ(resolved.issue.field, "mode.deterministic.rollbackWindowFrames");
}

TEST(ModeContract, AServerRefusesADeterministicRoom) {
  ServerConfig config;
  config.policy = deterministic_policy(8);
  test::TestSimulation game;
  const ServerOpen opened = Server::open(config, game);
  EXPECT_FALSE(opened.server);
  EXPECT_NE(opened.error.find("mode.mode"), std::string::npos) << opened.error;
}

}  // namespace
}  // namespace tickwire::lockstep

// The contract across processes: `tickwire contract`, a separate process, resolves the same policy
// to the same canonical JSON and hash as this one; a changed tick rate changes the hash in both.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "child_process.h"
#include "tickwire/protocol/netcode_contract.h"

namespace tickwire {
namespace {

std::string hash_line_of(const std::vector<std::string>& args) {
  test::ChildProcess child;
  EXPECT_TRUE(child.spawn(TICKWIRE_CLI_PATH, args));
  EXPECT_TRUE(child.wait_for_output("revision ", 10000)) << child.output();
  child.stop();
  const std::string& out = child.output();
  const auto at = out.find("hash ");
  return at == std::string::npos ? std::string() : out.substr(at + 5, 32);
}

std::string in_process_hash(uint32_t tick_rate_hz) {
  RoomPolicy policy;
  policy.identity = {"room-9", "arena", "local", "2.0", "dev", "", ""};
  policy.cadence.tick_rate_hz = tick_rate_hz;
  policy.cadence.snapshot_rate_hz = tick_rate_hz;
  const ContractResolution resolved = resolve_netcode_contract(policy);
  EXPECT_TRUE(resolved.ok());
  return contract_hash(*resolved.contract).hex();
}

std::vector<std::string> args(uint32_t tick_rate_hz) {
  return {"contract", "--room", "room-9", "--game", "arena", "--content", "2.0", "--tick-rate",
          std::to_string(tick_rate_hz), "--snapshot-rate", std::to_string(tick_rate_hz)};
}

TEST(ContractAcrossProcesses, IdenticalContentGivesTheIdenticalHashInAnotherProcess) {
  const std::string here = in_process_hash(60);
  EXPECT_EQ(hash_line_of(args(60)), here);
  const std::string at_30 = hash_line_of(args(30));
  EXPECT_NE(at_30, here) << "a changed tick rate is a changed contract";
  EXPECT_EQ(at_30, in_process_hash(30));
}

// The world time scale the room starts at is part of the contract, from the CLI as in process.
TEST(ContractAcrossProcesses, TheTimeScaleIsPartOfTheHash) {
  RoomPolicy policy;
  policy.identity = {"room-9", "arena", "local", "2.0", "dev", "", ""};
  policy.cadence.time_scale = 0.5;
  const ContractResolution resolved = resolve_netcode_contract(policy);
  ASSERT_TRUE(resolved.ok());
  std::vector<std::string> half = args(60);
  half.insert(half.end(), {"--time-scale", "0.5"});
  EXPECT_EQ(hash_line_of(half), contract_hash(*resolved.contract).hex());
  EXPECT_NE(hash_line_of(half), in_process_hash(60));
}

}  // namespace
}  // namespace tickwire

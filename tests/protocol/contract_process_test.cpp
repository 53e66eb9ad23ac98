// The contract across processes: `tickwire contract`, a separate process, resolves the same policy
// to the same canonical JSON and hash as this one; a changed tick rate changes the hash in both; the
// pawn's body (--pawn-body) changes the prediction admission it prints and the hash.
#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

#include "child_process.h"
#include "tickwire/protocol/netcode_contract.h"

namespace tickwire {
namespace {

// Everything `tickwire contract` printed (it exits after its last line, the admission).
std::string output_of(const std::vector<std::string>& args) {
  test::ChildProcess child;
  EXPECT_TRUE(child.spawn(TICKWIRE_CLI_PATH, args));
  EXPECT_TRUE(child.wait_for_line("prediction ", 10000)) << child.output();
  child.stop();
  return child.output();
}

std::string hash_line_of(const std::vector<std::string>& args) {
  const std::string out = output_of(args);
  const auto at = out.find("hash ");
  return at == std::string::npos ? std::string() : out.substr(at + 5, 32);
}

// The CLI's policy: a room whose client predicts a kinematic pawn, unless --pawn-body says otherwise.
RoomPolicy cli_policy() {
  RoomPolicy policy;
  policy.identity = {"room-9", "arena", "local", "2.0", "dev", "", ""};
  policy.prediction = {PawnBody::kinematic_controller, MovementAuthority::client_predicted};
  return policy;
}

std::string in_process_hash(uint32_t tick_rate_hz) {
  RoomPolicy policy = cli_policy();
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
  RoomPolicy policy = cli_policy();
  policy.cadence.time_scale = 0.5;
  const ContractResolution resolved = resolve_netcode_contract(policy);
  ASSERT_TRUE(resolved.ok());
  std::vector<std::string> half = args(60);
  half.insert(half.end(), {"--time-scale", "0.5"});
  EXPECT_EQ(hash_line_of(half), contract_hash(*resolved.contract).hex());
  EXPECT_NE(hash_line_of(half), in_process_hash(60));
}

// `--pawn-body` states the pawn's movement body: the CLI prints the admission the contract
// resolves (a dynamic rigidbody demoted with its diagnostic, a missing controller failed closed) and
// hashes it as this process does.
TEST(ContractAcrossProcesses, ThePawnBodyDecidesThePrintedAdmissionAndTheHash) {
  const std::string dynamic(prediction_demotion_diagnostic(PredictionDemotion::dynamic_rigidbody));
  const std::string none(prediction_demotion_diagnostic(PredictionDemotion::no_controllable_character));
  const std::string predicted = "prediction pawn body kinematicController, movement clientPredicted: transform owner "
                                "transform, own pawn predicted\n";
  const std::string demoted = "prediction pawn body dynamicRigidbody, movement clientPredicted: transform owner "
                              "physics, own pawn not predicted (demoted: " + dynamic + ")\n";
  const std::string closed = "prediction pawn body none, movement clientPredicted: transform owner physics, own pawn "
                             "not predicted (demoted: " + none + ")\n";
  for (const auto& [option, body, line] :
       {std::tuple{"kinematic", PawnBody::kinematic_controller, &predicted},
        std::tuple{"dynamic", PawnBody::dynamic_rigidbody, &demoted}, std::tuple{"none", PawnBody::none, &closed}}) {
    SCOPED_TRACE(option);
    std::vector<std::string> with_body = args(60);
    with_body.insert(with_body.end(), {"--pawn-body", option});
    const std::string out = output_of(with_body);
    EXPECT_NE(out.find(*line), std::string::npos) << out;
    RoomPolicy policy = cli_policy();
    policy.prediction.pawn_body = body;
    const ContractResolution resolved = resolve_netcode_contract(policy);
    ASSERT_TRUE(resolved.ok());
    EXPECT_EQ(hash_line_of(with_body), contract_hash(*resolved.contract).hex());
    EXPECT_NE(out.find(contract_canonical_json(*resolved.contract)), std::string::npos) << "the JSON lists the grant";
  }
  EXPECT_EQ(hash_line_of(args(60)), in_process_hash(60)) << "kinematic is the CLI's default";
}

}  // namespace
}  // namespace tickwire

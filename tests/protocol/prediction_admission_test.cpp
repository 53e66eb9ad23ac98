// The prediction admission resolver over every combination of body and requested authority: only a
// kinematic controller whose movement asks for it is predicted; a dynamic rigidbody resolves to
// physics and a client-predicted one is demoted with its diagnostic; no controllable character
// fails closed. The contract carries the grant, hashes the request, and a received contract whose
// grant does not follow from its request is refused at the field that lies.
#include "tickwire/protocol/prediction_admission.h"

#include <gtest/gtest.h>

#include <optional>
#include <set>
#include <string>

#include "contract_test_policy.h"
#include "tickwire/protocol/netcode_contract.h"

namespace tickwire {
namespace {

struct AdmissionCase {
  PawnBody body;
  MovementAuthority movement;
  TransformOwner owner;
  bool predicted;
  std::optional<PredictionDemotion> demotion;
};

constexpr MovementAuthority kServer = MovementAuthority::server_authoritative;
constexpr MovementAuthority kClient = MovementAuthority::client_predicted;

// Seed 003's rules, one row per combination.
const AdmissionCase kTable[] = {
    {PawnBody::none, kServer, TransformOwner::physics, false, std::nullopt},
    {PawnBody::none, kClient, TransformOwner::physics, false, PredictionDemotion::no_controllable_character},
    {PawnBody::kinematic_controller, kServer, TransformOwner::transform, false, std::nullopt},
    {PawnBody::kinematic_controller, kClient, TransformOwner::transform, true, std::nullopt},
    {PawnBody::dynamic_rigidbody, kServer, TransformOwner::physics, false, std::nullopt},
    {PawnBody::dynamic_rigidbody, kClient, TransformOwner::physics, false, PredictionDemotion::dynamic_rigidbody},
};

std::string name_of(const AdmissionCase& c) {
  return std::string(pawn_body_name(c.body)) + "/" + std::string(movement_authority_name(c.movement));
}

NetcodeContract contract_for(PredictionPolicy requested) {
  RoomPolicy policy = test::fixed_room_policy();
  policy.prediction = requested;
  const ContractResolution resolution = resolve_netcode_contract(policy);
  EXPECT_TRUE(resolution.ok()) << reason_name(resolution.issue.error) << " at " << resolution.issue.field;
  return resolution.contract.value_or(NetcodeContract{});
}

TEST(PredictionAdmission, EveryCombinationResolvesAsTheSeedSays) {
  std::set<std::pair<int, int>> covered;
  for (const AdmissionCase& c : kTable) {
    SCOPED_TRACE(name_of(c));
    covered.insert({static_cast<int>(c.body), static_cast<int>(c.movement)});
    const PredictionPolicy requested{c.body, c.movement};
    const PredictionAdmission admission = admit_prediction(requested);
    EXPECT_EQ(admission.requested, requested);
    EXPECT_EQ(admission.transform_owner, c.owner);
    EXPECT_EQ(admission.own_pawn_predicted, c.predicted);
    EXPECT_EQ(admission.demoted, c.demotion.has_value());
    EXPECT_EQ(prediction_demotion(requested), c.demotion);
  }
  EXPECT_EQ(covered.size(), static_cast<std::size_t>(PawnBody::count_) * static_cast<std::size_t>(MovementAuthority::count_))
      << "the table covers every combination";
}

// The grant is narrow: a physics owner is never predicted, and nothing is predicted unasked.
TEST(PredictionAdmission, OnlyAKinematicControllerThatAsksIsPredicted) {
  for (const AdmissionCase& c : kTable) {
    const PredictionAdmission admission = admit_prediction({c.body, c.movement});
    if (admission.transform_owner == TransformOwner::physics) {
      EXPECT_FALSE(admission.own_pawn_predicted) << name_of(c);
    }
    if (c.movement == kServer) {
      EXPECT_FALSE(admission.own_pawn_predicted || admission.demoted) << name_of(c);
    }
  }
  EXPECT_EQ(PredictionAdmission{}.transform_owner, TransformOwner::physics) << "a zeroed grant fails closed";
  EXPECT_FALSE(PredictionAdmission{}.own_pawn_predicted);
}

TEST(PredictionAdmission, EachDemotionNamesWhyAndTheLineSaysWhatRuns) {
  const std::string dynamic(prediction_demotion_diagnostic(PredictionDemotion::dynamic_rigidbody));
  const std::string none(prediction_demotion_diagnostic(PredictionDemotion::no_controllable_character));
  EXPECT_NE(dynamic.find("rollback physics contract"), std::string::npos) << dynamic;
  EXPECT_NE(dynamic.find("server-authoritative"), std::string::npos) << dynamic;
  EXPECT_NE(none.find("fails closed to physics"), std::string::npos) << none;
  EXPECT_NE(dynamic, none);
  EXPECT_EQ(describe_prediction_admission(admit_prediction({PawnBody::dynamic_rigidbody, kClient})),
            "pawn body dynamicRigidbody, movement clientPredicted: transform owner physics, own pawn not predicted "
            "(demoted: " + dynamic + ")");
  EXPECT_EQ(describe_prediction_admission(admit_prediction({PawnBody::kinematic_controller, kClient})),
            "pawn body kinematicController, movement clientPredicted: transform owner transform, own pawn predicted");
}

// A policy that states nothing predicts nothing: no character, server-authoritative, physics.
TEST(PredictionAdmission, APolicyThatStatesNothingFailsClosed) {
  const NetcodeContract contract = contract_for(PredictionPolicy{});
  EXPECT_EQ(contract.prediction.requested.pawn_body, PawnBody::none);
  EXPECT_EQ(contract.prediction.transform_owner, TransformOwner::physics);
  EXPECT_FALSE(contract.prediction.own_pawn_predicted);
  EXPECT_FALSE(contract.prediction.demoted);
  EXPECT_EQ(RoomPolicy{}.prediction, PredictionPolicy{});
}

TEST(PredictionAdmission, TheContractCarriesTheGrantAndHashesTheRequest) {
  std::set<std::string> hashes;
  for (const AdmissionCase& c : kTable) {
    SCOPED_TRACE(name_of(c));
    const NetcodeContract contract = contract_for({c.body, c.movement});
    EXPECT_EQ(contract.prediction, admit_prediction({c.body, c.movement}));
    EXPECT_TRUE(validate_netcode_contract(contract).ok());
    hashes.insert(contract_hash(contract).hex());
    EXPECT_NE(contract_canonical_json(contract).find(std::string("\"transformOwner\":\"") +
                                                     std::string(transform_owner_name(c.owner)) + "\""),
              std::string::npos);
  }
  EXPECT_EQ(hashes.size(), std::size(kTable)) << "every combination is another contract";
}

struct Lie {
  const char* what;
  PredictionPolicy requested;
  void (*edit)(PredictionAdmission&);
  ContractError error;
  std::string_view field;
};

// A received contract whose grant is not the resolver's for its request is refused, by the field
// that lies; a value no enum names is out of range.
TEST(PredictionAdmission, AReceivedGrantThatDoesNotFollowIsRefusedAtItsField) {
  const PredictionPolicy dynamic{PawnBody::dynamic_rigidbody, kClient};
  const PredictionPolicy kinematic{PawnBody::kinematic_controller, kClient};
  const Lie lies[] = {
      {"a physics owner predicted", dynamic, [](PredictionAdmission& a) { a.own_pawn_predicted = true; },
       ContractError::prediction_admission_mismatch, "prediction.ownPawnPredicted"},
      {"a rigidbody owned by its transform", dynamic,
       [](PredictionAdmission& a) {
         a.transform_owner = TransformOwner::transform;
         a.own_pawn_predicted = true;
       },
       ContractError::prediction_admission_mismatch, "prediction.transformOwner"},
      {"a demotion hidden", dynamic, [](PredictionAdmission& a) { a.demoted = false; },
       ContractError::prediction_admission_mismatch, "prediction.demoted"},
      {"a request rewritten under its grant", dynamic,
       [](PredictionAdmission& a) { a.requested.pawn_body = PawnBody::kinematic_controller; },
       ContractError::prediction_admission_mismatch, "prediction.transformOwner"},
      {"a kinematic pawn refused its grant", kinematic, [](PredictionAdmission& a) { a.own_pawn_predicted = false; },
       ContractError::prediction_admission_mismatch, "prediction.ownPawnPredicted"},
      {"a demotion invented", kinematic, [](PredictionAdmission& a) { a.demoted = true; },
       ContractError::prediction_admission_mismatch, "prediction.demoted"},
      {"an unnamed body", dynamic, [](PredictionAdmission& a) { a.requested.pawn_body = PawnBody::count_; },
       ContractError::out_of_range, "prediction.requested.pawnBody"},
      {"an unnamed authority", dynamic, [](PredictionAdmission& a) { a.requested.movement = MovementAuthority::count_; },
       ContractError::out_of_range, "prediction.requested.movementAuthority"},
      {"an unnamed owner", kinematic, [](PredictionAdmission& a) { a.transform_owner = TransformOwner::count_; },
       ContractError::out_of_range, "prediction.transformOwner"},
  };
  for (const Lie& lie : lies) {
    NetcodeContract contract = contract_for(lie.requested);
    lie.edit(contract.prediction);
    const ContractIssue issue = validate_netcode_contract(contract);
    EXPECT_EQ(issue.error, lie.error) << lie.what << ": got " << reason_name(issue.error);
    EXPECT_EQ(issue.field, lie.field) << lie.what;
  }
}

TEST(PredictionAdmission, APolicyWithAnUnnamedBodyIsRefused) {
  RoomPolicy policy = test::fixed_room_policy();
  policy.prediction.pawn_body = PawnBody::count_;
  const ContractResolution resolution = resolve_netcode_contract(policy);
  EXPECT_FALSE(resolution.ok());
  EXPECT_EQ(resolution.issue.error, ContractError::out_of_range);
  EXPECT_EQ(resolution.issue.field, "prediction.pawnBody");
}

}  // namespace
}  // namespace tickwire

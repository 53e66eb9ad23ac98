// The prediction admission resolver: the body decides the transform owner, the owner decides
// whether the requested authority can be granted. Nothing here reads anything but its argument.
#include "tickwire/protocol/prediction_admission.h"

namespace tickwire {
namespace {

// A kinematic controller's transform is its own; anything else (a physics body, or nothing to
// control at all) fails closed to physics.
TransformOwner owner_of(PawnBody body) {
  return body == PawnBody::kinematic_controller ? TransformOwner::transform : TransformOwner::physics;
}

}  // namespace

std::optional<PredictionDemotion> prediction_demotion(const PredictionPolicy& requested) {
  if (requested.movement != MovementAuthority::client_predicted) return std::nullopt;
  switch (requested.pawn_body) {
    case PawnBody::kinematic_controller: return std::nullopt;
    case PawnBody::dynamic_rigidbody: return PredictionDemotion::dynamic_rigidbody;
    case PawnBody::none:
    case PawnBody::count_: break;
  }
  return PredictionDemotion::no_controllable_character;
}

PredictionAdmission admit_prediction(const PredictionPolicy& requested) {
  PredictionAdmission admission;
  admission.requested = requested;
  admission.transform_owner = owner_of(requested.pawn_body);
  admission.own_pawn_predicted = admission.transform_owner == TransformOwner::transform &&
                                 requested.movement == MovementAuthority::client_predicted;
  admission.demoted = prediction_demotion(requested).has_value();
  return admission;
}

std::string_view prediction_demotion_diagnostic(PredictionDemotion demotion) {
  switch (demotion) {
    case PredictionDemotion::dynamic_rigidbody:
      return "a client-predicted movement on a dynamic-rigidbody pawn is demoted to server-authoritative: "
             "predicting a physics body would need a rollback physics contract the engine does not ship";
    case PredictionDemotion::no_controllable_character:
      return "a client-predicted movement with no controllable character is demoted to server-authoritative: "
             "the transform owner fails closed to physics";
    case PredictionDemotion::count_: break;
  }
  return "unknown demotion";
}

std::string_view pawn_body_name(PawnBody body) { return kPawnBodyDef.name_of(static_cast<uint32_t>(body)); }

std::string_view movement_authority_name(MovementAuthority movement) {
  return kMovementAuthorityDef.name_of(static_cast<uint32_t>(movement));
}

std::string_view transform_owner_name(TransformOwner owner) {
  return kTransformOwnerDef.name_of(static_cast<uint32_t>(owner));
}

std::string describe_prediction_admission(const PredictionAdmission& admission) {
  std::string line = "pawn body ";
  line += pawn_body_name(admission.requested.pawn_body);
  line += ", movement ";
  line += movement_authority_name(admission.requested.movement);
  line += ": transform owner ";
  line += transform_owner_name(admission.transform_owner);
  line += admission.own_pawn_predicted ? ", own pawn predicted" : ", own pawn not predicted";
  if (const auto demotion = prediction_demotion(admission.requested)) {
    line += " (demoted: ";
    line += prediction_demotion_diagnostic(*demotion);
    line += ")";
  }
  return line;
}

}  // namespace tickwire

// Prediction admission (seed 003, "Authority and prediction admission"): client prediction is an
// exception the server grants narrowly, never a default. One pure function resolves what a game
// asked for (its PredictionPolicy) into what the contract grants: who owns the possessed
// character's transform and whether its client predicts it. The grant is part of the netcode
// contract (hashed, validated on both ends), so a client obeys the server's answer, not its own.
// Environment state (the room's world settings) is never predicted: no field here can grant it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "tickwire/core/reasons.h"
#include "tickwire/protocol/room_policy.h"
#include "tickwire/wire/types.h"

namespace tickwire {

// Who writes the possessed character's transform. physics is 0: a zeroed admission fails closed.
enum class TransformOwner : uint8_t {
  physics = 0,    // the simulation's physics: the server's answer is drawn, never predicted
  transform = 1,  // the character's own controller: its client may step it ahead of the server
  count_,
};
inline constexpr wire::NamedValue kTransformOwnerMembers[] = {{"physics", 0}, {"transform", 1}};
inline constexpr wire::EnumDef kTransformOwnerDef{"TransformOwner", kTransformOwnerMembers};

// Why a requested client prediction was refused and the movement demoted to server-authoritative.
TW_REASONS(PredictionDemotion,
  dynamic_rigidbody,         // predicting it would need a rollback physics contract the engine does not ship
  no_controllable_character  // nothing the client controls: the owner fails closed to physics
)

// The contract's `prediction`: the game's request and what the resolver granted for it.
struct PredictionAdmission {
  PredictionPolicy requested;
  TransformOwner transform_owner = TransformOwner::physics;
  bool own_pawn_predicted = false;
  bool demoted = false;  // client prediction was requested and refused (see PredictionDemotion)
  friend bool operator==(const PredictionAdmission&, const PredictionAdmission&) = default;

  static constexpr std::string_view wire_name = "PredictionAdmission";
  template <class W>
  void fields(W& w) {
    w.shape("requested", requested);
    w.enum8("transformOwner", transform_owner, kTransformOwnerDef);
    w.boolean("ownPawnPredicted", own_pawn_predicted);
    w.boolean("demoted", demoted);
  }
};

// The resolver: a dynamic rigidbody resolves to physics and is not predicted, a kinematic
// controller to transform and is predicted when its movement asks for it, no controllable
// character fails closed to physics. A client-predicted movement on a physics owner is demoted.
PredictionAdmission admit_prediction(const PredictionPolicy& requested);

// Why `requested` asks for client prediction the resolver refuses; nullopt when it asks for none
// or is granted it.
std::optional<PredictionDemotion> prediction_demotion(const PredictionPolicy& requested);

// The diagnostic an operator reads for a demotion: what was asked, what runs instead, and why.
std::string_view prediction_demotion_diagnostic(PredictionDemotion demotion);

// One line naming the request and the grant ("pawn body dynamicRigidbody, movement clientPredicted:
// transform owner physics, own pawn not predicted (demoted: ...)"), for the CLI and logs.
std::string describe_prediction_admission(const PredictionAdmission& admission);

// The wire names of the enums, as the contract's JSON spells them.
std::string_view pawn_body_name(PawnBody body);
std::string_view movement_authority_name(MovementAuthority movement);
std::string_view transform_owner_name(TransformOwner owner);

}  // namespace tickwire

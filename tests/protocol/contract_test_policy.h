// The fixed room policy the contract tests pin their canonical JSON and hash against: every part
// set, a few values off their defaults, and a small vocabulary in every list.
#pragma once

#include "tickwire/protocol/room_policy.h"

namespace tickwire::test {

inline RoomPolicy fixed_room_policy() {
  RoomPolicy policy;
  policy.identity.room_id = "room-7";
  policy.identity.game = "tickwire-arena";
  policy.identity.deployment = "eu-west";
  policy.identity.content_version = "1.4.2";
  policy.identity.environment = "staging";
  policy.identity.blueprint = "arena.v3";
  policy.identity.room_template = "duel";
  policy.interpolation.margin_decay_seconds = 2.5;
  policy.input.forgiveness = 0.35;
  policy.interest.pose_radius_m = 24.5;
  policy.prediction = {PawnBody::dynamic_rigidbody, MovementAuthority::client_predicted};  // demoted
  policy.vocabulary.kind(1, "pawn", KindPrecision{}, InterpProfile::standard, true)
      .kind(2, "crate", KindPrecision{1.0f / 256.0f, 11, 0, true}, InterpProfile::doubled)
      .entity_flag(0, "grounded", true)
      .entity_flag(3, "frozen")
      .object_flag(0, "enabled")
      .component(2, "mover", 2)
      .pawn_value("eyeHeight")
      .button(0, "jump");
  return policy;
}

// A policy with its identity set and every other field at its default.
inline RoomPolicy default_room_policy() {
  RoomPolicy policy;
  policy.identity = {"room-1", "tickwire", "local", "1", "dev", "", ""};
  return policy;
}

}  // namespace tickwire::test

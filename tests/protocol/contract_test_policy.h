// The fixed room policy the contract tests pin their canonical JSON and hash against.
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
  policy.bookkeeping.player_count = 4;
  policy.bookkeeping.lease_progress = 0.25;
  return policy;
}

}  // namespace tickwire::test

// The reference game driven tick by tick with one pawn, no network: the contract a room at 60 Hz
// would resolve, a still input (holding Use when asked) or a walking one, and a Rig over any map for
// the world/ tests of its logic and its objects' lifecycle.
#pragma once

#include <cstdint>
#include <string_view>

#include "tickwire/core/assert.h"
#include "tickwire/protocol/netcode_contract.h"
#include "tickwire/server/room.h"
#include "tickwire/world/map_loader.h"
#include "tickwire/world/pawn_buttons.h"
#include "tickwire/world/reference_contract.h"
#include "tickwire/world/reference_game.h"
#include "tickwire/world/reference_map.h"

namespace tickwire::world::rigs {

inline constexpr uint32_t kRigHz = 60;
inline constexpr double kRigDt = 1.0 / kRigHz;

inline NetcodeContract rig_contract() { return reference_contract("room", kRigHz); }

inline Map load_rig_map(std::string_view text) {
  auto loaded = load_map(text);
  TW_ASSERT(loaded.ok(), "the rig's map loads");
  return std::move(loaded).value();
}

inline TickInput still_input(uint32_t sequence, float yaw_deg, bool use = false) {
  TickInput input;
  input.cmd.yaw_deg = yaw_deg;
  input.cmd.buttons = use ? uint32_t{kButtonUse} : 0u;
  input.sequence = sequence;
  input.has_sequence = true;
  input.source = TickInputSource::fresh;
  return input;
}

// The same, walking forward along `yaw_deg`.
inline TickInput walking_input(uint32_t sequence, float yaw_deg) {
  TickInput input = still_input(sequence, yaw_deg);
  input.cmd.move_y = 1.0f;
  return input;
}

struct Rig {
  explicit Rig(std::string_view map_text = reference_map_text()) : map(load_rig_map(map_text)), game(map) {
    game.begin(rig_contract());
    game.spawn_pawn(pawn, 1, Tick::from_value(0));
  }
  uint32_t index(std::string_view key) const { return *map.object_index(key); }
  // Stands the pawn at `feet` looking along `yaw_deg` (0 faces +z).
  void stand(Vec3 feet, float yaw_deg) { game.place_pawn(pawn, Placement{feet, {}, yaw_deg, 0, false}); }
  // One tick: the pawn stands still (holding Use if asked), then the world steps.
  void tick(bool use = false) {
    ++now;
    game.step_pawn(pawn, still_input(static_cast<uint32_t>(now), game.pawn(pawn)->yaw_deg, use), Tick::from_value(now),
                   kRigDt);
    game.step_world(Tick::from_value(now), kRigDt);
  }
  void ticks(int n) {
    for (int i = 0; i < n; ++i) tick();
  }
  float channel(std::string_view key, std::size_t ch) const { return game.object_component(index(key), 0).channels[ch]; }
  uint8_t bits(std::string_view key) const { return game.object_component(index(key), 0).bits; }
  uint64_t refused(UseRefusal reason) const { return game.use_refusals()[reason]; }

  Map map;
  ReferenceGame game;
  EntityRef pawn = EntityRef::make(EntityNetHandle::make(0, 1), 1);
  int64_t now = 0;
};

}  // namespace tickwire::world::rigs

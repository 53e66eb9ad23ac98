// The durable tests' room: the reference map with a voxel volume off to one side (so a busy room
// has edits, voxel writes and doors), a store's lease taken, the room recovered from what the store
// holds and a RoomKeeper holding the server's acknowledgements, as a durable server runs it. And
// the busy room's two kinds of work, made so a check can tell an acknowledged one from a later
// one: every gesture sets one lamp's intensity to its own number (numbers only grow), every voxel
// write fills a cell never written before.
#pragma once

#include <fmt/format.h>

#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tickwire/clock/system_clock.h"
#include "tickwire/durable/lease_supervisor.h"
#include "tickwire/durable/room_keeper.h"
#include "tickwire/durable/room_recovery.h"
#include "tickwire/protocol/scene_edit.h"
#include "tickwire/server/room_server.h"
#include "tickwire/world/reference_game.h"
#include "tickwire/world/reference_map.h"
#include "tickwire/world/voxel_grid.h"

namespace tickwire::durable::test_support {

inline constexpr uint8_t kLightComponent = 1;
inline constexpr uint16_t kDigEdge = 64;  // the volume's cells on x and z; y is 4 deep

// The reference map and a 64 x 4 x 64 volume of air cells, far below and beside the play area.
inline std::string busy_map_text() {
  nlohmann::json map = nlohmann::json::parse(world::reference_map_text());
  map["voxelGrids"] = nlohmann::json::parse(
      R"([{"name": "dig", "size": [64, 4, 64], "cellM": 0.5, "chunkEdge": 8, "blocks": [{"name": "stone"}], "fills": []}])");
  map["objects"].push_back(nlohmann::json::parse(
      R"({"key": "dig", "kind": "voxel_volume", "position": [400, -100, 400],
          "components": [{"name": "voxel_volume", "channels": [], "bits": 1, "settings": {"grid": 0}}]})"));
  return map.dump();
}

// The lamps a busy room's gestures retune.
inline std::vector<uint32_t> busy_lamps(const world::Map& map) {
  std::vector<uint32_t> lamps;
  for (int i = 0; i < 4; ++i)
    if (auto at = map.object_index(fmt::format("light.wall.n.0{}", i))) lamps.push_back(*at);
  return lamps;
}

// Gesture `n` (from 1): lamp n % lamps to intensity n.
inline protocol::SceneEdit busy_gesture(const std::vector<uint32_t>& lamps, uint32_t n) {
  protocol::SceneEdit g;
  g.gesture = n;
  g.field_edits.push_back({lamps[n % lamps.size()], kLightComponent, "intensity", protocol::edit_numbers({static_cast<float>(n)})});
  return g;
}

// Write `n` (from 0): the n-th cell of the volume, stone.
inline world::VoxelCell dig_cell(uint32_t n) {
  return {static_cast<uint16_t>(n % kDigEdge), static_cast<uint16_t>((n / (kDigEdge * kDigEdge)) % 4),
          static_cast<uint16_t>((n / kDigEdge) % kDigEdge)};
}

// A room a store keeps: its lease taken by `owner`, recovered into `state` (the room, over its
// game), `server` holding its acknowledgements for the keeper. On failure `keeper` is null and
// `error` says why (no test framework here: the crash trials' child process assembles its room
// through this too).
struct DurableRoom {
  DurableRoom(std::unique_ptr<Store> opened, const std::string& room, const std::string& owner, DurableState& state,
              RoomServer& server, TickEpoch epoch, const RoomKeeperConfig& config = {}) : store(std::move(opened)) {
    if (!store) {
      error = "no store";
      return;
    }
    auto supervisor = std::make_unique<LeaseSupervisor>(*store, room, owner);
    if (!supervisor->poll(wall_now())) {
      error = fmt::format("{} could not take room {}", owner, room);
      return;
    }
    if (auto f = failure_of(store->advance_epoch(*supervisor->lease(), epoch))) {
      error = fmt::format("advance_epoch: {}", f->detail);
      return;
    }
    RecoveryResult recovered = recover_room(*store, room, state);
    if (const auto* e = std::get_if<RecoveryError>(&recovered)) {
      error = fmt::format("recovery: {} {}", reason_name(e->reason), e->detail);
      return;
    }
    recovery = std::get<Recovery>(recovered);
    keeper = std::make_unique<RoomKeeper>(*store, std::move(supervisor), recovery, [] { return wall_now(); }, config);
    server.hold_acknowledgements(*keeper);
  }
  std::unique_ptr<Store> store;
  Recovery recovery;
  std::unique_ptr<RoomKeeper> keeper;
  std::string error;
};

}  // namespace tickwire::durable::test_support

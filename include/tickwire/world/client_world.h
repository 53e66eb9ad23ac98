// ClientWorld: one client's side of the reference game's world, beyond the map it shares with every
// other client of the process: its voxel cells (fed by the voxelCells messages it hears), the voxel
// chunks streamed around its own pawn, the model that steps the pawn through the map's boxes, its
// objects' solids and those chunks, and its own props (sim: client), stepped around its predicted
// pawn. One per client (the chunks and the props follow that client's pawn); the map, the mover and
// the solids may be shared.
#pragma once

#include <optional>
#include <span>
#include <vector>

#include "tickwire/client/game_message.h"
#include "tickwire/client/predictor.h"
#include "tickwire/protocol/scene_node_state.h"
#include "tickwire/world/client_props.h"
#include "tickwire/world/mover_prediction_model.h"
#include "tickwire/world/voxel_live.h"
#include "tickwire/world/voxel_prediction_world.h"

namespace tickwire::world {

class ClientWorld {
 public:
  // Everything named is the caller's and must outlive it.
  ClientWorld(const Map& map, const CharacterMover& mover, std::span<const Aabb> statics, const ObjectSolids& solids,
              const VoxelStreamSettings& stream = {})
      : map_(map),
        solids_(solids),
        statics_(statics),
        mover_(mover),
        live_(map),
        voxels_(live_, stream),
        model_(mover, statics, &solids, &voxels_),
        props_(ClientProps::build(map)) {}
  ClientWorld(const ClientWorld&) = delete;
  ClientWorld& operator=(const ClientWorld&) = delete;

  // A game message this client heard: true when it was the world's (a voxelCells message, taken or
  // refused by reason), false when it is someone else's business.
  bool take(const GameMessage& message) { return live_.take(message); }
  // The client's own props, one step per tick the predictor stepped since the last call (at most
  // kMaxPropStepsPerFollow: a long stall does not replay seconds of shoves), around the predicted
  // pawn, against the map's statics and the voxel chunks cooked around the pawn (while a chunk
  // within their reach is not cooked yet, they wait); `tick_s` is the world seconds of one tick.
  void follow(const Predictor& predictor, double tick_s);
  static constexpr uint64_t kMaxPropStepsPerFollow = 4;
  // The room's edit set as the client holds it (Client::scene_state; null: none yet): on a new
  // revision the prediction world's statics become the map's under it (scene_solid_boxes: hide drops
  // a body, move moves it), the server's by construction.
  void follow_scene(const protocol::SceneNodeState* state);

  const PredictionModel& model() const { return model_; }
  const ClientProps& props() const { return props_; }
  const VoxelLive& live() const { return live_; }
  const VoxelPredictionWorld& voxels() const { return voxels_; }

 private:
  std::optional<std::span<const Aabb>> prop_statics(const Aabb& pawn_box);

  const Map& map_;
  const ObjectSolids& solids_;
  std::span<const Aabb> statics_;
  std::vector<Aabb> scene_statics_;  // the statics under the edit set, once one arrived
  uint32_t scene_revision_ = 0;
  const CharacterMover& mover_;
  VoxelLive live_;
  VoxelPredictionWorld voxels_;
  MoverPredictionModel model_;
  ClientProps props_;
  uint64_t followed_ticks_ = 0;  // the predictor's stepped ticks when props last followed
  std::vector<Aabb> prop_statics_;  // scratch: the statics and the voxel boxes near the props
};

}  // namespace tickwire::world

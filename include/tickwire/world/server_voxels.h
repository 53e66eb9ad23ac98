// ServerVoxels: the server's side of the voxel volumes (seed 000, "Voxel cells"). It holds what the
// session wrote (VoxelCells), claims the cells of the blocks it has spawned (VoxelClaims), streams
// the volumes' chunks around every pawn (VoxelColliders, the placements rule over the game's
// objects) and says what each client must hear: every chunk written
// since it last said, whole, to every session, and every written chunk to a session that just joined.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <span>
#include <string_view>
#include <vector>

#include "tickwire/core/reason_counters.h"
#include "tickwire/core/reasons.h"
#include "tickwire/server/simulation.h"
#include "tickwire/world/map.h"
#include "tickwire/world/voxel_cells.h"
#include "tickwire/world/voxel_colliders.h"
#include "tickwire/world/voxel_placements.h"

namespace tickwire::world {

// Why the server did not write a voxel cell (ServerVoxels::write).
TW_REASONS(VoxelWriteRefusal,
           not_a_volume,   // the object index names no voxel volume
           outside_grid,   // the cell lies outside the volume's grid
           unknown_block,  // the block is not in the grid's palette (nor air)
           unchanged,      // the cell holds that block already
           full)           // kMaxVoxelWrittenChunks chunks are written already

class ServerVoxels {
 public:
  explicit ServerVoxels(const VoxelStreamSettings& settings = {});

  // A map's volumes and blocks (`map` the caller's, outliving it or the next install); what the
  // session wrote stays (a reinstall of the same map) until forget_cells.
  void install(const Map& map);
  // Every written cell goes (a new map: written cells are map-scoped; its clients drop theirs too).
  void forget_cells();
  // An object spawned, despawned or was switched: the next sync applies the placements rule and
  // the claims again (nothing else moves them, so a tick's sync does not).
  void objects_changed() { objects_changed_ = true; }
  // The volumes the placements rule lets in (`state_of(object_index)`: VoxelVolumeState) and the
  // cells of the blocks `spawned(object_index)` says are in claimed, both asked again only after
  // install or objects_changed; the chunks streamed around `players`.
  template <class StateOf, class Spawned>
  void sync(StateOf state_of, Spawned spawned, std::span<const Vec3> players) {
    if (objects_changed_) {
      colliders_.set_placements(voxel_placements(*map_, volumes_, state_of));
      claims_.update(blocks_, spawned);
      objects_changed_ = false;
    }
    colliders_.sync(players, cells_, &claims_);
  }
  // The cooked boxes near a pawn's step (voxel_step_region), after `base`, in `scratch`: `base`
  // itself when no chunk is cooked.
  std::span<const Aabb> boxes_for_step(std::span<const Aabb> base, const Aabb& pawn_box, std::vector<Aabb>& scratch) const;

  // Writes `block` into a volume's cell: nullopt when written, else why not (counted).
  std::optional<VoxelWriteRefusal> write(uint32_t volume, const VoxelCell& cell, uint8_t block);
  uint8_t block(uint32_t volume, const VoxelCell& cell) const;

  // Durability: every write that lands is kept for take_writes while recording (a store keeps the
  // room). A checkpoint saves each written chunk as the voxelCells payload a client is sent
  // (chunk_payload); restore_chunk puts one back, checked as a client checks it (nothing changed,
  // false, when it does not fit this map's grid), and sends it to every client, whole.
  struct CellWrite {
    uint32_t volume = 0;
    VoxelCell cell{};
    uint8_t block = kVoxelAir;
  };
  void record_writes(bool on) { recording_ = on; }
  void take_writes(std::vector<CellWrite>& out);
  std::vector<uint8_t> chunk_payload(const VoxelChunkKey& key, const VoxelChunkWrites& writes) const;
  bool restore_chunk(std::span<const uint8_t> payload);
  const VoxelGrid* grid(uint32_t volume) const;
  // The blocks that write through (a `voxel_block` with an open block, on an object with a mover):
  // each cell holds the open block while `open_of(object_index)` says its mover stands open, the
  // map's block while closed (nullopt: the object is out, its cell left as it is).
  template <class OpenOf>
  void write_through(OpenOf open_of) {
    for (const WriteThrough& w : write_through_) {
      const std::optional<bool> open = open_of(w.object_index);
      if (!open) continue;
      const uint8_t want = *open ? w.open_block : grid(w.volume)->authored(w.cell);
      if (block(w.volume, w.cell) != want) (void)write(w.volume, w.cell, want);
    }
  }
  // A session joined: it hears every written chunk with the next take.
  void joined(OwnerId owner) { joiners_.push_back(owner); }
  // The voxelCells messages due (see the file's comment).
  void take_messages(std::vector<GameMessageOut>& out);
  // Its counts as the game's reasons ("voxel.write", "voxel.write.refused.<why>", "voxel.chunk.sent",
  // "voxel.cook.urgent", "voxel.cook.queued").
  void visit_reasons(const Simulation::ReasonVisitor& visit) const;

  const VoxelCells& cells() const { return cells_; }
  const VoxelColliders& colliders() const { return colliders_; }
  const VoxelClaims& claims() const { return claims_; }
  const ReasonCounters<VoxelWriteRefusal>& write_refusals() const { return write_refusals_; }
  uint64_t writes() const { return writes_; }
  uint64_t chunks_sent() const { return chunks_sent_; }  // voxelCells messages queued so far

 private:
  const Map* map_ = nullptr;
  std::vector<uint32_t> volumes_;  // the map's voxel volume object indices
  bool objects_changed_ = true;
  std::vector<VoxelBlockCell> blocks_;  // the objects carried by a volume, each standing for a cell
  struct WriteThrough {
    uint32_t object_index = 0;
    uint32_t volume = 0;
    VoxelCell cell{};
    uint8_t open_block = 0;
  };
  std::vector<WriteThrough> write_through_;
  VoxelClaims claims_;
  VoxelCells cells_;
  VoxelColliders colliders_;
  std::set<VoxelChunkKey> dirty_;  // written since the last take
  std::vector<OwnerId> joiners_;   // joined since the last take
  ReasonCounters<VoxelWriteRefusal> write_refusals_;
  uint64_t writes_ = 0;
  uint64_t chunks_sent_ = 0;
  bool recording_ = false;
  std::vector<CellWrite> recorded_;  // since the last take_writes (the game takes them every update)
};

}  // namespace tickwire::world

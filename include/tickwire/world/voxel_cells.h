// VoxelCells: what a session wrote into its voxel volumes (seed 000, "Voxel cells"), chunk by chunk.
// The server writes cells; every chunk whose writes change goes to every client whole, with a
// revision, and a client lays each chunk it hears over its own authored cells. Because a chunk
// travels whole and the newer revision wins, a chunk lost and resent, or two in either order, leave
// the same cells, and a late joiner that hears every written chunk once holds what everyone holds.
#pragma once

#include <compare>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <vector>

#include "tickwire/world/voxel_grid.h"

namespace tickwire::world {

// Written chunks one session holds, over every volume: past it a write is refused (the server) or a
// chunk dropped (a client), counted. 65,536 chunks of up to 32^3 one-byte writes each.
inline constexpr std::size_t kMaxVoxelWrittenChunks = 65536;

// One written cell of a chunk: its place in the chunk (VoxelGrid::offset_in_chunk) and its block.
struct VoxelWrite {
  uint16_t offset = 0;
  uint8_t block = kVoxelAir;
  friend bool operator==(const VoxelWrite&, const VoxelWrite&) = default;

  static constexpr std::string_view wire_name = "VoxelWrite";
  template <class W>
  void fields(W& w) {
    w.u16("offset", offset);
    w.u8("block", block);
  }
};

// A chunk of one volume: the volume is its voxel_volume object's index.
struct VoxelChunkKey {
  uint32_t volume = 0;
  uint32_t chunk = 0;
  friend auto operator<=>(const VoxelChunkKey&, const VoxelChunkKey&) = default;
};

// A chunk's writes, sorted by offset, one per cell; the revision grows with every change.
struct VoxelChunkWrites {
  uint32_t revision = 0;
  std::vector<VoxelWrite> writes;
  // The block written at `offset`, or nullopt (the authored block stands).
  std::optional<uint8_t> block_at(uint16_t offset) const;
  friend bool operator==(const VoxelChunkWrites&, const VoxelChunkWrites&) = default;
};

class VoxelCells {
 public:
  // The server's write: `block` at `offset` of the chunk. A write back to the authored block takes
  // the cell's write out (the chunk still travels, with its revision moved). False, nothing changed,
  // when the cell already holds `block` or the chunk would pass kMaxVoxelWrittenChunks.
  bool write(const VoxelChunkKey& key, uint16_t offset, uint8_t block, uint8_t authored);
  // A client's copy of a chunk as the server sent it: taken when its revision is newer than the one
  // held (or none is held); a stale or repeated chunk changes nothing. False when not taken (stale,
  // or the cap reached by a new chunk). `writes` must already be checked (sorted, in the chunk).
  bool apply(const VoxelChunkKey& key, uint32_t revision, std::span<const VoxelWrite> writes);

  const VoxelChunkWrites* chunk(const VoxelChunkKey& key) const;
  const std::map<VoxelChunkKey, VoxelChunkWrites>& chunks() const { return chunks_; }
  // Moves with every change anywhere: what a cooked chunk or a prediction compares against.
  uint64_t revision() const { return revision_; }
  void clear();
  friend bool operator==(const VoxelCells& a, const VoxelCells& b) { return a.chunks_ == b.chunks_; }
  // The block a cell of `volume` (standing on `grid`) holds now: the write where one is held, else
  // the map's; air outside the grid. The one lookup the server and a client share.
  uint8_t block(uint32_t volume, const VoxelGrid& grid, const VoxelCell& cell) const;

 private:
  std::map<VoxelChunkKey, VoxelChunkWrites> chunks_;
  uint64_t revision_ = 0;
};

}  // namespace tickwire::world

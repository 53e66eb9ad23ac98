// The voxelCells message (seed 000, "Voxel cells"): one written chunk whole, from the server to
// every client on the reliable channel. It carries the chunk's grid (its size and chunk edge) and
// its blocks layer beside the writes, so a client checks the chunk against its own copy of the
// volume before laying it over, and refuses, counted by reason, a chunk its map does not agree with.
// The reference game's own message: its type is appended after the engine's, so a build that does
// not know it hands it to the game unread and the engine's protocol version never moves.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "tickwire/core/reasons.h"
#include "tickwire/core/status.h"
#include "tickwire/transport/message_envelope.h"
#include "tickwire/world/voxel_cells.h"
#include "tickwire/world/voxel_grid.h"

namespace tickwire::world {

// The reference game's message types (values are only ever appended).
inline constexpr MessageType kMessageVoxelCells = kFirstGameMessageType;

struct VoxelCellsMessage {
  static constexpr std::string_view wire_name = "VoxelCells";
  uint32_t volume = 0;  // the voxel_volume object's index
  VoxelCell size{};     // the grid's cells along x, y, z
  uint8_t chunk_edge = 0;
  uint32_t blocks_layer = 0;  // VoxelGrid::blocks_layer
  uint32_t chunk = 0;
  uint32_t revision = 0;
  std::vector<VoxelWrite> writes;  // sorted by offset, one per cell

  template <class W>
  void fields(W& w) {
    w.varu32("volume", volume);
    w.u16("sizeX", size[0]);
    w.u16("sizeY", size[1]);
    w.u16("sizeZ", size[2]);
    w.u8("chunkEdge", chunk_edge);
    w.u32("blocksLayer", blocks_layer);
    w.varu32("chunk", chunk);
    w.varu32("revision", revision);
    w.list16("writes", writes, 0, kMaxChunkWrites);
  }
  // A chunk of 32^3 cells holds at most this many writes.
  static constexpr std::size_t kMaxChunkWrites = 32u * 32u * 32u;
};

// Why a client did not lay a voxelCells message over its cells.
TW_REASONS(VoxelCellsRefusal,
           not_from_server,  // relayed from another client: only the server writes cells
           undecodable,      // the bytes are not a VoxelCells message
           unknown_volume,   // no voxel_volume object at that index in this client's map
           grid_mismatch,    // the size, chunk edge or blocks layer differ from this client's grid
           bad_chunk,        // past the grid's chunks
           bad_write,        // a write out of order, twice, outside the grid or naming no block
           stale,            // a revision not newer than the one held (a resend): nothing to do
           full)             // kMaxVoxelWrittenChunks chunks held already

// The message for a written chunk of a volume standing on `grid`.
VoxelCellsMessage voxel_cells_message(const VoxelGrid& grid, const VoxelChunkKey& key, const VoxelChunkWrites& writes);
// Encoded as a game message's payload.
std::vector<uint8_t> encode_voxel_cells(const VoxelCellsMessage& message);
// Decoded from a payload (bounds-checked, every count capped); an error when malformed.
Status decode_voxel_cells(std::span<const uint8_t> payload, VoxelCellsMessage& out);
// Whether a decoded message fits `grid` (nullopt) or why not (grid_mismatch, bad_chunk, bad_write).
std::optional<VoxelCellsRefusal> check_voxel_cells(const VoxelCellsMessage& message, const VoxelGrid& grid);

}  // namespace tickwire::world

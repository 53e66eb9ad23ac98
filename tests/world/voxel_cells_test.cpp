// The written cells and their message: a chunk travels whole, the newest revision wins, so loss,
// resends and either order leave the same cells; a client checks every chunk against its own grid.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "tickwire/world/voxel_cells.h"
#include "tickwire/world/voxel_cells_message.h"

namespace tickwire::world {
namespace {

VoxelGridDef grid_def() {
  VoxelGridDef def;
  def.name = "yard";
  def.size = {20, 6, 12};  // partial chunks along x and z
  def.cell_m = 0.5f;
  def.chunk_edge = 8;
  def.blocks = {{"stone", true}, {"glass", true}, {"mist", false}};
  def.fills = {{{0, 0, 0}, {19, 0, 11}, 1}};
  return def;
}

TEST(VoxelCells, AWriteBackToTheAuthoredBlockTakesTheCellsWriteOutAndMovesTheRevision) {
  VoxelCells cells;
  const VoxelChunkKey key{3, 1};
  EXPECT_FALSE(cells.write(key, 5, 1, /*authored=*/1)) << "the authored block already";
  ASSERT_TRUE(cells.write(key, 5, 2, 1));
  ASSERT_TRUE(cells.write(key, 2, 3, 1));
  EXPECT_FALSE(cells.write(key, 2, 3, 1)) << "unchanged";
  const VoxelChunkWrites* chunk = cells.chunk(key);
  ASSERT_NE(chunk, nullptr);
  EXPECT_EQ(chunk->revision, 2u);
  EXPECT_EQ(chunk->writes, (std::vector<VoxelWrite>{{2, 3}, {5, 2}})) << "sorted by offset";
  ASSERT_TRUE(cells.write(key, 5, 1, 1));
  EXPECT_EQ(cells.chunk(key)->writes, (std::vector<VoxelWrite>{{2, 3}}));
  EXPECT_EQ(cells.chunk(key)->revision, 3u);
  EXPECT_EQ(cells.chunk(key)->block_at(2), std::optional<uint8_t>(3));
  EXPECT_EQ(cells.chunk(key)->block_at(5), std::nullopt);
}

TEST(VoxelCells, ChunksLostResentOrInEitherOrderLeaveTheServersCells) {
  const VoxelGrid grid(grid_def());
  std::mt19937 rng(1202);
  VoxelCells server;
  struct Sent {
    VoxelChunkKey key;
    VoxelCellsMessage message;
  };
  std::vector<Sent> sent;
  for (int i = 0; i < 400; ++i) {
    const VoxelCell cell{static_cast<uint16_t>(rng() % 20), static_cast<uint16_t>(rng() % 6), static_cast<uint16_t>(rng() % 12)};
    const VoxelChunkKey key{7, grid.chunk_of(cell)};
    if (server.write(key, grid.offset_in_chunk(cell), static_cast<uint8_t>(rng() % 4), grid.authored(cell)))
      sent.push_back({key, voxel_cells_message(grid, key, *server.chunk(key))});
  }
  // Every message twice, shuffled: the newest revision of each chunk wins wherever it lands.
  std::vector<Sent> wire = sent;
  wire.insert(wire.end(), sent.begin(), sent.end());
  std::shuffle(wire.begin(), wire.end(), rng);
  VoxelCells client;
  for (const Sent& s : wire) {
    VoxelCellsMessage decoded;
    ASSERT_TRUE(decode_voxel_cells(encode_voxel_cells(s.message), decoded).ok());
    ASSERT_EQ(decoded.writes, s.message.writes);
    ASSERT_FALSE(check_voxel_cells(decoded, grid).has_value());
    (void)client.apply({decoded.volume, decoded.chunk}, decoded.revision, decoded.writes);
  }
  EXPECT_EQ(client, server);
}

TEST(VoxelCellsMessage, AChunkThatDisagreesWithTheClientsGridIsRefusedByReason) {
  const VoxelGrid grid(grid_def());
  VoxelCellsMessage m;
  m.size = grid.size();
  m.chunk_edge = grid.chunk_edge();
  m.blocks_layer = grid.blocks_layer();
  m.chunk = 0;
  m.writes = {{1, 2}, {9, 0}};
  EXPECT_FALSE(check_voxel_cells(m, grid).has_value());

  const auto refused = [&](auto change) {
    VoxelCellsMessage bad = m;
    change(bad);
    return check_voxel_cells(bad, grid);
  };
  EXPECT_EQ(refused([](auto& b) { b.size[1] = 7; }), VoxelCellsRefusal::grid_mismatch);
  EXPECT_EQ(refused([](auto& b) { b.chunk_edge = 16; }), VoxelCellsRefusal::grid_mismatch);
  EXPECT_EQ(refused([](auto& b) { b.blocks_layer ^= 1; }), VoxelCellsRefusal::grid_mismatch);
  EXPECT_EQ(refused([&](auto& b) { b.chunk = grid.chunk_count(); }), VoxelCellsRefusal::bad_chunk);
  EXPECT_EQ(refused([](auto& b) { b.writes = {{9, 1}, {1, 1}}; }), VoxelCellsRefusal::bad_write) << "out of order";
  EXPECT_EQ(refused([](auto& b) { b.writes = {{4, 1}, {4, 2}}; }), VoxelCellsRefusal::bad_write) << "twice";
  EXPECT_EQ(refused([](auto& b) { b.writes = {{4, 4}}; }), VoxelCellsRefusal::bad_write) << "no such block";
  EXPECT_EQ(refused([&](auto& b) { b.writes = {{static_cast<uint16_t>(grid.cells_per_chunk()), 1}}; }),
            VoxelCellsRefusal::bad_write)
      << "past the chunk";
  // Chunk 2 along x starts at x = 16: offset 5 is x = 21, outside a grid 20 cells wide.
  EXPECT_EQ(refused([](auto& b) { b.chunk = 2, b.writes = {{5, 1}}; }), VoxelCellsRefusal::bad_write) << "past the grid";
}

TEST(VoxelCellsMessage, TruncatedOrPaddedBytesAreRefusedNeverRead) {
  VoxelCellsMessage m;
  m.volume = 300;
  m.size = {20, 6, 12};
  m.chunk_edge = 8;
  m.chunk = 4;
  m.revision = 99;
  m.writes = {{1, 1}, {2, 2}, {3, 3}};
  const std::vector<uint8_t> bytes = encode_voxel_cells(m);
  VoxelCellsMessage out;
  ASSERT_TRUE(decode_voxel_cells(bytes, out).ok());
  EXPECT_EQ(out.volume, 300u);
  EXPECT_EQ(out.revision, 99u);
  for (std::size_t n = 0; n < bytes.size(); ++n)
    EXPECT_FALSE(decode_voxel_cells(std::span(bytes).first(n), out).ok()) << n << " bytes";
  std::vector<uint8_t> padded = bytes;
  padded.push_back(0);
  EXPECT_FALSE(decode_voxel_cells(padded, out).ok());
}

}  // namespace
}  // namespace tickwire::world

// Fuzzes the map loader with arbitrary text (a map file is untrusted input). Any text must load or
// be refused by a named error with a message; a map that loads must save to canonical text that
// loads to the same content and hash and saves to itself, with every object findable by its key.
// A version 3 map's records (sources, inherits, carried children, placements, removals) resolve
// inside load_map, so the resolver runs on every input; its objects stay within the object cap and
// its saved text is the authored layers, which must resolve to the same objects again. Voxel grids
// resolve inside load_map too: one per defined grid, each with its chunks.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "tickwire/world/map_loader.h"
#include "tickwire/world/map_writer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tickwire::world;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto loaded = load_map(text);
  if (!loaded) {
    const MapError& e = loaded.error();
    if (e.code == MapErrorCode::ok || e.code >= MapErrorCode::count_ || e.code == MapErrorCode::unexpected ||
        e.message.empty())
      __builtin_trap();
    return 0;
  }
  const Map& map = *loaded;
  if (map.spawn_points().empty() || map.objects().size() > kMaxMapObjects || map.boxes().size() > kMaxMapBoxes)
    __builtin_trap();
  for (const auto& box : map.boxes())
    if (!box.valid()) __builtin_trap();
  for (uint32_t i = 0; i < map.objects().size(); ++i)
    if (map.object_index(map.objects()[i].key) != i || map.objects()[i].components.size() > kMaxObjectComponents)
      __builtin_trap();
  if (map.voxel_grids().size() != map.content().voxel_grids.size() || map.voxel_grids().size() > kMaxVoxelGrids)
    __builtin_trap();
  for (const VoxelGrid& grid : map.voxel_grids())
    if (grid.chunk_count() == 0 || !grid.contains(grid.cell_at(grid.chunk_count() - 1, 0))) __builtin_trap();
  const std::string canonical = save_map(map);
  const auto again = load_map(canonical);
  if (!again || !(again->content() == map.content()) || again->content_hash() != map.content_hash() ||
      save_map(*again) != canonical)
    __builtin_trap();
  if (map.format_version() < 3 && (!map.content().sources.empty() || !map.content().placements.empty()))
    __builtin_trap();
  return 0;
}

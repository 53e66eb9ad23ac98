// `tickwire map check [FILE]`: loads a map file (the built-in reference map when FILE is omitted)
// and prints its counts and content hash, or the loader's error with its JSON path (exit 2), so an
// operator can check a map before a server refuses it. `tickwire map crowd`: writes the room
// bench's map (a floor and a grid of spawn points, one player per spacing squared), so a demo or a
// server with hundreds of bots sees the crowd each player would, not the whole room at once.
#include <cstdio>
#include <map>
#include <memory>
#include <string>

#include "commands.h"
#include "room_bench_map.h"
#include "whole_file.h"
#include "tickwire/world/map_loader.h"
#include "tickwire/world/reference_map.h"

namespace tickwire::cli {
namespace {

constexpr int kExitMapRefused = 2;

void print_map(const world::Map& map) {
  std::printf("map %.*s (format %u)\n", static_cast<int>(map.name().size()), map.name().data(), map.format_version());
  std::printf("boxes %zu\nspawn points %zu\nobjects %zu\n", map.boxes().size(), map.spawn_points().size(),
              map.objects().size());
  std::map<std::string, std::size_t, std::less<>> kinds;
  for (const world::MapObject& o : map.objects()) ++kinds[o.kind];
  for (const auto& [kind, count] : kinds) std::printf("  %s %zu\n", kind.c_str(), count);
  std::size_t wired = 0, actions = 0;
  for (const world::MapObject& o : map.objects()) {
    wired += o.outputs.empty() ? 0 : 1;
    for (const world::MapOutput& output : o.outputs) actions += output.actions.size();
  }
  std::printf("wired objects %zu (%zu actions)\n", wired, actions);
  std::printf("hash %s\n", map.content_hash_hex().c_str());
}

struct CrowdOptions {
  uint32_t players = 255;
  float spacing_m = 20.0f;
  float margin_m = 400.0f;
  std::string out;
};

// Writes the crowd map to o.out (whole or not at all), after loading it as a server would; prints its check.
int write_crowd_map(const CrowdOptions& o) {
  const std::string text = bench::room_bench_map_text(bench::RoomBenchMap{o.players, o.spacing_m, o.margin_m});
  auto loaded = world::load_map(text);
  if (!loaded) {
    std::fprintf(stderr, "map crowd: %s\n", loaded.error().text().c_str());
    return kExitMapRefused;
  }
  std::string error;
  if (!write_whole_file(o.out, std::string_view(text), error)) {
    std::fprintf(stderr, "map crowd: cannot write %s\n", error.c_str());
    return kExitMapRefused;
  }
  print_map(*loaded);
  std::printf("density %.0f players per km2\n", bench::players_per_km2(o.spacing_m));
  return 0;
}

void register_crowd(CLI::App& map) {
  static CrowdOptions o;
  auto* crowd = map.add_subcommand("crowd", "write a crowd map: a wide floor and a grid of spawn points, one per player");
  crowd->add_option("--players", o.players, "spawn points (one per player)")
      ->check(CLI::Range(uint32_t{1}, static_cast<uint32_t>(world::kMaxMapSpawnPoints)));
  crowd->add_option("--spacing", o.spacing_m, "metres between neighbouring spawn points")->check(CLI::Range(1.0, 1000.0));
  crowd->add_option("--margin", o.margin_m, "floor beyond the grid on every side, in metres")->check(CLI::Range(10.0, 10000.0));
  crowd->add_option("--out", o.out, "the map file to write")->required();
  crowd->callback([] { set_exit_code(write_crowd_map(o)); });
}

}  // namespace

void register_map(CLI::App& app) {
  auto* map = app.add_subcommand("map", "map file tools");
  map->require_subcommand(1);
  auto* check = map->add_subcommand("check", "load a map file and print its counts and content hash");
  auto file = std::make_shared<std::string>();
  check->add_option("file", *file, "map file (JSON); the built-in reference map when omitted");
  check->callback([file] {
    const bool builtin = file->empty();
    auto loaded = builtin ? world::load_map(world::reference_map_text()) : world::load_map_file(*file);
    if (!loaded) {
      std::fprintf(stderr, "map check: %s: %s\n", builtin ? "(built-in reference map)" : file->c_str(),
                   loaded.error().text().c_str());
      set_exit_code(kExitMapRefused);
      return;
    }
    print_map(*loaded);
  });
  register_crowd(*map);
}

}  // namespace tickwire::cli

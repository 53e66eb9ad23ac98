// `tickwire map check [FILE]`: loads a map file (the built-in reference map when FILE is omitted)
// and prints its counts and content hash, or the loader's error with its JSON path (exit 2), so an
// operator can check a map before a server refuses it.
#include <cstdio>
#include <map>
#include <memory>
#include <string>

#include "commands.h"
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
}

}  // namespace tickwire::cli

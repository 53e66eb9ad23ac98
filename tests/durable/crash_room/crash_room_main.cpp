// tw_crash_room: the crash trials' victim. A busy durable room of the reference game on SimNetwork
// (an editor retuning lamps, the server filling voxel cells, the map's doors pressed open and shut
// with their delayed lights in flight), kept by a RoomKeeper in a store, run until something kills
// it. A watching client writes every acknowledgement it receives to stdout the moment it has it,
// one line a write(2) (whole, or not at all, whenever the kill lands):
//   ready
//   edit <revision> <lamp>=<intensity> ...     the edit set at a revision it was sent
//   chunk <volume> <chunk> <revision> <writes>  a written voxel chunk it was sent
// Usage: tw_crash_room STORE_URL ROOM SEED EPOCH(canonical|kernel) CHECKPOINT_EVERY_TICKS
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "../durable_room.h"
#include "game_sim.h"
#include "tickwire/world/voxel_cells_message.h"

namespace {

using namespace tickwire;
using namespace tickwire::durable;
using namespace tickwire::durable::test_support;

void say(const std::string& line) {
  const std::string whole = line + "\n";
  if (::write(STDOUT_FILENO, whole.data(), whole.size()) != static_cast<ssize_t>(whole.size())) std::_Exit(3);
}

// The lamps' intensities in an edit set, as the watcher holds it.
std::string edit_line(const protocol::SceneNodeState& state, const std::vector<uint32_t>& lamps) {
  std::string line = fmt::format("edit {}", state.revision);
  for (const protocol::ObjectNodeState& object : state.objects) {
    if (std::find(lamps.begin(), lamps.end(), object.object) == lamps.end()) continue;
    for (const protocol::FieldState& field : object.field_states) {
      const auto* numbers = std::get_if<protocol::EditNumbers>(&field.value.form);
      if (field.component == kLightComponent && field.key == "intensity" && numbers != nullptr && !numbers->values.empty())
        line += fmt::format(" {}={}", object.object, static_cast<int64_t>(numbers->values[0].value));
    }
  }
  return line;
}

test::GameClientSetup standing(bool authority) {
  test::GameClientSetup setup;
  setup.input = [](uint32_t) { return protocol::InputCmd{}; };
  setup.world_authority = authority;
  return setup;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 6) {
    std::fprintf(stderr, "usage: tw_crash_room STORE_URL ROOM SEED canonical|kernel CHECKPOINT_EVERY_TICKS\n");
    return 2;
  }
  spdlog::set_level(spdlog::level::warn);
  const std::string url = argv[1], room_name = argv[2];
  const uint64_t seed = std::strtoull(argv[3], nullptr, 10);
  const TickEpoch epoch = std::string(argv[4]) == "kernel" ? TickEpoch::kernel_v1 : TickEpoch::canonical_v1;
  RoomKeeperConfig keeper_config;
  keeper_config.checkpoint_every_ticks = static_cast<uint32_t>(std::strtoul(argv[5], nullptr, 10));

  test::GameSimConfig config;
  config.map_text = busy_map_text();
  test::GameSim sim(seed, config);
  auto opened = open_store(url);
  if (!stored(opened)) return 4;
  DurableRoom room(std::move(std::get<std::unique_ptr<Store>>(opened)), room_name, fmt::format("victim-{}", getpid()),
                   sim.room, sim.server, epoch, keeper_config);
  if (!room.keeper) {
    std::fprintf(stderr, "tw_crash_room: %s\n", room.error.c_str());
    return 5;
  }
  test::SimGameClient& editor = sim.add_client(standing(true));
  test::SimGameClient& watcher = sim.add_client(standing(false));
  sim.run_for(Duration::from_seconds(1));
  if (!sim.all_welcomed()) return 6;

  const std::vector<uint32_t> lamps = busy_lamps(sim.map);
  const uint32_t dig = *sim.map.object_index("dig");
  const uint32_t buttons[] = {*sim.map.object_index("button.n"), *sim.map.object_index("button.s")};
  uint32_t gestures = 0, cells = 0;
  sim.watched.after_tick = [&](Tick tick) {
    if (tick.value() % 6 == 0) (void)editor.facade->edit(busy_gesture(lamps, ++gestures));
    for (int i = 0; i < 3; ++i) (void)sim.game.write_voxel(dig, dig_cell(cells++), 1);
    if (tick.value() % 45 == 0) (void)sim.game.logic()->use(buttons[(tick.value() / 45) % 2], LogicActivator{});
  };
  uint32_t told = 0;
  sim.after_frame = [&](test::SimGameClient& c) {
    if (&c != &watcher) {
      while (c.facade->receive_message()) {
      }
      return;
    }
    if (const protocol::SceneNodeState* state = c.facade->scene_state(); state != nullptr && state->revision != told) {
      told = state->revision;
      say(edit_line(*state, lamps));
    }
    while (auto message = c.facade->receive_message()) {
      world::VoxelCellsMessage chunk;
      if (message->type != world::kMessageVoxelCells || !world::decode_voxel_cells(message->payload, chunk)) continue;
      say(fmt::format("chunk {} {} {} {}", chunk.volume, chunk.chunk, chunk.revision, chunk.writes.size()));
    }
  };
  say("ready");
  for (;;) sim.run_for(Duration::milliseconds(16));  // until killed
}

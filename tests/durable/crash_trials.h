// The crash trials (seed 003, "Durability and rejoin"): a busy durable room in a child process
// (tw_crash_room) is killed with SIGKILL at a seeded random instant, then a fresh game is recovered
// from the store and every acknowledgement the child's watcher received before the kill is looked
// for: each lamp at least at the intensity it was acknowledged at (a lamp's numbers only grow),
// each voxel chunk at least at the revision and write count acknowledged (cells are only added).
// One store a backend, one room a trial. What is counted: trials, acknowledgements checked, lost
// (must be 0), the checkpoint each recovery started from (bytes), facts replayed.
#pragma once

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <utility>

#include "backend_stores.h"
#include "child_process.h"
#include "durable_room.h"
#include "game_sim.h"
#include "support.h"
#include "tickwire/core/rng.h"

namespace tickwire::durable::test_support {

struct CrashFigures {
  uint64_t trials = 0;
  uint64_t edits_acked = 0;   // edit set revisions the watcher was sent
  uint64_t chunks_acked = 0;  // voxel chunk messages the watcher was sent
  uint64_t lost = 0;          // acknowledged, then missing after recovery
  uint64_t checkpoint_bytes = 0;  // summed over recoveries that started from one
  uint64_t from_checkpoint = 0;   // recoveries that started from a checkpoint
  uint64_t facts_replayed = 0;
  double kill_after_s_min = 1e9, kill_after_s_max = 0;
};

// What the watcher acknowledged before the kill, the newest of each.
struct Acknowledged {
  std::map<uint32_t, int64_t> lamps;                                  // lamp -> intensity
  std::map<std::pair<uint32_t, uint32_t>, std::pair<uint32_t, uint32_t>> chunks;  // (volume, chunk) -> (revision, writes)
  uint64_t edit_lines = 0, chunk_lines = 0;
};

inline Acknowledged read_acknowledgements(const std::string& output) {
  Acknowledged acked;
  std::istringstream lines(output);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::string what;
    words >> what;
    if (what == "edit") {
      ++acked.edit_lines;
      uint32_t revision = 0;
      words >> revision;
      for (std::string pair; words >> pair;) {
        const auto eq = pair.find('=');
        const auto lamp = static_cast<uint32_t>(std::stoul(pair.substr(0, eq)));
        const int64_t value = std::stoll(pair.substr(eq + 1));
        acked.lamps[lamp] = std::max(acked.lamps[lamp], value);
      }
    } else if (what == "chunk") {
      ++acked.chunk_lines;
      uint32_t volume = 0, chunk = 0, revision = 0, writes = 0;
      words >> volume >> chunk >> revision >> writes;
      auto& newest = acked.chunks[{volume, chunk}];
      if (revision >= newest.first) newest = {revision, writes};
    }
  }
  return acked;
}

// Each acknowledgement not found in the recovered game, described (empty: nothing lost).
inline std::vector<std::string> missing_after_recovery(const Acknowledged& acked, const world::ReferenceGame& game) {
  std::vector<std::string> missing;
  for (const auto& [lamp, value] : acked.lamps) {
    int64_t recovered = -1;
    if (const protocol::ObjectNodeState* object = game.scene_edits().object(lamp))
      for (const protocol::FieldState& field : object->field_states)
        if (const auto* numbers = std::get_if<protocol::EditNumbers>(&field.value.form);
            field.key == "intensity" && numbers != nullptr && !numbers->values.empty())
          recovered = static_cast<int64_t>(numbers->values[0].value);
    if (recovered < value) missing.push_back(fmt::format("lamp {} acknowledged at {}, recovered at {}", lamp, value, recovered));
  }
  for (const auto& [key, newest] : acked.chunks) {
    const world::VoxelChunkWrites* chunk = game.voxels().cells().chunk(world::VoxelChunkKey{key.first, key.second});
    if (chunk == nullptr || chunk->revision < newest.first || chunk->writes.size() < newest.second)
      missing.push_back(fmt::format("chunk {} acknowledged at revision {}", key.second, newest.first));
  }
  return missing;
}

// `trials` kills of a busy room in `backend`'s store, each after a seeded 0.2 to 1.2 s of play.
inline CrashFigures run_crash_trials(const std::string& backend, const std::string& epoch, uint32_t trials, uint64_t seed) {
  CrashFigures figures;
  BackendStores stores(backend);
  if (stores.url().empty()) {
    ADD_FAILURE() << stores.why();
    return figures;
  }
  Rng rng(seed);
  for (uint32_t trial = 0; trial < trials; ++trial) {
    const std::string room = fmt::format("crash-{}", trial);
    const double kill_after_s = 0.2 + rng.unit();
    test::ChildProcess victim;
    if (!victim.spawn(TICKWIRE_CRASH_ROOM_PATH, {stores.url(), room, std::to_string(seed + trial), epoch, "60"}) ||
        !victim.wait_for_line("ready", 60000)) {
      ADD_FAILURE() << "trial " << trial << ": the room never got busy; its output: " << victim.output();
      return figures;
    }
    const auto kill_at = std::chrono::steady_clock::now() + std::chrono::duration<double>(kill_after_s);
    while (std::chrono::steady_clock::now() < kill_at) {  // keep its stdout drained: a full pipe would stall it
      (void)victim.read_lines();
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    victim.kill_now();
    const Acknowledged acked = read_acknowledgements(victim.output());

    test::GameSimConfig config;
    config.map_text = busy_map_text();
    test::GameSim fresh(seed, config);  // a new process's game, nothing run
    auto store = stores.open();
    if (!store) return figures;
    RecoveryResult recovered = recover_room(*store, room, fresh.room);
    if (const auto* e = std::get_if<RecoveryError>(&recovered)) {
      ADD_FAILURE() << "trial " << trial << ": recovery: " << reason_name(e->reason) << " " << e->detail;
      return figures;
    }
    const Recovery& recovery = std::get<Recovery>(recovered);
    EXPECT_EQ(recovery.facts_refused, 0u) << "trial " << trial;
    for (const std::string& m : missing_after_recovery(acked, fresh.game)) {
      ADD_FAILURE() << backend << " " << epoch << " trial " << trial << " (seed " << seed + trial << ", killed after "
                    << kill_after_s << " s): lost " << m;
      ++figures.lost;
    }
    ++figures.trials;
    figures.edits_acked += acked.edit_lines;
    figures.chunks_acked += acked.chunk_lines;
    figures.facts_replayed += recovery.facts_replayed;
    if (recovery.checkpoint_tick) {
      ++figures.from_checkpoint;
      figures.checkpoint_bytes += recovery.checkpoint_bytes;
    }
    figures.kill_after_s_min = std::min(figures.kill_after_s_min, kill_after_s);
    figures.kill_after_s_max = std::max(figures.kill_after_s_max, kill_after_s);
  }
  std::printf("[ crash ] %s %s seed=%llu: %llu kill -9 trials (after %.2f to %.2f s), %llu edit revisions and %llu voxel "
              "chunks acknowledged, %llu lost; %llu recoveries from a checkpoint (mean %llu bytes), %llu facts replayed\n",
              backend.c_str(), epoch.c_str(), static_cast<unsigned long long>(seed),
              static_cast<unsigned long long>(figures.trials), figures.kill_after_s_min, figures.kill_after_s_max,
              static_cast<unsigned long long>(figures.edits_acked), static_cast<unsigned long long>(figures.chunks_acked),
              static_cast<unsigned long long>(figures.lost), static_cast<unsigned long long>(figures.from_checkpoint),
              static_cast<unsigned long long>(figures.from_checkpoint ? figures.checkpoint_bytes / figures.from_checkpoint : 0),
              static_cast<unsigned long long>(figures.facts_replayed));
  return figures;
}

}  // namespace tickwire::durable::test_support

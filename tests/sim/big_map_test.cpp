// Maps with thousands of objects: the rest table (every object's record at rest, 512 to a chunk)
// streams on the reliable channel as the channel drains, never past its send queue, so a client of
// a 4,000-, 16,384- or 50,000-object map holds the table and then gets its 60 snapshots a second. (Before,
// every chunk was queued at once, the queue refused the rest and the client waited forever.) The
// time to the first snapshot is printed: the reliable channel sends one block (a chunk past 1 KiB)
// at a time, so on a 100 ms link a big table takes seconds.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "game_profiles.h"

namespace tickwire {
namespace {

using namespace tickwire::test;

// A floor and `lights` lights on a grid 1 m apart, each with its on bit and four channels.
std::string lights_map(std::size_t lights) {
  std::string text = R"({"format": "tickwire-map", "version": 1, "name": "many lights",
    "boxes": [{"tag": "floor", "material": "concrete", "min": [-200, -1, -200], "max": [200, 0, 200]}],
    "spawns": [{"position": [0, 0, 0], "yaw_deg": 0}], "objects": [)";
  for (std::size_t i = 0; i < lights; ++i) {
    if (i > 0) text += ",";
    text += R"({"key": "light.)" + std::to_string(i) + R"(", "kind": "light", "position": [)" +
            std::to_string(static_cast<int>(i % 128) - 64) + ", 3, " + std::to_string(static_cast<int>(i / 128) - 64) +
            R"(], "components": [{"name": "light", "channels": [1, 0.85, 0.7, 400], "bits": 1}]})";
  }
  return text + "]}";
}

void run_big_map(std::size_t objects, std::string_view profile) {
  const std::optional<LinkModel> link = link_profile(profile);
  ASSERT_TRUE(link.has_value());
  GameSimConfig config;
  config.map_text = lights_map(objects);
  GameSim sim(1, config);
  GameClientSetup setup;
  setup.up = setup.down = *link;
  setup.frame_hz = 120.0;
  for (int i = 0; i < 2; ++i) sim.add_client(setup);

  const MonoTime start = sim.world.now;
  std::vector<std::optional<MonoTime>> first_snapshot(sim.clients.size());
  sim.after_frame = [&](SimGameClient& c) {
    for (std::size_t i = 0; i < sim.clients.size(); ++i) {
      if (sim.clients[i].get() == &c && !first_snapshot[i] && c.facade->stats().snapshots > 0) {
        first_snapshot[i] = sim.world.now;
      }
    }
  };
  // Until every client has its first snapshot (20 s at most).
  const auto all_have_one = [&] {
    return std::all_of(first_snapshot.begin(), first_snapshot.end(), [](const auto& at) { return at.has_value(); });
  };
  for (int i = 0; i < 40 && !all_have_one(); ++i) sim.run_for(Duration::milliseconds(500));
  for (std::size_t i = 0; i < sim.clients.size(); ++i) {
    ASSERT_TRUE(first_snapshot[i].has_value()) << objects << " objects, client " << i << ": no snapshot in 20 s";
    std::printf("%zu objects, %s: client %zu's first snapshot %.0f ms after it started connecting\n", objects,
                std::string(profile).c_str(), i, (*first_snapshot[i] - start).seconds_f() * 1e3);
  }
  // Then the tick rate: 60 a second over the next two seconds, within 5%.
  std::vector<uint64_t> before;
  for (const auto& c : sim.clients) before.push_back(c->facade->stats().snapshots);
  sim.run_for(Duration::seconds(2));
  for (std::size_t i = 0; i < sim.clients.size(); ++i) {
    const double hz = static_cast<double>(sim.clients[i]->facade->stats().snapshots - before[i]) / 2.0;
    EXPECT_GT(hz, 57.0) << objects << " objects, client " << i;
  }
  EXPECT_EQ(sim.server.drops()[SessionDrop::snapshot_unsent], 0u);
}

TEST(BigMap, FourThousandObjectsReachTheClientsOnBroadband) { run_big_map(4000, "broadband"); }

TEST(BigMap, SixteenThousandObjectsReachTheClientsOnTransatlantic) { run_big_map(16384, "transatlantic"); }

// Past 16,383 an object index takes three bytes: every one of 50,000 objects is addressed.
TEST(BigMap, FiftyThousandObjectsReachTheClientsOnBroadband) { run_big_map(50000, "broadband"); }

}  // namespace
}  // namespace tickwire

// One headless player of `tickwire bot`: its prediction world, its client (absent while a
// matchmaker's bot waits for a seat), its behaviour, and the figures its final line reports.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>

#include "sample_stats.h"
#include "tickwire/client.h"
#include "tickwire/world/bot_brain.h"
#include "tickwire/world/client_world.h"

namespace tickwire::cli {

struct Bot {
  std::unique_ptr<world::ClientWorld> world;  // its voxel cells and its prediction (the client's model)
  std::unique_ptr<Client> client;             // null until it has a seat (--match)
  world::BotBrain brain;
  SampleStats snapshot_bytes;
  std::optional<double> welcomed_at_s;  // when the welcome arrived (the snapshot rate counts from it)
  // The server's reliable block (demo_block.h): bytes, and when its first and last parts arrived
  // with the snapshots counted then (the snapshot rate while it downloaded).
  uint64_t block_bytes = 0;
  double block_first_s = 0, block_last_s = 0;
  uint64_t snapshots_at_block_first = 0, snapshots_at_block_last = 0;
};

}  // namespace tickwire::cli

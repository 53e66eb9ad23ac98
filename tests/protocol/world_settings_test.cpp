// WorldSettings as a shape: the ranges a room may run, the contract's values as the initial ones,
// and the full Snapshot's tail (an older writer's snapshot, which ends before the settings, reads
// as the defaults; ours round-trips them).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "contract_test_policy.h"
#include "tickwire/protocol/netcode_contract.h"
#include "tickwire/protocol/snapshot.h"
#include "tickwire/protocol/world_settings.h"
#include "tickwire/wire/codec.h"

namespace tickwire {
namespace {

TEST(WorldSettings, RangesAreForgivenessZeroToOneAndTimeScaleZeroToFour) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_TRUE(protocol::valid_world_settings({}));
  EXPECT_TRUE(protocol::valid_world_settings({0.0f, 0.0f}));
  EXPECT_TRUE(protocol::valid_world_settings({1.0f, protocol::kMaxWorldTimeScale}));
  for (const protocol::WorldSettings bad : {protocol::WorldSettings{nan, 1}, protocol::WorldSettings{1, nan},
                                           protocol::WorldSettings{-0.01f, 1}, protocol::WorldSettings{1.01f, 1},
                                           protocol::WorldSettings{1, -1}, protocol::WorldSettings{1, 4.01f},
                                           protocol::WorldSettings{1, inf}}) {
    EXPECT_FALSE(protocol::valid_world_settings(bad)) << bad.forgiveness << " " << bad.time_scale;
  }
  EXPECT_EQ(protocol::world_seconds_per_tick(1.0 / 60.0, 0.5f), 1.0 / 120.0);
  EXPECT_EQ(protocol::world_seconds_per_tick(1.0 / 60.0, 0.0f), 0.0);
}

TEST(WorldSettings, TheContractHoldsTheInitialValues) {
  RoomPolicy policy = test::fixed_room_policy();
  policy.input.forgiveness = 0.25;
  policy.cadence.time_scale = 0.5;
  const ContractResolution resolved = resolve_netcode_contract(policy);
  ASSERT_TRUE(resolved.ok());
  EXPECT_EQ(initial_world_settings(*resolved.contract), (protocol::WorldSettings{0.25f, 0.5f}));
  policy.cadence.time_scale = 4.5;
  EXPECT_EQ(resolve_netcode_contract(policy).issue.field, "cadence.timeScale");
}

TEST(WorldSettings, AFullSnapshotCarriesThemAfterATail) {
  protocol::Snapshot snapshot;
  snapshot.tick = 42;
  snapshot.world = protocol::WorldSettings{0.0f, 0.25f};
  std::vector<uint8_t> bytes(1024);
  const auto written = wire::encode(snapshot, std::span<uint8_t>(bytes));
  ASSERT_TRUE(written.ok());
  bytes.resize(written.value());
  protocol::Snapshot decoded;
  ASSERT_TRUE(wire::decode(bytes, decoded).ok());
  EXPECT_EQ(decoded.world, snapshot.world);
  // An older writer's snapshot ends where the tail is: the settings read as the defaults.
  const std::vector<uint8_t> older(bytes.begin(), bytes.end() - 8);
  protocol::Snapshot from_older;
  ASSERT_TRUE(wire::decode(older, from_older).ok());
  EXPECT_EQ(from_older.world, protocol::WorldSettings{});
}

}  // namespace
}  // namespace tickwire

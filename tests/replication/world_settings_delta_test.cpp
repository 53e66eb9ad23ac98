// World settings in the SnapshotDelta body: they ride every body, exact, against the baseline's (the
// defaults against nothing or the rest table's frame); while they hold they cost no byte, a change
// costs a few (a body naming settings out of range: snapshot_delta_hostile_test).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <initializer_list>
#include <vector>

#include "replica_frame_support.h"
#include "support.h"
#include "tickwire/core/rng.h"
#include "tickwire/replication/delta/snapshot_delta_codec.h"

namespace tickwire {
namespace {

std::vector<uint8_t> encode(const ReplicaFrame& current, DeltaRefs refs, const ReplicaKinds& kinds) {
  std::vector<uint8_t> body;
  EXPECT_TRUE(encode_snapshot_delta(current, refs, kinds, body).ok());
  return body;
}

ReplicaFrame decode(const std::vector<uint8_t>& body, uint32_t tick, DeltaRefs refs, const ReplicaKinds& kinds) {
  ReplicaFrame out;
  out.world = protocol::WorldSettings{0.5f, 3.0f};  // leftovers must not survive
  EXPECT_TRUE(decode_snapshot_delta(body, tick, refs, kinds, out).ok());
  return out;
}

ReplicaFrame frame_at(Rng& rng, uint32_t tick, const protocol::WorldSettings& world) {
  ReplicaFrame f;
  f.tick = tick;
  f.owner = test::random_owner(rng);
  for (uint32_t id = 1; id <= 40; ++id) f.states.push_back(test::random_state(rng, id));
  f.world = world;
  return f;
}

TEST(WorldSettingsDelta, SettingsRideEveryBodyExactly) {
  const ReplicaKinds kinds = ReplicaKinds::defaults();
  Rng rng(test::test_seed(0x3e77));
  const protocol::WorldSettings slow{0.25f, 0.5f};
  ReplicaFrame rest;  // a rest table's frame: tick 0, the default settings
  const ReplicaFrame first = frame_at(rng, 10, slow);
  for (const ReplicaFrame* reference : std::initializer_list<const ReplicaFrame*>{nullptr, &rest}) {
    const ReplicaFrame decoded = decode(encode(first, {reference, nullptr}, kinds), 10, {reference, nullptr}, kinds);
    EXPECT_EQ(decoded.world, slow);
    EXPECT_EQ(decoded, first);
  }
  // Against a baseline that holds them, and against one that does not (a change back to the defaults).
  ReplicaFrame next = first;
  next.tick = 11;
  EXPECT_EQ(decode(encode(next, {&first, nullptr}, kinds), 11, {&first, nullptr}, kinds).world, slow);
  next.world = protocol::WorldSettings{};
  EXPECT_EQ(decode(encode(next, {&first, nullptr}, kinds), 11, {&first, nullptr}, kinds).world, protocol::WorldSettings{});
  // Bit patterns survive (a paused world, forgiveness exactly 0).
  next.world = protocol::WorldSettings{0.0f, 0.0f};
  const ReplicaFrame paused = decode(encode(next, {&first, nullptr}, kinds), 11, {&first, nullptr}, kinds);
  EXPECT_FALSE(std::signbit(paused.world.time_scale));
  EXPECT_EQ(paused.world, next.world);
}

// What the settings cost: bodies whose settings equal the baseline's are the size they are with
// the defaults on both sides (summed over many bodies, within a byte); a change adds a few bytes once.
TEST(WorldSettingsDelta, HeldSettingsCostNothingAndAChangeAFewBytes) {
  const ReplicaKinds kinds = ReplicaKinds::defaults();
  Rng rng(test::test_seed(0x3e78));
  const protocol::WorldSettings slow{0.25f, 0.5f};
  std::size_t held_default = 0, held_slow = 0, changed = 0;
  constexpr int kBodies = 200;
  for (int i = 0; i < kBodies; ++i) {
    ReplicaFrame base = frame_at(rng, 100, protocol::WorldSettings{});
    ReplicaFrame current = base;
    current.tick = 101;
    for (std::size_t k = 0; k < current.states.size(); k += 3) current.states[k] = test::random_state(rng, current.states[k].id);
    held_default += encode(current, {&base, nullptr}, kinds).size();
    base.world = current.world = slow;
    held_slow += encode(current, {&base, nullptr}, kinds).size();
    base.world = protocol::WorldSettings{};
    changed += encode(current, {&base, nullptr}, kinds).size();
  }
  std::printf("[ world settings ] %d bodies: %zu B with defaults held, %zu B with 0.25/0.5 held, %zu B changing "
              "(%.2f B a change)\n",
              kBodies, held_default, held_slow, changed, static_cast<double>(changed - held_slow) / kBodies);
  EXPECT_LE(held_slow, held_default + 1);
  EXPECT_GE(held_slow + 1, held_default);
  EXPECT_GT(changed, held_slow);
  EXPECT_LE(changed - held_slow, static_cast<std::size_t>(kBodies) * 12);  // at most 12 bytes a change
}

}  // namespace
}  // namespace tickwire

// The deterministic arena under SyncTest: thousands of frames of bot inputs resimulate to the same
// checksums; its state round-trips bit-exact; a planted hidden state is caught with its frame; a
// malformed saved state is refused and leaves the game as it was.
#include <gtest/gtest.h>

#include <cstdio>
#include <vector>

#include "support.h"
#include "tickwire/lockstep/sync_test.h"
#include "tickwire/world/arena_bot_input.h"
#include "tickwire/world/lockstep_arena.h"

namespace tickwire::lockstep {
namespace {

using world::ArenaBotInput;
using world::kArenaInputBytes;
using world::LockstepArena;

constexpr uint32_t kSeats = 4;

struct Bots {
  explicit Bots(uint64_t seed) {
    for (uint32_t s = 0; s < kSeats; ++s) bots.emplace_back(seed * 16 + s);
  }
  std::vector<uint8_t> frame(uint32_t f) {
    std::vector<uint8_t> inputs(kSeats * kArenaInputBytes);
    for (uint32_t s = 0; s < kSeats; ++s) bots[s].sample(f, std::span(inputs).subspan(s * kArenaInputBytes, kArenaInputBytes));
    return inputs;
  }
  std::vector<ArenaBotInput> bots;
};

TEST(ArenaSync, ResimulatesToTheSameChecksumsEveryFrame) {
  const uint64_t seed = test::test_seed(41);
  LockstepArena arena(kSeats, 7);
  SyncTest sync(arena, kSeats, kArenaInputBytes, 8);
  Bots bots(seed);
  for (uint32_t f = 1; f <= 3000; ++f) {
    const auto finding = sync.step(bots.frame(f));
    ASSERT_FALSE(finding.has_value()) << "seed=" << seed << " diverged at frame " << finding->frame;
  }
  EXPECT_EQ(sync.resimulated(), (3000u - 8u) * 8u);
  uint32_t score = 0;
  for (uint32_t s = 0; s < kSeats; ++s) score += arena.ship(s).score;
  std::printf("seed=%llu: 3000 frames, %llu resimulated, %u kills, %u shots in flight\n",
              static_cast<unsigned long long>(seed), static_cast<unsigned long long>(sync.resimulated()), score, arena.shots());
  EXPECT_GT(score, 0u) << "the bots fight: shots fly and hit";
}

TEST(ArenaSync, AHiddenStateIsCaughtWithItsFrame) {
  LockstepArena arena(kSeats, 7);
  arena.plant_hidden_state();
  SyncTest sync(arena, kSeats, kArenaInputBytes, 4);
  Bots bots(3);
  std::optional<SyncTestFinding> finding;
  for (uint32_t f = 1; f <= 200 && !finding; ++f) finding = sync.step(bots.frame(f));
  ASSERT_TRUE(finding.has_value()) << "SyncTest must catch state step() reads but save() omits";
  EXPECT_FALSE(finding->reload_differs);
  EXPECT_GE(finding->frame, 2u);
  std::printf("planted hidden state caught at frame %u (after %u frames)\n", finding->frame, sync.frames());
}

TEST(ArenaSync, StateRoundTripsBitExactAndTwoRunsAgree) {
  LockstepArena a(kSeats, 11), b(kSeats, 11);
  Bots bots_a(5), bots_b(5);
  std::vector<PeerInput> peers(kSeats);
  for (uint32_t f = 1; f <= 500; ++f) {
    const auto ia = bots_a.frame(f);
    const auto ib = bots_b.frame(f);
    for (uint32_t s = 0; s < kSeats; ++s) peers[s] = PeerInput{std::span(ia).subspan(s * kArenaInputBytes, kArenaInputBytes), true};
    a.step(FrameInputs{f, peers});
    for (uint32_t s = 0; s < kSeats; ++s) peers[s] = PeerInput{std::span(ib).subspan(s * kArenaInputBytes, kArenaInputBytes), true};
    b.step(FrameInputs{f, peers});
  }
  std::vector<uint8_t> sa(a.max_state_bytes()), sb(b.max_state_bytes());
  sa.resize(a.save(sa));
  sb.resize(b.save(sb));
  EXPECT_EQ(sa, sb);
  LockstepArena c(kSeats, 99);
  ASSERT_TRUE(c.load(sa).ok());
  std::vector<uint8_t> sc(c.max_state_bytes());
  sc.resize(c.save(sc));
  EXPECT_EQ(sc, sa);
  EXPECT_EQ(c.checksum(sc), a.checksum(sa));
}

TEST(ArenaSync, AMalformedStateIsRefusedAndChangesNothing) {
  LockstepArena arena(kSeats, 7);
  std::vector<uint8_t> good(arena.max_state_bytes());
  good.resize(arena.save(good));
  const uint64_t before = arena.checksum(good);
  std::vector<uint8_t> truncated(good.begin(), good.end() - 1);
  EXPECT_EQ(arena.load(truncated).error(), Error::truncated);
  std::vector<uint8_t> trailing = good;
  trailing.push_back(0);
  EXPECT_EQ(arena.load(trailing).error(), Error::trailing_bytes);
  std::vector<uint8_t> magic = good;
  magic[0] ^= 1;
  EXPECT_EQ(arena.load(magic).error(), Error::value_out_of_range);
  std::vector<uint8_t> seats = good;
  seats[12] = 5;
  EXPECT_FALSE(arena.load(seats).ok());
  std::vector<uint8_t> speed = good;
  speed[14 + 8 + 3] = 0x80;  // ship 0's vx: a speed no step produces (and whose next step would overflow)
  EXPECT_EQ(arena.load(speed).error(), Error::value_out_of_range);
  std::vector<uint8_t> after(arena.max_state_bytes());
  after.resize(arena.save(after));
  EXPECT_EQ(arena.checksum(after), before);
}

}  // namespace
}  // namespace tickwire::lockstep

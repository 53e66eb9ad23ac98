// A room's save state (seed 002): the reference world saved mid-game (a door on its way, a button's
// delayed lights still to come, a crate sliding under a pawn's push, a session with inputs queued
// ahead, a held pawn) reads back into a fresh room bit-exact, and the loaded room goes on as the
// one it came from: the same logic, doors and lights every tick, the delay firing on the same tick,
// a late joiner and a returning player starting alike in both.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "save_room.h"

namespace tickwire::world::rigs {
namespace {

float max_prop_gap_m(const SaveRoom& a, const SaveRoom& b) {
  float gap = 0;
  for (uint32_t slot = 0; slot < a.game.solids().props().size(); ++slot) {
    const Vec3 d = a.game.props().pose(slot).position - b.game.props().pose(slot).position;
    gap = std::max(gap, std::sqrt(d.x * d.x + d.y * d.y + d.z * d.z));
  }
  return gap;
}

TEST(RoomSaveState, TheReferenceWorldMidGameRoundTripsBitExactAndGoesOnAsTheOriginal) {
  SaveRoom a;
  play_to_mid_game(a);
  const uint32_t door = a.index("door.s");
  const uint32_t last_lamp = a.index("light.wall.s.15");
  const float door_at = a.game.object_component(door, 0).channels[0];
  ASSERT_GT(door_at, 0.0f);
  ASSERT_LT(door_at, 1.0f) << "door.s is on its way";
  ASSERT_GT(a.game.logic()->runtime().sizes().scheduled, 1u) << "button.s's delayed lights still to come";
  ASSERT_GT(a.game.props().awake(), 0u) << "a crate is sliding";
  ASSERT_EQ(a.room.session(1)->inputs.queue().waiting_ticks(), 3u);
  ASSERT_EQ(a.room.held_pawns().size(), 1u);

  const std::vector<uint8_t> saved = a.save();
  SaveRoom b;
  const auto refused = b.room.load_whole(saved);
  ASSERT_FALSE(refused) << reason_name(*refused);
  b.next_sequence = a.next_sequence;  // ann's client numbers on (its link moved to the loaded room)
  const std::vector<uint8_t> again = b.save();
  EXPECT_EQ(saved, again) << "save -> load -> save gives the same bytes";
  EXPECT_EQ(save_checksum(saved), save_checksum(again));
  std::printf("save state: %zu bytes at tick %lld, checksum %016llx (after a round trip %016llx)\n", saved.size(),
              static_cast<long long>(a.room.last_tick().value()), static_cast<unsigned long long>(save_checksum(saved)),
              static_cast<unsigned long long>(save_checksum(again)));
  EXPECT_EQ(b.room.last_tick(), a.room.last_tick());
  EXPECT_EQ(b.room.session_count(), 1u);
  EXPECT_EQ(b.room.held_pawns().size(), 1u);

  // Both rooms step on the same inputs: ann keeps shoving for a second, then stands.
  const uint8_t lamp_before = a.game.object_component(last_lamp, 0).bits;
  int64_t lamp_a = -1, lamp_b = -1;
  uint32_t view_mismatches = 0, pawn_mismatches = 0, prop_gap_ticks = 0;
  float max_gap_m = 0;
  for (int t = 1; t <= 300; ++t) {
    for (SaveRoom* r : {&a, &b}) {
      r->send(1, kSaveRoomWalkYaw, t <= 60);
      r->tick();
    }
    if (logic_view(a) != logic_view(b)) ++view_mismatches;
    const PawnState& pa = *a.game.pawn(a.room.session(1)->pawn);
    const PawnState& pb = *b.game.pawn(b.room.session(1)->pawn);
    if (pa.feet != pb.feet || pa.velocity_mps != pb.velocity_mps) ++pawn_mismatches;
    const float gap = max_prop_gap_m(a, b);
    prop_gap_ticks += gap > 0 ? 1 : 0;
    max_gap_m = std::max(max_gap_m, gap);
    if (lamp_a < 0 && a.game.object_component(last_lamp, 0).bits != lamp_before) lamp_a = a.room.last_tick().value();
    if (lamp_b < 0 && b.game.object_component(last_lamp, 0).bits != lamp_before) lamp_b = b.room.last_tick().value();
  }
  std::printf("300 ticks side by side: %u logic/door/light views differ, %u pawn states differ, props apart on %u "
              "ticks (at most %.9f m); the delayed lamp lit at tick %lld (original) and %lld (loaded)\n",
              view_mismatches, pawn_mismatches, prop_gap_ticks, static_cast<double>(max_gap_m),
              static_cast<long long>(lamp_a), static_cast<long long>(lamp_b));
  EXPECT_EQ(view_mismatches, 0u);
  EXPECT_EQ(pawn_mismatches, 0u);
  EXPECT_EQ(prop_gap_ticks, 0u) << "the props' solver bodies come back whole";
  EXPECT_GT(lamp_a, 0) << "the pending delay fired after the save";
  EXPECT_EQ(lamp_a, lamp_b) << "on the same tick in both rooms";
  const std::vector<uint8_t> end_a = a.save(), end_b = b.save();
  const auto differ = std::mismatch(end_a.begin(), end_a.end(), end_b.begin(), end_b.end());
  EXPECT_EQ(end_a, end_b) << "after 300 ticks the two rooms' whole states are the same bytes; first differing at "
                          << (differ.first - end_a.begin()) << " of " << end_a.size() << "/" << end_b.size();
}

// A late joiner and a returning player start from the loaded room as they would from the original:
// the same pawn, placed at the same spawn point, and from then on the same records every tick.
TEST(RoomSaveState, ALateJoinerAndAReturningPlayerStartFromTheLoadedRoomAsFromTheOriginal) {
  SaveRoom a;
  play_to_mid_game(a);
  SaveRoom b;
  ASSERT_FALSE(b.room.load_whole(a.save()));
  b.next_sequence = a.next_sequence;
  const EntityRef bob = a.room.held_pawns().front().pawn;
  std::vector<EntityRef> joined;
  for (SaveRoom* r : {&a, &b}) {
    r->send(1, kSaveRoomWalkYaw, true);
    r->tick();
    const auto pawn = r->room.admit(3, {}, "cy");
    ASSERT_TRUE(pawn);
    joined.push_back(*pawn);
    ASSERT_FALSE(r->room.resume(4, bob, "bob")) << "bob comes back into his held pawn";
  }
  EXPECT_EQ(joined[0], joined[1]);
  EXPECT_EQ(a.game.pawn(joined[0])->feet, b.game.pawn(joined[1])->feet) << "the same spawn point";
  uint32_t record_mismatches = 0;
  std::size_t records = 0;
  for (int t = 1; t <= 240; ++t) {
    for (SaveRoom* r : {&a, &b}) {
      r->send(1, kSaveRoomWalkYaw, t <= 30);
      r->send(3, 180.0f, t % 50 < 25);
      r->send(4, 90.0f, t > 120);
      r->tick();
    }
    const auto va = records_view(a, a.room.last_tick());
    record_mismatches += va != records_view(b, b.room.last_tick()) ? 1 : 0;
    records = va.size();
  }
  std::printf("late join + resume: 240 ticks, %u ticks whose records differ (%zu records a tick)\n", record_mismatches,
              records);
  EXPECT_EQ(record_mismatches, 0u);
  EXPECT_EQ(a.save(), b.save());
}

// A malformed save is refused by name and the room stays as it was (fresh: it then loads a good one).
TEST(RoomSaveState, AMalformedSaveIsRefusedByNameAndLeavesTheRoomUnchanged) {
  SaveRoom a;
  play_to_mid_game(a);
  const std::vector<uint8_t> saved = a.save();
  SaveRoom b;
  const auto refusal = [&](const std::vector<uint8_t>& bytes) { return b.room.load_whole(bytes); };
  for (std::size_t cut = 0; cut < saved.size(); ++cut) {
    const auto why = b.room.load_whole(std::span<const uint8_t>(saved).first(cut));
    ASSERT_TRUE(why) << "cut at " << cut;
    ASSERT_EQ(*why, SaveStateRefusal::truncated) << "cut at " << cut;
  }
  std::vector<uint8_t> trailing = saved;
  trailing.push_back(0);
  EXPECT_EQ(refusal(trailing), SaveStateRefusal::trailing_bytes);
  std::vector<uint8_t> version = saved;
  version[4] = kRoomSaveStateVersion + 1;
  EXPECT_EQ(refusal(version), SaveStateRefusal::wrong_version);
  std::vector<uint8_t> magic = saved;
  magic[0] ^= 0xFF;
  EXPECT_EQ(refusal(magic), SaveStateRefusal::bad_magic);
  constexpr std::size_t kSessionCountAt = 4 + 1 + 8 + 4 + 4;
  std::vector<uint8_t> sessions = saved;
  sessions[kSessionCountAt] = 0;
  sessions[kSessionCountAt + 1] = 4;  // 1,024 sessions, one past a room's client owner ids
  EXPECT_EQ(refusal(sessions), SaveStateRefusal::count_over_cap);
  std::vector<uint8_t> tick = saved;
  tick[12] = 0x80;  // a negative tick
  EXPECT_EQ(refusal(tick), SaveStateRefusal::value_out_of_range);
  const auto at_tick = [&](int64_t value) {
    std::vector<uint8_t> bytes = saved;
    for (int i = 0; i < 8; ++i) bytes[5 + i] = static_cast<uint8_t>(static_cast<uint64_t>(value) >> (8 * i));
    return bytes;
  };
  // The layout's largest tick, 2^40, is 580 years of a 60 Hz room: past what its clock counts.
  EXPECT_EQ(refusal(at_tick(kMaxSaveStateTick)), SaveStateRefusal::value_out_of_range);
  EXPECT_EQ(refusal(at_tick(int64_t{1} << 39)), SaveStateRefusal::value_out_of_range) << "290 years at 60 Hz";
  SaveRoom years;  // 2^34 ticks, nine years at 60 Hz, load and go on
  ASSERT_FALSE(years.room.load_whole(at_tick(int64_t{1} << 34)));
  EXPECT_EQ(years.room.last_tick().value(), int64_t{1} << 34);
  years.tick();
  EXPECT_EQ(years.room.last_tick().value(), (int64_t{1} << 34) + 1);
  std::vector<uint8_t> owner = saved;
  owner[kSessionCountAt + 4] = 0;  // a session owned by the authority
  EXPECT_EQ(refusal(owner), SaveStateRefusal::value_out_of_range);

  EXPECT_EQ(b.room.last_tick(), Tick{});
  EXPECT_EQ(b.room.session_count(), 0u);
  EXPECT_TRUE(b.room.held_pawns().empty());
  EXPECT_EQ(b.game.pawn_count(), 0u);
  ASSERT_FALSE(b.room.load_whole(saved)) << "the refused loads left it fresh";
  EXPECT_EQ(b.room.load_whole(saved), SaveStateRefusal::not_fresh);
}

}  // namespace
}  // namespace tickwire::world::rigs

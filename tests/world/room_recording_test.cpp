// Room recordings (seed 002, "Replays" of the snapshot modes): five simulated minutes of the reference
// world (room_recording_rig.h: doors, crates, moving pawns, late and lost inputs, claims, shots, an
// edit, a departure and a resume, a slowed world, a declared stall) recorded through the room's
// RoomRecorder seam and replayed into a fresh room with 0 divergences; the same recording under a
// changed rule (the mover's walk speed) is told the first tick where that rule matters: the first
// tick a pawn's applied input walks. A malformed recording is refused by name before any replay.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "room_recording_rig.h"
#include "tickwire/server/room_replay.h"

namespace tickwire::world::rigs {
namespace {

constexpr int64_t kFiveMinutes = 5 * kRecordMinuteTicks;

uint64_t test_seed() {
  const char* env = std::getenv("TICKWIRE_SEED");
  return env != nullptr ? std::strtoull(env, nullptr, 10) : 20;
}

const RecordedGame& five_minutes() {
  static const RecordedGame game = [] {
    const uint64_t seed = test_seed();
    std::printf("room recording: seed %llu (rerun with TICKWIRE_SEED=%llu)\n", static_cast<unsigned long long>(seed),
                static_cast<unsigned long long>(seed));
    return record_reference_game(seed, kFiveMinutes);
  }();
  return game;
}

struct Replayed {
  RoomReplayVerdict verdict;
  double seconds = 0;
};

Replayed replay(const RecordedGame& game, const MoverSettings& mover = {}) {
  const RoomRecordingRead read = read_room_recording(game.bytes);
  EXPECT_TRUE(read) << "refused: " << reason_name(read.refusal) << " at " << read.refused_at;
  if (!read) return {};
  SaveRoom fresh_map;  // only its map: the replay builds its own room
  ReferenceGame replayed_game(fresh_map.map, mover);
  const auto began = std::chrono::steady_clock::now();
  Replayed out{replay_room_recording(*read.recording, replayed_game), 0};
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
  return out;
}

TEST(RoomRecording, FiveMinutesOfTheReferenceWorldReplayWithZeroDivergences) {
  const RecordedGame& game = five_minutes();
  const RoomRecordingRead read = read_room_recording(game.bytes);
  ASSERT_TRUE(read) << reason_name(read.refusal);
  EXPECT_EQ(read.recording->ticks, game.ticks);
  EXPECT_EQ(read.recording->event_count, game.events);
  EXPECT_EQ(game.ticks, static_cast<uint64_t>(kFiveMinutes)) << "every tick run is recorded (the stall's declared ones are not run)";
  EXPECT_GT(game.door_moving_ticks, 100u) << "door.s slides (button.s pressed)";
  EXPECT_GT(game.prop_moving_ticks, 100u) << "the crates move";
  EXPECT_GT(game.fires, 30u);
  EXPECT_EQ(game.edits, 2u);
  EXPECT_GT(game.interactions, 5u);
  // Starved ticks of clients that had led ran on the guess, and the recording says which: the
  // replay, handing each input over on its own tick, is told of the lead rather than seeing it.
  uint64_t guessed = 0, repeated = 0;
  RoomEventCursor cursor(*read.recording);
  for (RoomEvent event; cursor.next(event);) {
    for (const RecordedInput& in : event.inputs) {
      guessed += in.guessed ? 1 : 0;
      repeated += in.source == TickInputSource::repeated ? 1 : 0;
    }
  }
  EXPECT_GT(guessed, 100u);
  EXPECT_LE(guessed, repeated);

  const Replayed replayed = replay(game);
  const RoomReplayVerdict& v = replayed.verdict;
  EXPECT_FALSE(v.load_refused);
  EXPECT_FALSE(v.diverged()) << "first divergence at tick " << v.first_divergence->value() << " ("
                             << reason_name(v.divergence) << ", owner " << int{v.owner} << ")";
  EXPECT_EQ(v.ticks_replayed, game.ticks);
  EXPECT_EQ(v.events_replayed, game.events);
  const double minutes = static_cast<double>(game.ticks) / kRecordMinuteTicks;
  const std::size_t event_bytes = game.bytes.size() - game.header_bytes;
  std::printf("recorded %llu ticks (%.1f min at %u Hz, 3 players) in %.2f s: %zu bytes (header with the save state %zu, "
              "events %zu: %.1f KiB per minute), %llu events; door.s moving on %u ticks, crates on %u; %u shots, %u "
              "interactions, %u edits\n",
              static_cast<unsigned long long>(game.ticks), minutes, kRigHz, game.record_s, game.bytes.size(),
              game.header_bytes, event_bytes, static_cast<double>(event_bytes) / 1024.0 / minutes,
              static_cast<unsigned long long>(game.events), game.door_moving_ticks, game.prop_moving_ticks, game.fires,
              game.interactions, game.edits);
  std::printf("replayed %llu ticks, %llu events in %.2f s (%.0fx real time): %s\n",
              static_cast<unsigned long long>(v.ticks_replayed), static_cast<unsigned long long>(v.events_replayed),
              replayed.seconds, minutes * 60.0 / replayed.seconds, v.diverged() ? "diverged" : "0 divergences");
}

TEST(RoomRecording, AChangedWalkSpeedIsToldTheFirstTickAPawnWalks) {
  const RecordedGame& game = five_minutes();
  const RoomRecordingRead read = read_room_recording(game.bytes);
  ASSERT_TRUE(read);
  const Tick first_walk = first_walking_tick(*read.recording);
  ASSERT_GT(first_walk.value(), game.first_tick.value() + kRecordIdleTicks) << "nobody walks in the idle start";
  MoverSettings slower;
  slower.walk_speed_mps = 0.5f;  // below one tick's ground acceleration: the first walking step differs
  const Replayed replayed = replay(game, slower);
  const RoomReplayVerdict& v = replayed.verdict;
  ASSERT_TRUE(v.diverged());
  std::printf("walk speed 4 -> 0.5 m/s: first divergence at tick %lld (%s; the recording starts after tick %lld, the "
              "first walking input applies on tick %lld), recorded %016llx, replayed %016llx; %.2f s\n",
              static_cast<long long>(v.first_divergence->value()), std::string(reason_name(v.divergence)).c_str(),
              static_cast<long long>(game.first_tick.value()), static_cast<long long>(first_walk.value()),
              static_cast<unsigned long long>(v.recorded_checksum), static_cast<unsigned long long>(v.replayed_checksum),
              replayed.seconds);
  EXPECT_EQ(*v.first_divergence, first_walk) << "doors, lights, buttons and standing pawns ran alike until then";
  EXPECT_EQ(v.divergence, ReplayDivergence::witness);
  EXPECT_NE(v.recorded_checksum, v.replayed_checksum);
  EXPECT_EQ(v.ticks_replayed, static_cast<uint64_t>(first_walk - game.first_tick));
}

// A short recording to spoil (its header and a second of events).
const RecordedGame& one_second() {
  static const RecordedGame game = record_reference_game(7, kRigHz);
  return game;
}

std::optional<RecordingRefusal> refusal_of(const std::vector<uint8_t>& bytes) {
  const RoomRecordingRead read = read_room_recording(bytes);
  return read ? std::nullopt : std::optional(read.refusal);
}

std::vector<uint8_t> with_event(const RoomEvent& event, Tick previous) {
  std::vector<uint8_t> bytes = one_second().bytes;
  append_room_event(bytes, event, previous);
  return bytes;
}

TEST(RoomRecording, ARecordingCutAnywhereButBetweenTwoEventsIsRefusedAsTruncated) {
  const RecordedGame& game = one_second();
  const std::vector<uint8_t>& valid = game.bytes;
  ASSERT_FALSE(refusal_of(valid));
  // Cut anywhere: in the header, inside an event, or after a tick's inputs before its witness.
  // A cut between two events (after a witness, or after a change between ticks) is a shorter
  // recording: exactly one cut per event reads.
  uint32_t cuts = 0, shorter = 0;
  for (std::size_t cut = 0; cut < valid.size(); cut = cut + 997 < game.header_bytes ? cut + 997 : std::max(cut + 1, game.header_bytes)) {
    const std::vector<uint8_t> bytes(valid.begin(), valid.begin() + static_cast<std::ptrdiff_t>(cut));
    const auto refused = refusal_of(bytes);
    if (cut >= game.header_bytes && !refused) {
      ++shorter;
      continue;
    }
    ASSERT_TRUE(refused) << "cut at " << cut;
    ASSERT_EQ(*refused, RecordingRefusal::truncated) << "cut at " << cut;
    ++cuts;
  }
  EXPECT_EQ(shorter, game.events - game.ticks) << "every event ends a shorter recording but a tick's inputs";
  std::printf("%u cuts refused as truncated, %u shorter recordings (%zu bytes, header %zu)\n", cuts, shorter, valid.size(),
              game.header_bytes);
}

TEST(RoomRecording, AMalformedRecordingIsRefusedByName) {
  const RecordedGame& game = one_second();
  const std::vector<uint8_t>& valid = game.bytes;
  const Tick last = game.first_tick + kRigHz;
  std::vector<uint8_t> magic = valid;
  magic[0] = 'X';
  EXPECT_EQ(refusal_of(magic), RecordingRefusal::bad_magic);
  std::vector<uint8_t> version = valid;
  version[8] = kRoomRecordingVersion + 1;
  EXPECT_EQ(refusal_of(version), RecordingRefusal::wrong_version);
  std::vector<uint8_t> contract_cap = valid;
  contract_cap[12] = 0x7F;  // the contract's length past its cap
  EXPECT_EQ(refusal_of(contract_cap), RecordingRefusal::count_over_cap);
  std::vector<uint8_t> contract = valid;
  contract[14] ^= 0xFF;  // inside the contract: its version field
  EXPECT_EQ(refusal_of(contract), RecordingRefusal::bad_contract);

  RoomEvent tick;
  tick.kind = RoomEventKind::tick;
  tick.tick = last;  // no later than the last: a gap of 0
  EXPECT_EQ(refusal_of(with_event(tick, last)), RecordingRefusal::value_out_of_range);
  tick.tick = last + 1;
  tick.inputs.assign(2, RecordedInput{});
  tick.inputs[0].owner = 2;
  tick.inputs[1].owner = 1;
  EXPECT_EQ(refusal_of(with_event(tick, last)), RecordingRefusal::out_of_order) << "owners unsorted";
  tick.inputs.assign(1, RecordedInput{});  // owner 0
  EXPECT_EQ(refusal_of(with_event(tick, last)), RecordingRefusal::value_out_of_range) << "the authority's input";
  tick.inputs[0].owner = kRoomMaxSessions + 1;
  EXPECT_EQ(refusal_of(with_event(tick, last)), RecordingRefusal::value_out_of_range) << "an owner past a room's";
  tick.inputs.assign(kRoomMaxSessions + 1, RecordedInput{});
  for (std::size_t i = 0; i < tick.inputs.size(); ++i) tick.inputs[i].owner = static_cast<OwnerId>(i + 1);
  EXPECT_EQ(refusal_of(with_event(tick, last)), RecordingRefusal::count_over_cap) << "more inputs than sessions";
  tick.inputs.clear();
  EXPECT_EQ(refusal_of(with_event(tick, last)), RecordingRefusal::truncated) << "a tick with no witness";
  RoomEvent witness;
  witness.kind = RoomEventKind::witness;
  EXPECT_EQ(refusal_of(with_event(witness, last)), RecordingRefusal::out_of_order) << "a witness outside a tick";
  RoomEvent leave;
  leave.kind = RoomEventKind::leave;
  leave.owner = 2;
  leave.tick = last - 1;
  EXPECT_EQ(refusal_of(with_event(leave, last)), RecordingRefusal::out_of_order) << "a change at another tick";
  leave.tick = last;
  EXPECT_FALSE(refusal_of(with_event(leave, last))) << "a leave after the last tick reads";
  RoomEvent stray_leave = leave;
  stray_leave.owner = kOwnerIdCount;
  EXPECT_EQ(refusal_of(with_event(stray_leave, last)), RecordingRefusal::value_out_of_range) << "no such owner";
  RoomEvent admit = leave;
  admit.kind = RoomEventKind::admit;
  admit.player = std::string(kMaxPlayerNameBytes + 1, 'x');
  EXPECT_EQ(refusal_of(with_event(admit, last)), RecordingRefusal::value_out_of_range) << "a player's name past its cap";
  RoomEvent world = leave;
  world.kind = RoomEventKind::world_settings;
  world.world.time_scale = -1;
  EXPECT_EQ(refusal_of(with_event(world, last)), RecordingRefusal::value_out_of_range);
  std::vector<uint8_t> unknown = valid;
  unknown.push_back(99);
  EXPECT_EQ(refusal_of(unknown), RecordingRefusal::unknown_event);
  std::vector<uint8_t> edit = valid;  // an edit whose gesture is three bytes of nonsense
  ByteRecordWriter write(edit);
  write.u8(static_cast<uint8_t>(RoomEventKind::edit));
  write.i64(last.value());
  write.u16(1);
  write.blob(std::vector<uint8_t>{0xFF, 0xFF, 0xFF});
  EXPECT_EQ(refusal_of(edit), RecordingRefusal::bad_message);
}

// A recording whose save state does not load is refused by the save state's own reason, and a
// recorded change the replayed room would not make is a divergence at its tick.
TEST(RoomRecording, ASpoiledSaveStateOrARefusedChangeStopsTheReplayByName) {
  const RecordedGame& game = one_second();
  const RoomRecordingRead read = read_room_recording(game.bytes);
  ASSERT_TRUE(read);
  RoomRecording spoiled = *read.recording;
  std::vector<uint8_t> state(spoiled.initial_state.begin(), spoiled.initial_state.end());
  state[0] ^= 0xFF;
  spoiled.initial_state = state;
  SaveRoom map_room;
  ReferenceGame a(map_room.map);
  EXPECT_EQ(replay_room_recording(spoiled, a).load_refused, SaveStateRefusal::bad_magic);

  const Tick last = game.first_tick + kRigHz;
  RoomEvent admit;
  admit.kind = RoomEventKind::admit;
  admit.tick = last;
  admit.owner = 1;  // ann is in already
  admit.player = "eve";
  const std::vector<uint8_t> bytes = with_event(admit, last);
  const RoomRecordingRead again = read_room_recording(bytes);
  ASSERT_TRUE(again);
  ReferenceGame b(map_room.map);
  const RoomReplayVerdict v = replay_room_recording(*again.recording, b);
  ASSERT_TRUE(v.diverged());
  EXPECT_EQ(*v.first_divergence, last);
  EXPECT_EQ(v.divergence, ReplayDivergence::change_refused);
  EXPECT_EQ(v.owner, 1);
  EXPECT_EQ(v.ticks_replayed, static_cast<uint64_t>(kRigHz));
}

}  // namespace
}  // namespace tickwire::world::rigs

// A server-time room's recording (seed 002: replays of the non-deterministic mode): three players
// whose inputs arrive stamped, at their own logic rates (30, 60 and 144 Hz against a 60 Hz room:
// none, one or several a tick, merged by the room), sometimes late or lost, recorded for twenty
// seconds and replayed into a fresh room with 0 divergences: what the room applied each tick is
// what the recording holds, however the inputs arrived. Under a changed rule (the walk speed) the
// replay names the first tick a pawn walks.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>

#include "save_room.h"
#include "tickwire/core/rng.h"
#include "tickwire/protocol/timed_input_frame.h"
#include "tickwire/server/room_recording_writer.h"
#include "tickwire/server/room_replay.h"
#include "tickwire/wire/codec.h"

namespace tickwire::world::rigs {
namespace {

constexpr int64_t kTicks = 20 * kRigHz;

RoomConfig server_time_room_config() {
  RoomConfig config = save_room_config();
  config.contract.mode.mode = RuntimeMode::server_time;
  return config;
}

struct TimedPlayer {
  OwnerId owner = 0;
  uint32_t logic_hz = 60;
  uint32_t next_sequence = 0;
  double owed_steps = 0;  // logic steps due by now (fractional)
  float yaw_deg = 0;
};

struct Recorded {
  std::vector<uint8_t> bytes;
  uint64_t ticks = 0;
  uint64_t merged = 0;       // inputs the room took into fresh ticks
  uint64_t fresh_ticks = 0;  // ticks a player's input was fresh
};

Recorded record(uint64_t seed, const Map& map) {
  ReferenceGame game(map);
  Room room(server_time_room_config(), game);
  std::vector<TimedPlayer> players = {{1, 30, 0, 0, 0.0f}, {2, 60, 0, 0, 90.0f}, {3, 144, 0, 0, 180.0f}};
  for (const TimedPlayer& p : players) require(room.admit(p.owner, {}, "p" + std::to_string(p.owner)).has_value(), "admitted");
  RoomRecordingWriter writer(room);
  require(!writer.refused(), "the reference room saves");
  Rng rng(seed);
  NoTickObserver observer;
  for (int64_t t = 1; t <= kTicks; ++t) {
    const uint64_t server_us = protocol::server_time_us_of_tick(static_cast<uint64_t>(room.last_tick().value()), kRigHz);
    for (TimedPlayer& p : players) {
      p.owed_steps += static_cast<double>(p.logic_hz) / kRigHz;
      protocol::TimedInputFrame frame;
      frame.first_sequence = p.next_sequence;
      frame.step_us = 1'000'000 / p.logic_hz;
      frame.newest_stamp_us = server_us;
      for (; p.owed_steps >= 1.0; p.owed_steps -= 1.0) {
        if (rng.unit() < 0.02) p.yaw_deg = static_cast<float>(rng.unit() * 360.0);
        protocol::InputCmd cmd;
        cmd.yaw_deg = p.yaw_deg;
        cmd.move_y = t > 60 ? 1.0f : 0.0f;  // everyone stands the first second
        cmd.move_x = t > 60 ? static_cast<float>(rng.unit() - 0.5) : 0.0f;
        cmd.buttons = rng.unit() < 0.05 ? 0x1u : 0x0u;
        frame.inputs.push_back(cmd);
        ++p.next_sequence;
      }
      if (frame.inputs.empty() || rng.unit() < 0.05) continue;  // none this tick, or lost (the next repeats none of them)
      protocol::TimedInputFrame arrived;  // as the room server decodes it off the wire
      require(wire::decode(wire::encode_bytes(frame), arrived).ok(), "a timed input frame round-trips");
      (void)room.receive_timed_input(p.owner, arrived);
    }
    (void)room.update(room.clock().due_time(room.last_tick() + 1), observer);
  }
  Recorded out;
  out.bytes = writer.bytes();
  out.ticks = writer.ticks();
  for (const TimedPlayer& p : players) {
    const InputQueueStats& stats = room.session(p.owner)->inputs.queue().stats();
    out.merged += stats.merged_inputs;
    out.fresh_ticks += stats.fresh_ticks;
  }
  return out;
}

RoomReplayVerdict replay(const Recorded& recorded, const Map& map, const MoverSettings& mover = {}) {
  const RoomRecordingRead read = read_room_recording(recorded.bytes);
  EXPECT_TRUE(read) << reason_name(read.refusal);
  if (!read) return {};
  ReferenceGame game(map, mover);
  return replay_room_recording(*read.recording, game);
}

TEST(ServerTimeRecording, TimedInputsMergedByTheRoomReplayWithZeroDivergences) {
  const char* env = std::getenv("TICKWIRE_SEED");
  const uint64_t seed = env != nullptr ? std::strtoull(env, nullptr, 10) : 31;
  const Map map = load_rig_map(reference_map_text());
  const Recorded recorded = record(seed, map);
  std::printf("server-time recording: seed %llu, %llu ticks, %zu bytes, %llu inputs merged into %llu fresh ticks\n",
              static_cast<unsigned long long>(seed), static_cast<unsigned long long>(recorded.ticks), recorded.bytes.size(),
              static_cast<unsigned long long>(recorded.merged), static_cast<unsigned long long>(recorded.fresh_ticks));
  EXPECT_EQ(recorded.ticks, static_cast<uint64_t>(kTicks));
  EXPECT_GT(recorded.merged, recorded.fresh_ticks + 1000) << "the 144 Hz player's inputs came several to a tick";
  const RoomReplayVerdict same = replay(recorded, map);
  EXPECT_FALSE(same.load_refused);
  EXPECT_FALSE(same.diverged()) << "first divergence at tick " << same.first_divergence->value() << " ("
                                << reason_name(same.divergence) << ")";
  EXPECT_EQ(same.ticks_replayed, recorded.ticks);
  MoverSettings slow;
  slow.walk_speed_mps = 0.5f;
  const RoomReplayVerdict changed = replay(recorded, map, slow);
  ASSERT_TRUE(changed.diverged());
  EXPECT_GT(changed.first_divergence->value(), 60) << "nobody walked the first second";
  EXPECT_LE(changed.first_divergence->value(), 64);
}

}  // namespace
}  // namespace tickwire::world::rigs

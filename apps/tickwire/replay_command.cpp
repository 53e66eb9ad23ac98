// `tickwire replay FILE [--thrust N] [--walk-speed M] [--map FILE]`: replays a recording and reports
// the first frame or tick that differs from it, if any. The file's magic tells its kind: a
// deterministic match's (lockstep/replay.h; this build knows the arena, world/lockstep_arena.h;
// --thrust plays it under a changed rule) or a snapshot-mode room's (`server --record`;
// server/room_replay.h: the reference game over the built-in map or --map's; --walk-speed plays it
// under a changed rule), as a build with that change would. Exit code 0: no divergence; 1: a
// divergence or a recording that does not read.
#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>

#include "commands.h"
#include "map_option.h"
#include "tickwire/core/regular_file.h"
#include "tickwire/lockstep/replay.h"
#include "tickwire/server/room_replay.h"
#include "tickwire/world/lockstep_arena.h"
#include "tickwire/world/map_loader.h"
#include "tickwire/world/reference_game.h"
#include "tickwire/world/reference_map.h"

namespace tickwire::cli {

namespace {

struct ReplayOptions {
  std::string file;
  int32_t thrust = world::ArenaRules{}.thrust;
  float walk_speed_mps = world::MoverSettings{}.walk_speed_mps;
  std::string map_path;  // empty: the built-in reference map
};

// A snapshot-mode room's recording, replayed over the reference game.
int run_room_replay(const ReplayOptions& o, std::span<const uint8_t> bytes) {
  const RoomRecordingRead read = read_room_recording(bytes);
  if (!read) {
    std::fprintf(stderr, "replay: %s is not a room recording this build reads: %s (at byte %zu)\n", o.file.c_str(),
                 std::string(reason_name(read.refusal)).c_str(), read.refused_at);
    return 1;
  }
  const RoomRecording& recording = *read.recording;
  const RoomIdentity& identity = recording.contract.identity;
  std::optional<world::Map> loaded = load_map_option(o.map_path, "replay");
  if (!loaded) return 1;
  const world::Map map = std::move(*loaded);
  if (identity.game != "tickwire-reference" || identity.content_version != map.content_hash_hex()) {
    std::fprintf(stderr, "replay: %s records game '%s' over map %s; this build replays 'tickwire-reference' over map %s "
                 "(--map names another)\n", o.file.c_str(), identity.game.c_str(), identity.content_version.c_str(),
                 map.content_hash_hex().c_str());
    return 1;
  }
  world::MoverSettings mover;
  mover.walk_speed_mps = o.walk_speed_mps;
  if (!mover.valid()) {
    std::fprintf(stderr, "replay: --walk-speed %g is not a speed the mover takes\n", static_cast<double>(o.walk_speed_mps));
    return 1;
  }
  world::ReferenceGame game(map, mover);
  const double hz = recording.contract.cadence.tick_rate_hz;
  const RoomReplayVerdict verdict = replay_room_recording(recording, game);
  std::printf("replay %s: room %s of %s, %.0f Hz, %llu ticks (%.1f s) after tick %lld, %llu events, %zu bytes\n",
              o.file.c_str(), identity.room_id.c_str(), identity.game.c_str(), hz,
              static_cast<unsigned long long>(recording.ticks), static_cast<double>(recording.ticks) / hz,
              static_cast<long long>(recording.first_tick.value()), static_cast<unsigned long long>(recording.event_count),
              bytes.size());
  if (verdict.load_refused) {
    std::printf("the recorded save state does not load: %s\n", std::string(reason_name(*verdict.load_refused)).c_str());
    return 1;
  }
  if (!verdict.diverged()) {
    std::printf("0 divergences: every tick's witness matches the recording (%llu ticks replayed)\n",
                static_cast<unsigned long long>(verdict.ticks_replayed));
    return 0;
  }
  const int64_t tick = verdict.first_divergence->value();
  std::printf("first divergence at tick %lld (%.2f s into the recording): %s", static_cast<long long>(tick),
              static_cast<double>(tick - recording.first_tick.value()) / hz, std::string(reason_name(verdict.divergence)).c_str());
  if (verdict.divergence == ReplayDivergence::witness) {
    std::printf(", recorded checksum %016llx, replayed %016llx\n", static_cast<unsigned long long>(verdict.recorded_checksum),
                static_cast<unsigned long long>(verdict.replayed_checksum));
  } else {
    std::printf(" of owner %u\n", static_cast<unsigned>(verdict.owner));
  }
  return 1;
}

int run_replay(const ReplayOptions& o) {
  const FileText file = read_regular_file(o.file, std::max(lockstep::kMaxReplayBytes, kMaxRoomRecordingBytes));
  if (!file) {
    std::fprintf(stderr, "replay: %s\n", file.error.c_str());
    return 1;
  }
  const auto* data = reinterpret_cast<const uint8_t*>(file.text.data());
  if (is_room_recording(std::span<const uint8_t>(data, file.text.size())))
    return run_room_replay(o, std::span<const uint8_t>(data, file.text.size()));
  const Result<lockstep::Replay> read = lockstep::read_replay(std::span<const uint8_t>(data, file.text.size()));
  if (!read) {
    std::fprintf(stderr, "replay: %s is not a recording this build reads: %s\n", o.file.c_str(),
                 std::string(reason_name(read.error())).c_str());
    return 1;
  }
  const lockstep::Replay& replay = read.value();
  if (replay.game != "arena" || replay.seats > world::kArenaMaxSeats || replay.input_bytes != world::kArenaInputBytes) {
    std::fprintf(stderr, "replay: %s records game '%s' (%u seats, %u-byte inputs); this build replays 'arena'\n",
                 o.file.c_str(), replay.game.c_str(), replay.seats, replay.input_bytes);
    return 1;
  }
  world::LockstepArena arena(replay.seats, 1, world::ArenaRules{o.thrust});
  const lockstep::ReplayVerdict verdict = lockstep::replay_run(replay, arena);
  std::printf("replay %s: game %s, %u seats, %u Hz, %u frames (%.1f s)\n", o.file.c_str(), replay.game.c_str(), replay.seats,
              replay.logic_hz, replay.frames, replay.frames / static_cast<double>(replay.logic_hz));
  if (!verdict.loaded) {
    std::printf("the initial state does not load: %s\n", std::string(verdict.loaded.name()).c_str());
    return 1;
  }
  if (verdict.first_divergence == lockstep::kNoFrame) {
    std::printf("0 divergences: every frame's checksum matches the recording\n");
    return 0;
  }
  std::printf("first divergence at frame %u (%.2f s): recorded checksum %016llx, replayed %016llx\n",
              verdict.first_divergence, verdict.first_divergence / static_cast<double>(replay.logic_hz),
              static_cast<unsigned long long>(verdict.recorded_checksum),
              static_cast<unsigned long long>(verdict.replayed_checksum));
  return 1;
}

}  // namespace

void register_replay(CLI::App& app) {
  auto* cmd = app.add_subcommand("replay", "replay a recording (a deterministic match's or a room's) and report the first divergence");
  auto o = std::make_shared<ReplayOptions>();
  cmd->add_option("file", o->file, "the recording (`lockstep --record`'s or `server --record`'s)")->required();
  cmd->add_option("--thrust", o->thrust, "replay a deterministic match under a changed rule: the arena's thrust per frame")
      ->check(CLI::Range(1, 1000));
  cmd->add_option("--walk-speed", o->walk_speed_mps, "replay a room under a changed rule: the reference mover's walk speed, m/s")
      ->check(CLI::Range(0.01, 100.0));
  cmd->add_option("--map", o->map_path, "a room recording's map file (default: the built-in reference map)");
  cmd->callback([o] { set_exit_code(run_replay(*o)); });
}

}  // namespace tickwire::cli

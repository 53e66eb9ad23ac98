// `tickwire replay FILE [--thrust N]`: replays a deterministic match's recording (lockstep/replay.h)
// and reports the first frame whose checksum differs from the recording's, if any. The recording
// names its game; this build knows the arena (world/lockstep_arena.h). --thrust plays it under a
// changed rule, as a build with that change would. Exit code 0: no divergence; 1: a divergence or
// a recording that does not read.
#include <cstdio>
#include <memory>
#include <string>

#include "commands.h"
#include "tickwire/core/regular_file.h"
#include "tickwire/lockstep/replay.h"
#include "tickwire/world/lockstep_arena.h"

namespace tickwire::cli {

namespace {

struct ReplayOptions {
  std::string file;
  int32_t thrust = world::ArenaRules{}.thrust;
};

int run_replay(const ReplayOptions& o) {
  const FileText file = read_regular_file(o.file, lockstep::kMaxReplayBytes);
  if (!file) {
    std::fprintf(stderr, "replay: %s\n", file.error.c_str());
    return 1;
  }
  const auto* data = reinterpret_cast<const uint8_t*>(file.text.data());
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
  auto* cmd = app.add_subcommand("replay", "replay a deterministic match's recording and report the first divergence");
  auto o = std::make_shared<ReplayOptions>();
  cmd->add_option("file", o->file, "the recording (written by a RollbackSession's ReplayRecorder)")->required();
  cmd->add_option("--thrust", o->thrust, "replay under a changed rule: the arena's thrust per frame")
      ->check(CLI::Range(1, 1000));
  cmd->callback([o] { set_exit_code(run_replay(*o)); });
}

}  // namespace tickwire::cli

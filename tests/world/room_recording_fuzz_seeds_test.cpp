// The seed corpus of fuzz_room_recording (tests/fixtures/fuzz/fuzz_room_recording/): inputs built here
// from what they claim (the valid one-second recording whole, cut inside a tick, with a leave after
// it, an event kind this build does not know, a witness outside a tick, a wrong version, a wrong
// magic), held to their files (TICKWIRE_FUZZ_SEEDS=write regenerates), and each run through the fuzz
// target's own interpreter so the quick suite checks every seed's verdict without libFuzzer.
#include <gtest/gtest.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "fuzz_seed_check.h"
#include "room_recording_fuzz.h"
#include "support.h"

namespace tickwire::world::rigs {
namespace {

const std::filesystem::path kSeeds = test::source_dir() / "tests" / "fixtures" / "fuzz" / "fuzz_room_recording";

struct Seed {
  std::string name;
  std::vector<uint8_t> input;
  std::optional<RecordingRefusal> verdict;
  bool diverges = false;
};

TEST(RoomRecordingFuzzSeeds, EachSeedIsWhatItClaimsAndGetsItsVerdict) {
  const std::vector<uint8_t>& valid = recording_fuzz_valid();
  ASSERT_LT(valid.size(), 65536u) << "a splice offset is a u16";
  const RoomRecordingRead read = read_room_recording(valid);
  ASSERT_TRUE(read);
  const Tick last = read.recording->last_tick;
  RoomEvent leave;
  leave.kind = RoomEventKind::leave;
  leave.tick = last;
  leave.owner = 2;
  std::vector<uint8_t> leave_bytes;
  append_room_event(leave_bytes, leave, last);
  RoomEvent admit = leave;
  admit.kind = RoomEventKind::admit;
  admit.owner = 3;  // cy is in already: the replayed room refuses it
  admit.player = "eve";
  std::vector<uint8_t> admit_bytes;
  append_room_event(admit_bytes, admit, last);
  std::vector<uint8_t> wrong_version{kFuzzWhole};
  wrong_version.insert(wrong_version.end(), valid.begin(), valid.begin() + 64);
  wrong_version[1 + 8] = kRoomRecordingVersion + 1;
  const std::vector<Seed> seeds = {
      {"valid_one_second", fuzz_splice_input(valid.size()), std::nullopt},
      {"leave_after_the_last_tick", fuzz_splice_input(valid.size(), leave_bytes), std::nullopt},
      {"admit_refused_by_the_replay", fuzz_splice_input(valid.size(), admit_bytes), std::nullopt, true},
      {"cut_inside_the_last_tick", fuzz_splice_input(valid.size() - 12), RecordingRefusal::truncated},
      {"unknown_event", fuzz_splice_input(valid.size(), {99}), RecordingRefusal::unknown_event},
      {"witness_outside_a_tick", fuzz_splice_input(valid.size(), {2, 1, 2, 3, 4, 5, 6, 7, 8}), RecordingRefusal::out_of_order},
      {"wrong_version", wrong_version, RecordingRefusal::wrong_version},
      {"bad_magic", {kFuzzWhole, 'T', 'W', 'X', 'X', 'X', 'X', 'X', 'X'}, RecordingRefusal::bad_magic},
  };
  for (const Seed& seed : seeds) {
    SCOPED_TRACE(seed.name);
    test::check_fuzz_seed(kSeeds, seed.name, seed.input);
    const RecordingFuzzVerdict verdict = run_recording_fuzz_input(seed.input);
    EXPECT_EQ(verdict.refused, seed.verdict);
    EXPECT_EQ(verdict.replayed, !seed.verdict);
    if (verdict.replayed) {
      EXPECT_EQ(verdict.replay.diverged(), seed.diverges);
    }
  }
}

}  // namespace
}  // namespace tickwire::world::rigs

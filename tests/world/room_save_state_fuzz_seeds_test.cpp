// The seed corpus of fuzz_room_save_state (tests/fixtures/fuzz/fuzz_room_save_state/): inputs built
// here from what they claim (the valid mid-game save whole, with a byte after it, cut inside the
// game's part, its last byte spoiled, a session count past the room's cap, a wrong version, a wrong
// magic), held to their files (TICKWIRE_FUZZ_SEEDS=write regenerates), and each run through the
// fuzz target's own interpreter so the quick suite checks every seed's verdict without libFuzzer.
#include <gtest/gtest.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "fuzz_seed_check.h"
#include "save_state_fuzz.h"
#include "support.h"

namespace tickwire::world::rigs {
namespace {

const std::filesystem::path kSeeds = test::source_dir() / "tests" / "fixtures" / "fuzz" / "fuzz_room_save_state";

struct Seed {
  std::string name;
  std::vector<uint8_t> input;
  std::optional<SaveStateRefusal> verdict;
};

TEST(RoomSaveStateFuzzSeeds, EachSeedIsWhatItClaimsAndGetsItsVerdict) {
  const std::vector<uint8_t>& valid = save_fuzz_valid();
  ASSERT_LT(valid.size(), 65536u) << "a splice offset is a u16";
  std::vector<uint8_t> wrong_version{kFuzzWhole};
  wrong_version.insert(wrong_version.end(), valid.begin(), valid.begin() + 64);
  wrong_version[1 + 4] = kRoomSaveStateVersion + 1;
  constexpr std::size_t kSessionCountAt = 4 + 1 + 8 + 4 + 4;
  const std::vector<Seed> seeds = {
      {"valid_mid_game", fuzz_splice_input(valid.size()), std::nullopt},
      {"trailing_byte", fuzz_splice_input(valid.size(), {0}), SaveStateRefusal::trailing_bytes},
      {"cut_in_game", fuzz_splice_input(valid.size() - 100), SaveStateRefusal::truncated},
      {"game_last_byte_spoiled", fuzz_splice_input(valid.size() - 1, {static_cast<uint8_t>(valid.back() ^ 0xFF)}),
       SaveStateRefusal::game_refused},
      {"sessions_over_cap", fuzz_splice_input(kSessionCountAt, {0, 4, 0, 0}), SaveStateRefusal::count_over_cap},
      {"wrong_version", wrong_version, SaveStateRefusal::wrong_version},
      {"bad_magic", {kFuzzWhole, 'X', 'X', 'X', 'X', 1}, SaveStateRefusal::bad_magic},
  };
  for (const Seed& seed : seeds) {
    SCOPED_TRACE(seed.name);
    test::check_fuzz_seed(kSeeds, seed.name, seed.input);
    EXPECT_EQ(run_save_fuzz_input(seed.input), seed.verdict);
  }
}

}  // namespace
}  // namespace tickwire::world::rigs

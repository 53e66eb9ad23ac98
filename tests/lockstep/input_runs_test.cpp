// Input runs: equal consecutive inputs travel once with their count (255 at most a run); a reader
// visits every frame in order, and refuses whole, before visiting anything, a zero count, a run cut
// short or more frames than it may take.
#include <gtest/gtest.h>

#include <vector>

#include "tickwire/lockstep/input_runs.h"

namespace tickwire::lockstep {
namespace {

std::vector<std::vector<uint8_t>> read_all(const std::vector<InputByte>& runs, uint32_t max_frames, Status& status) {
  std::vector<std::vector<uint8_t>> frames;
  status = read_input_runs(runs, 2, max_frames, [&](uint32_t i, std::span<const uint8_t> in) {
    EXPECT_EQ(i, frames.size());
    frames.emplace_back(in.begin(), in.end());
  });
  return frames;
}

TEST(InputRuns, EqualInputsFoldIntoOneRunAndReadBackFrameByFrame) {
  std::vector<InputByte> runs;
  InputRunWriter writer(runs, 2);
  const std::vector<std::vector<uint8_t>> inputs = {{1, 2}, {1, 2}, {1, 2}, {3, 4}, {1, 2}};
  for (const auto& in : inputs) writer.add(in);
  EXPECT_EQ(writer.frames(), 5u);
  EXPECT_EQ(runs.size(), 9u) << "three runs of a count and two bytes";
  Status status;
  EXPECT_EQ(read_all(runs, 32, status), inputs);
  EXPECT_TRUE(status.ok());
}

TEST(InputRuns, ARunStopsAtTwoHundredFiftyFive) {
  std::vector<InputByte> runs;
  InputRunWriter writer(runs, 2);
  const std::vector<uint8_t> same = {9, 9};
  for (int i = 0; i < 300; ++i) writer.add(same);
  ASSERT_EQ(runs.size(), 6u);
  EXPECT_EQ(runs[0].value, 255);
  EXPECT_EQ(runs[3].value, 45);
}

TEST(InputRuns, AZeroCountACutRunOrTooManyFramesIsRefusedWhole) {
  Status status;
  EXPECT_TRUE(read_all({{0}, {1}, {2}}, 32, status).empty());
  EXPECT_EQ(status.error(), Error::value_out_of_range);
  EXPECT_TRUE(read_all({{1}, {1}, {2}, {1}, {3}}, 32, status).empty()) << "the second run is cut short: not even the first is visited";
  EXPECT_EQ(status.error(), Error::truncated);
  EXPECT_TRUE(read_all({{20}, {1}, {2}, {20}, {3}, {4}}, 32, status).empty());
  EXPECT_EQ(status.error(), Error::count_over_max);
}

}  // namespace
}  // namespace tickwire::lockstep

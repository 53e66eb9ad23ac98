// Seeds for fuzz_timed_inputs (tests/fixtures/fuzz/fuzz_timed_inputs/): scripts of ticks and
// timedInputFrames as a 30, a 60 and a 144 Hz client send them (overlapping redundant frames), and
// one stamped past the lead, so the fuzzer starts inside the merge. Each seed is checked to still be
// what it claims (every frame decodes); TICKWIRE_FUZZ_SEEDS=write regenerates.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "fuzz_seed_check.h"
#include "tickwire/protocol/timed_input_frame.h"
#include "tickwire/wire/codec.h"

namespace tickwire {
namespace {

using Bytes = std::vector<uint8_t>;
constexpr uint8_t kTickOp = 0x00;  // fuzz/fuzz_timed_inputs.cpp: below 0x40 a tick, else 0x40 + a frame's length

protocol::TimedInputFrame client_frame(uint32_t first, uint32_t count, uint64_t newest_stamp_us, uint32_t step_us) {
  protocol::TimedInputFrame frame;
  frame.first_sequence = first;
  frame.newest_stamp_us = newest_stamp_us;
  frame.step_us = step_us;
  for (uint32_t i = 0; i < count; ++i) {
    protocol::InputCmd cmd;
    cmd.move_x = (first + i) % 2 == 0 ? 1.0f : -0.5f;
    cmd.move_y = 0.75f;
    cmd.buttons = (first + i) % 5 == 0 ? 0x1u : 0x0u;
    cmd.yaw_deg = static_cast<float>((first + i) % 360);
    frame.inputs.push_back(cmd);
  }
  return frame;
}

void append_frame(Bytes& script, const protocol::TimedInputFrame& frame) {
  const Bytes body = wire::encode_bytes(frame);
  EXPECT_LT(body.size(), 0xC0u);
  script.push_back(static_cast<uint8_t>(0x40 + body.size()));
  script.insert(script.end(), body.begin(), body.end());
}

// `seconds` of a client at `logic_hz` against a 30 Hz room: each client tick sends the last
// `redundancy` inputs; the room ticks every 33.3 ms.
Bytes client_script(uint32_t logic_hz, uint32_t redundancy, double seconds) {
  Bytes script;
  const uint32_t step_us = 1'000'000 / logic_hz;
  const auto inputs = static_cast<uint32_t>(seconds * logic_hz);
  uint64_t next_tick_us = 33'333;
  for (uint32_t s = 0; s < inputs; ++s) {
    const uint64_t stamp = uint64_t{s} * step_us;
    while (stamp >= next_tick_us) {
      script.push_back(kTickOp);
      next_tick_us += 33'333;
    }
    const uint32_t first = s + 1 >= redundancy ? s + 1 - redundancy : 0;
    append_frame(script, client_frame(first, s - first + 1, stamp, step_us));
  }
  return script;
}

TEST(TimedInputsFuzzSeeds, CheckedInSeedsAreScriptsOfDecodableFrames) {
  const auto dir = test::fixtures_dir() / "fuzz" / "fuzz_timed_inputs";
  Bytes ahead;
  append_frame(ahead, client_frame(0, 2, 5'000'000, 16'666));  // five seconds ahead of a room at 0
  ahead.push_back(kTickOp);
  const std::vector<std::pair<std::string, Bytes>> seeds = {
      {"client_30hz", client_script(30, 3, 0.5)},
      {"client_60hz", client_script(60, 4, 0.5)},
      {"client_144hz", client_script(144, 6, 0.3)},
      {"stamped_ahead", ahead},
  };
  for (const auto& [name, script] : seeds) {
    test::check_fuzz_seed(dir, name, script);
    // Every frame in it decodes as one a client could send.
    std::size_t at = 0, frames = 0;
    while (at < script.size()) {
      const uint8_t op = script[at++];
      if (op < 0x40) continue;
      const std::size_t length = op - 0x40u;
      protocol::TimedInputFrame frame;
      ASSERT_TRUE(wire::decode(std::span<const uint8_t>(script.data() + at, length), frame).ok()) << name;
      EXPECT_TRUE(protocol::timed_input_frame_valid(frame)) << name;
      at += length;
      ++frames;
    }
    EXPECT_GT(frames, 0u) << name;
  }
}

}  // namespace
}  // namespace tickwire

// The interpreter of fuzz_room_recording, shared with its seed test: an input is a room recording,
// either whole (mode 0: the input's rest) or spliced into a valid one (mode 1: one second of the
// reference world, room_recording_rig.h, up to the input's u16 offset, the input's rest after), so
// the fuzzer reaches the events past the header and its save state. What reads is replayed over the
// reference game when its contract is the valid one's; nothing may crash.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "room_recording_rig.h"
#include "save_state_fuzz.h"
#include "tickwire/server/room_replay.h"

namespace tickwire::world::rigs {

inline constexpr uint8_t kRecordingFuzzWhole = 0;
inline constexpr uint8_t kRecordingFuzzSpliced = 1;

// The valid recording every spliced input starts from (built once, the same in the fuzzer and tests).
inline const std::vector<uint8_t>& recording_fuzz_valid() {
  static const std::vector<uint8_t> valid = record_reference_game(7, kRigHz).bytes;
  return valid;
}

inline std::vector<uint8_t> recording_fuzz_bytes(std::span<const uint8_t> input) {
  if (input.empty()) return {};
  const std::span<const uint8_t> rest = input.subspan(1);
  if (input[0] != kRecordingFuzzSpliced || rest.size() < 2) return {rest.begin(), rest.end()};
  const std::vector<uint8_t>& valid = recording_fuzz_valid();
  const std::size_t at = (std::size_t{rest[0]} | std::size_t{rest[1]} << 8) % (valid.size() + 1);
  std::vector<uint8_t> out(valid.begin(), valid.begin() + static_cast<std::ptrdiff_t>(at));
  out.insert(out.end(), rest.begin() + 2, rest.end());
  return out;
}

struct RecordingFuzzVerdict {
  std::optional<RecordingRefusal> refused;  // the reader's
  bool replayed = false;
  RoomReplayVerdict replay;
};

inline RecordingFuzzVerdict run_recording_fuzz_input(std::span<const uint8_t> input) {
  RecordingFuzzVerdict out;
  const std::vector<uint8_t> bytes = recording_fuzz_bytes(input);
  const RoomRecordingRead read = read_room_recording(bytes);
  if (!read) {
    out.refused = read.refusal;
    return out;
  }
  static const ContractHash valid_contract = [] {
    return contract_hash(read_room_recording(recording_fuzz_valid()).recording->contract);
  }();
  if (contract_hash(read.recording->contract) != valid_contract) return out;  // another game's: not replayed
  ReferenceGame game(save_fuzz_map());
  out.replay = replay_room_recording(*read.recording, game);
  out.replayed = true;
  return out;
}

}  // namespace tickwire::world::rigs

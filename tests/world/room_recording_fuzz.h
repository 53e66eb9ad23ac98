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

#include "fuzz_splice.h"
#include "room_recording_rig.h"
#include "save_state_fuzz.h"
#include "tickwire/server/room_replay.h"

namespace tickwire::world::rigs {

// The valid recording every spliced input starts from (built once, the same in the fuzzer and tests).
inline const std::vector<uint8_t>& recording_fuzz_valid() {
  static const std::vector<uint8_t> valid = record_reference_game(7, kRigHz).bytes;
  return valid;
}

inline std::vector<uint8_t> recording_fuzz_bytes(std::span<const uint8_t> input) {
  return fuzz_spliced_bytes(input, recording_fuzz_valid);
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

// Replays of deterministic mode (issue 20): a match is its initial state and, for every frame, each
// seat's canonical input and the frame's checksum, so a recording is small and complete. Replaying
// steps the game from the initial state on the recorded inputs and compares every frame's checksum:
// the same build reproduces the run with no divergence; a build whose rules changed is told the
// first frame that differs. The file is read with every length bounds-checked.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "tickwire/core/status.h"
#include "tickwire/lockstep/deterministic_game.h"
#include "tickwire/lockstep/lockstep_settings.h"

namespace tickwire::lockstep {

inline constexpr std::size_t kMaxReplayGameNameBytes = 64;
inline constexpr std::size_t kMaxReplayStateBytes = 16u << 20;
inline constexpr std::size_t kMaxReplayBytes = 512u << 20;  // a recorder stops taking frames past this

// Told of every frame as a session confirms it, in order: each seat's canonical input and presence,
// and the checksum of the state after it.
class ConfirmedFrameSink {
 public:
  virtual ~ConfirmedFrameSink() = default;
  virtual void on_confirmed(uint32_t frame, std::span<const PeerInput> inputs, uint64_t checksum) = 0;
};

// A recording being made: the header and the initial state up front, then one fixed-size record
// per confirmed frame.
class ReplayRecorder final : public ConfirmedFrameSink {
 public:
  // `initial_state` is the game's state before frame 1 (its save()).
  ReplayRecorder(std::string game, uint32_t logic_hz, uint32_t seats, uint32_t input_bytes,
                 std::span<const uint8_t> initial_state);
  void on_confirmed(uint32_t frame, std::span<const PeerInput> inputs, uint64_t checksum) override;
  // The file's bytes so far (a whole recording at every moment).
  const std::vector<uint8_t>& bytes() const { return bytes_; }
  uint32_t frames() const { return frames_; }
  uint64_t frames_refused() const { return frames_refused_; }  // past the size cap, or out of order

 private:
  uint32_t seats_;
  uint32_t input_bytes_;
  uint32_t frames_ = 0;
  uint64_t frames_refused_ = 0;
  std::vector<uint8_t> bytes_;
};

// One frame's record: [presence u16][seats x input][checksum u64].
constexpr std::size_t replay_record_bytes(uint32_t seats, uint32_t input_bytes) {
  return 2 + static_cast<std::size_t>(seats) * input_bytes + 8;
}

struct Replay {
  std::string game;
  uint32_t logic_hz = 0;
  uint32_t seats = 0;
  uint32_t input_bytes = 0;
  std::vector<uint8_t> initial_state;
  uint32_t frames = 0;
  std::vector<uint8_t> records;  // frames x record_bytes()
  std::size_t record_bytes() const { return replay_record_bytes(seats, input_bytes); }
};

// Reads a recording; refused whole (a named error) when it does not read.
Result<Replay> read_replay(std::span<const uint8_t> bytes);

struct ReplayVerdict {
  Status loaded;                        // the game's load() of the initial state
  uint32_t frames_replayed = 0;
  uint32_t first_divergence = kNoFrame;  // the first frame whose checksum differs from the recording's
  uint64_t recorded_checksum = 0;        // at that frame, the recording's and ours
  uint64_t replayed_checksum = 0;
};

// Steps `game` from the recording's initial state through every frame on its inputs, stopping at
// the first frame whose checksum differs.
ReplayVerdict replay_run(const Replay& replay, DeterministicGame& game);

}  // namespace tickwire::lockstep

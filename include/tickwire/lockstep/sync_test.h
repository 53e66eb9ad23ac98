// SyncTest (GGPO's name for it): runs a game alone and, after every frame, loads the state from
// `distance` frames back and resimulates to the present on the same inputs, comparing each frame's
// checksum with its first run's. A game whose step reads anything its save does not hold, or that
// is not a function of its state and inputs, diverges here, and the test names the frame.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "tickwire/lockstep/deterministic_game.h"

namespace tickwire::lockstep {

struct SyncTestFinding {
  uint32_t frame = 0;          // the first frame whose resimulation disagreed
  bool reload_differs = false; // the state loaded back did not save to the same bytes
};

class SyncTest {
 public:
  // Every frame takes `seats` inputs of `input_bytes` each; `distance` >= 1 frames are resimulated.
  SyncTest(DeterministicGame& game, uint32_t seats, uint32_t input_bytes, uint32_t distance);

  // Runs the next frame on `inputs` (seats x input_bytes, every seat present), then rolls back and
  // resimulates. Returns the first disagreement found, or nothing.
  std::optional<SyncTestFinding> step(std::span<const uint8_t> inputs);
  uint32_t frames() const { return frame_; }
  uint64_t resimulated() const { return resimulated_; }

 private:
  std::span<uint8_t> state(uint32_t frame);
  void run(uint32_t frame);

  DeterministicGame& game_;
  uint32_t seats_;
  uint32_t input_bytes_;
  uint32_t distance_;
  uint32_t ring_;
  uint32_t frame_ = 0;
  uint64_t resimulated_ = 0;
  std::vector<uint8_t> states_;   // the state after each frame in the ring
  std::vector<uint32_t> sizes_;
  std::vector<uint64_t> checksums_;
  std::vector<uint8_t> inputs_;   // each frame's inputs
  std::vector<uint8_t> scratch_;
  std::vector<PeerInput> peers_;
};

}  // namespace tickwire::lockstep

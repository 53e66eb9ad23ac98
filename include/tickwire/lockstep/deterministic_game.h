// The seam a deterministic game implements (seed 002, "Deterministic Mode"): the engine owns the
// frame clock, the inputs and the rollback; the game owns a state it can save to bytes, load back,
// step by one frame from every peer's input, and hash. Nothing else may feed its step (no clock, no
// global RNG, no float whose result depends on the compiler): SyncTest catches what slips through.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "tickwire/core/status.h"

namespace tickwire::lockstep {

// One peer's input for one frame. A peer that has left (or never sat) is absent: its bytes are zero.
struct PeerInput {
  std::span<const uint8_t> bytes;
  bool present = true;
};

// Every seat's input for one frame, in seat order.
struct FrameInputs {
  uint32_t frame = 0;
  std::span<const PeerInput> peers;
};

class DeterministicGame {
 public:
  virtual ~DeterministicGame() = default;

  // The seats it is played with and the size of one seat's input: a match whose terms differ is
  // refused (a session never steps a game with inputs it cannot read).
  virtual uint32_t seats() const = 0;
  virtual uint32_t input_bytes() const = 0;
  // The most bytes save() writes: the engine preallocates its rollback ring from it.
  virtual std::size_t max_state_bytes() const = 0;
  // Writes the whole state (everything step() reads) and returns the bytes written.
  virtual std::size_t save(std::span<uint8_t> out) const = 0;
  // Replaces the state with a saved one; a malformed one is refused and leaves the state unchanged.
  virtual Status load(std::span<const uint8_t> saved) = 0;
  // Advances the state by one frame.
  virtual void step(const FrameInputs& inputs) = 0;
  // The state's checksum, exchanged between peers to detect divergence. The default hashes the
  // saved bytes (BLAKE2b); a game may hash less (what matters) or faster.
  virtual uint64_t checksum(std::span<const uint8_t> saved) const;
};

// Where a peer's own input comes from: asked once per frame, for frame `frame`.
class LocalInputSource {
 public:
  virtual ~LocalInputSource() = default;
  virtual void sample(uint32_t frame, std::span<uint8_t> out) = 0;
};

// BLAKE2b over bytes, folded to 64 bits: the default checksum.
uint64_t state_hash(std::span<const uint8_t> bytes);

}  // namespace tickwire::lockstep

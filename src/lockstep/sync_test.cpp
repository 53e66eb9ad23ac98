// SyncTest: the states, inputs and first-run checksums of the last `distance` + 1 frames in rings.
#include "tickwire/lockstep/sync_test.h"

#include <algorithm>

#include "tickwire/core/assert.h"

namespace tickwire::lockstep {

SyncTest::SyncTest(DeterministicGame& game, uint32_t seats, uint32_t input_bytes, uint32_t distance)
    : game_(game), seats_(seats), input_bytes_(input_bytes), distance_(distance), ring_(distance + 1) {
  TW_ASSERT(distance >= 1 && seats >= 1 && input_bytes >= 1, "a sync test needs a distance, seats and inputs");
  const std::size_t bytes = game.max_state_bytes();
  states_.assign(ring_ * bytes, 0);
  sizes_.assign(ring_, 0);
  checksums_.assign(ring_, 0);
  inputs_.assign(static_cast<std::size_t>(ring_) * seats * input_bytes, 0);
  scratch_.assign(bytes, 0);
  peers_.assign(seats, PeerInput{});
  sizes_[0] = static_cast<uint32_t>(game_.save(state(0)));
  checksums_[0] = game_.checksum(state(0).first(sizes_[0]));
}

std::span<uint8_t> SyncTest::state(uint32_t frame) {
  const std::size_t bytes = game_.max_state_bytes();
  return std::span<uint8_t>(states_.data() + (frame % ring_) * bytes, bytes);
}

void SyncTest::run(uint32_t frame) {
  const std::size_t row = static_cast<std::size_t>(frame % ring_) * seats_ * input_bytes_;
  for (uint32_t s = 0; s < seats_; ++s) {
    peers_[s] = PeerInput{std::span<const uint8_t>(inputs_.data() + row + s * input_bytes_, input_bytes_), true};
  }
  game_.step(FrameInputs{frame, peers_});
}

std::optional<SyncTestFinding> SyncTest::step(std::span<const uint8_t> inputs) {
  TW_ASSERT(inputs.size() == static_cast<std::size_t>(seats_) * input_bytes_, "a frame's inputs are seats x input bytes");
  const uint32_t frame = ++frame_;
  std::copy(inputs.begin(), inputs.end(), inputs_.begin() + static_cast<std::ptrdiff_t>((frame % ring_) * seats_ * input_bytes_));
  run(frame);
  sizes_[frame % ring_] = static_cast<uint32_t>(game_.save(state(frame)));
  checksums_[frame % ring_] = game_.checksum(state(frame).first(sizes_[frame % ring_]));
  if (frame <= distance_) return std::nullopt;

  const uint32_t from = frame - distance_;
  const std::span<const uint8_t> saved = state(from).first(sizes_[from % ring_]);
  const Status loaded = game_.load(saved);
  TW_ASSERT(loaded.ok(), "the game refused a state it saved");
  const std::size_t resaved = game_.save(scratch_);
  if (resaved != saved.size() || !std::equal(saved.begin(), saved.end(), scratch_.begin())) {
    return SyncTestFinding{from, true};
  }
  for (uint32_t f = from + 1; f <= frame; ++f) {
    run(f);
    ++resimulated_;
    const std::size_t n = game_.save(scratch_);
    if (game_.checksum(std::span<const uint8_t>(scratch_.data(), n)) != checksums_[f % ring_]) return SyncTestFinding{f, false};
  }
  return std::nullopt;
}

}  // namespace tickwire::lockstep

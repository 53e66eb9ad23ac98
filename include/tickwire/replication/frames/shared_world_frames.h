// SharedWorldFrames: the tick's quantized world states, kept once for every client. A client's sent
// frame points into them instead of copying each state (140 bytes, per client, per tick, kept for
// the whole baseline window), so what the builder and the encoder stream per client is a list of
// pointers, and the states they read are shared by every client that sees them. A frame stays
// alive while any sent frame holds it; a released one is reused in place, without allocating.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "tickwire/replication/frames/replica_state.h"

namespace tickwire {

// One tick's states, as published.
struct WorldStates {
  uint32_t tick = 0;
  std::vector<ReplicaState> states;  // ascending id
  // Whether `state` is one of these states.
  bool holds(const ReplicaState* state) const {
    return !states.empty() && state >= states.data() && state < states.data() + states.size();
  }
};

class SharedWorldFrames {
 public:
  // Frames alive at once: the baseline window of sent frames, the holds they keep, and slack.
  static constexpr uint32_t kDefaultMaxFrames = 96;

  explicit SharedWorldFrames(uint32_t max_frames = kDefaultMaxFrames);  // 0: publish() never shares

  // Copies the tick's states into a frame no sent frame holds any more (or a new one, up to
  // max_frames). Null when every frame is still held: the caller copies states instead.
  std::shared_ptr<const WorldStates> publish(uint32_t tick, std::span<const ReplicaState> states);

  uint32_t frames() const { return static_cast<uint32_t>(frames_.size()); }  // allocated so far
  uint32_t max_frames() const { return max_frames_; }

 private:
  uint32_t max_frames_;
  std::vector<std::shared_ptr<WorldStates>> frames_;
};

}  // namespace tickwire

// SharedWorldFrames: the tick's quantized world states, kept once for every client. A client's sent
// frame points into them instead of copying each state (136 bytes, per client, per tick, kept for
// the whole baseline window), so what the builder and the encoder stream per client is a list of
// pointers, and the states they read are shared by every client that sees them. A frame stays
// alive while any sent frame holds it; a released one is reused in place, without allocating.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "tickwire/core/reasons.h"
#include "tickwire/protocol/constants.h"
#include "tickwire/replication/frames/replica_state.h"

namespace tickwire {

// What happened to the sharing, counted by the builder for the server's stats
// (replication.world_frames.<reason>); all zero while every client's frames go out every tick.
TW_REASONS(WorldFrameEvent,
  pool_dry,       // a tick found no free shared frame: every client's frame copied its states
  released,       // a sent frame past the baseline window let go of its world frames (its client's frames stopped going out)
  newest_copied   // a client's newest sent frame, past the window, copied its states to let go of theirs
)

// The most world frames sent frames can hold at once: a sent frame is let go once it is more than
// MaxBaselineTicks + 1 ticks old (SentFrameHistory::expire, before each tick's frame), and points
// only into frames at most MaxBaselineTicks older than itself (ClientSnapshotBuilder::share), so
// every frame held is of the last 2 * MaxBaselineTicks + 2 ticks, whatever the clients do; and one
// more, the tick being published.
inline constexpr uint32_t kMaxHeldWorldFrames = 2 * static_cast<uint32_t>(protocol::MaxBaselineTicks) + 3;

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
  // Frames alive at once: kMaxHeldWorldFrames (67) and slack, so publish() never comes back empty
  // in a room (it allocates only what is held: about 40 frames in a room whose clients ack).
  static constexpr uint32_t kDefaultMaxFrames = 96;
  static_assert(kDefaultMaxFrames >= kMaxHeldWorldFrames, "the pool must outlast what sent frames can hold");

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

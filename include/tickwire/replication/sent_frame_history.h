// SentFrameHistory: the frames one client was sent, kept until they are too old to be a delta
// baseline, so a transport ack for tick T names the exact state the client holds and the next
// snapshot can be coded against it. Slots are reused in place: no allocation after warm-up.
#pragma once

#include <cstdint>
#include <vector>

#include "tickwire/clock/tick.h"
#include "tickwire/protocol/constants.h"
#include "tickwire/replication/replica_state.h"

namespace tickwire {

// Who a frame's state belongs to: the server's dense replication index and the incarnation it had,
// parallel to ReplicaFrame::states (a reused index is not the entity the client remembers).
struct FrameEntity {
  uint32_t entity = 0;
  uint32_t incarnation = 0;
};

struct SentFrame {
  Tick tick;
  ReplicaFrame frame;                 // what the client holds once it decodes this tick
  std::vector<FrameEntity> entities;  // parallel to frame.states
  bool valid = false;                 // holds a frame (slots start empty)
  bool acked = false;                 // the client is known to have received it
};

class SentFrameHistory {
 public:
  static constexpr uint32_t kMinFrames = 4;  // the new frame, the newest sent, a baseline and an older reference
  static constexpr uint32_t kMaxFrames = protocol::MaxBaselineTicks + 1;

  explicit SentFrameHistory(uint32_t frames = kMaxFrames);

  // References for a frame at `tick`: the newest acked frame at most max_age_ticks old, and the
  // newest acked one before it (for prediction); null where there is none.
  struct References {
    const SentFrame* baseline = nullptr;
    const SentFrame* older = nullptr;
  };
  References references(Tick tick, uint32_t max_age_ticks) const;

  // The newest frame sent (a discarded one does not count); null before the first.
  const SentFrame* newest() const;

  // A cleared slot for the frame of `tick`, never one of `keep`'s frames nor `newest`: the newest
  // frame older than keep.older (one that can no longer be a reference when `keep` was computed
  // with the window later calls use), else an empty slot, else the oldest frame. Ticks must
  // increase from one call to the next. The slot is valid (and ackable) once returned.
  SentFrame& begin(Tick tick, const References& keep, const SentFrame* newest);
  // Marks the last begin()'s frame as never sent (its snapshot was refused): it cannot be acked.
  void discard_last();

  // The client received the frame of `tick` (every fragment of it). False when no frame of that
  // tick is held (too old, or never sent): a late or hostile ack changes nothing.
  bool acknowledge(Tick tick);

  const SentFrame* find(Tick tick) const;
  uint32_t capacity() const { return static_cast<uint32_t>(slots_.size()); }

 private:
  std::size_t slot_to_reuse(const References& keep, const SentFrame* newest) const;

  std::vector<SentFrame> slots_;
  std::size_t last_ = SIZE_MAX;  // the slot of the newest begin()
  bool begun_ = false;
  Tick last_tick_;  // the newest begin()'s tick
};

}  // namespace tickwire

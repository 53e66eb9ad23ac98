// SentFrameHistory: the frames one client was sent, kept until they are too old to be a delta
// baseline, so a transport ack for tick T names the exact state the client holds and the next
// snapshot can be coded against it. Slots are reused in place: no allocation after warm-up.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "tickwire/clock/tick.h"
#include "tickwire/protocol/constants.h"
#include "tickwire/protocol/input_frame.h"
#include "tickwire/replication/frames/reference_frames.h"
#include "tickwire/replication/frames/replica_state.h"
#include "tickwire/replication/frames/shared_world_frames.h"
#include "tickwire/replication/delta/snapshot_delta_codec.h"

namespace tickwire {

// Who a frame's state belongs to: the server's dense replication index and the incarnation it had,
// parallel to ReplicaFrame::states (a reused index is not the entity the client remembers).
struct FrameEntity {
  uint32_t entity = 0;
  uint32_t incarnation = 0;
};

// What the client holds once it decodes this tick. Its states are pointers: into the shared world
// frames it keeps alive (`sources`), or into its own `copies` (a state no shared frame holds).
struct SentFrame {
  static constexpr std::size_t kMaxSources = 8;  // shared world frames one sent frame may point into

  SentFrame() = default;
  // A copy would point into the original's copies: frames stay where the history put them (a
  // moved vector keeps its elements in place).
  SentFrame(const SentFrame&) = delete;
  SentFrame& operator=(const SentFrame&) = delete;
  SentFrame(SentFrame&&) = default;
  SentFrame& operator=(SentFrame&&) = default;

  Tick tick;
  std::optional<protocol::OwnerDetail> owner;  // the owning client's truth, exact
  std::vector<const ReplicaState*> states;     // ascending id
  protocol::WorldSettings world;               // the room's settings at the tick
  std::vector<FrameEntity> entities;           // parallel to states
  std::vector<std::shared_ptr<const WorldStates>> sources;  // at most kMaxSources
  std::vector<ReplicaState> copies;  // pointed at once complete (they may move while added)

  FrameView view() const { return FrameView(tick.wire_u32(), owner, states, world, this); }
  // Keeps `frame`'s owner detail and states as copies (a caller without shared world frames).
  void assign(const ReplicaFrame& frame);
  // Copies every state it points to into `copies` and lets go of its shared world frames (false:
  // it held none). Allocates: the rare path of a client whose frames stopped going out.
  bool own_states();
  // The shared world frame `state` is in (null: one of the copies).
  const std::shared_ptr<const WorldStates>* source_of(const ReplicaState* state) const;
};

class SentFrameHistory final : public ReferenceFrames {
 public:
  static constexpr uint32_t kMinFrames = 4;  // the new frame, the newest sent, a baseline and an older reference
  static constexpr uint32_t kMaxFrames = protocol::MaxBaselineTicks + 1;
  // A frame more than kWindowTicks old is no baseline, older reference or fit frame any more; one
  // more than kExpireAfterTicks old is dropped by expire() (a client served every tick has had it
  // replaced by then: only a client whose frames stopped going out still has such a frame).
  static constexpr uint32_t kWindowTicks = protocol::MaxBaselineTicks;
  static constexpr uint32_t kExpireAfterTicks = kWindowTicks + 1;

  explicit SentFrameHistory(uint32_t frames = kMaxFrames);

  // References for a frame at `tick`: the newest acked frame at most max_age_ticks old, and the
  // acked one nearest to one baseline age before it (for prediction); null where there is none.
  struct References {
    const SentFrame* baseline = nullptr;
    const SentFrame* older = nullptr;
  };
  References references(Tick tick, uint32_t max_age_ticks) const;

  // The newest frame sent (a discarded one does not count); null before the first.
  const SentFrame* newest() const;

  // A cleared slot for the frame of `tick`: the oldest one that is none of `keep`'s frames nor
  // `newest`. Ticks must increase from one call to the next, except that a tick whose frame was
  // just discarded may be begun again. The slot is valid (and ackable) once returned.
  SentFrame& begin(Tick tick, const References& keep, const SentFrame* newest);
  // Marks the last begin()'s frame as never sent (its snapshot was refused): it cannot be acked,
  // and lets go of its world frames at once.
  void discard_last();

  // Lets go of what no delta can use any more, so a client whose frames stop going out (a frozen or
  // dead process, until its timeout) holds no older shared world frames than one served every tick:
  // every frame more than kExpireAfterTicks before `now` is dropped (find() and acks no longer see
  // it), but for the newest frame, which the next frame's held states are read from: it keeps its
  // states as copies instead. Call before the frame of `now` is composed; idempotent.
  struct Expired {
    uint32_t released = 0;       // frames dropped
    uint32_t newest_copied = 0;  // 1: the newest frame copied its states
  };
  Expired expire(Tick now);

  // The client received the frame of `tick` (every fragment of it). False when no frame of that
  // tick is held (too old, or never sent): a late or hostile ack changes nothing.
  bool acknowledge(Tick tick);
  // The client's own report of what it holds (SnapshotsHeld): marks every frame it names as acked
  // (a hostile report only names frames we sent; a frame it claims falsely is its own loss).
  // Returns how many frames became references.
  uint32_t on_held(const protocol::SnapshotsHeld& held);

  const SentFrame* find(Tick tick) const;
  // A frame the client is known to hold (acked), by wire tick: what a delta body may fit over.
  FrameView held_frame(uint32_t tick) const override;
  // The codec's references for a frame at `tick`: references() as frames, this history to fit over.
  DeltaRefs delta_refs(Tick tick, uint32_t max_age_ticks) const;
  uint32_t capacity() const { return static_cast<uint32_t>(slots_.size()); }

 private:
  // What the scans read, packed apart from the frames (a client's frames are cold by its next tick;
  // one line of marks answers which of them to touch).
  struct SlotMark {
    Tick tick;
    bool valid = false;  // holds a frame (slots start empty)
    bool acked = false;  // the client is known to have received it
  };
  static bool usable(const SlotMark& mark, Tick tick, uint32_t max_age_ticks);
  References scan_references(Tick tick, uint32_t max_age_ticks) const;
  std::size_t free_slot(const References& keep, const SentFrame* newest) const;
  void clear_slot(std::size_t i);

  std::vector<SentFrame> slots_;
  std::vector<SlotMark> marks_;  // parallel to slots_
  std::size_t last_ = SIZE_MAX;    // the slot of the newest begin()
  std::size_t newest_ = SIZE_MAX;  // the slot newest() names (last_ unless that was discarded)
  bool begun_ = false;
  Tick last_tick_;  // the newest begin()'s tick
  // The last references() answer: a tick asks it three times (prefetch, compose, encode), and the
  // scans read every mark. Forgotten whenever a mark changes in a way that could change it.
  struct ReferencesMemo {
    bool valid = false;
    Tick tick;
    uint32_t max_age_ticks = 0;
    References refs;
  };
  mutable ReferencesMemo memo_;
};

}  // namespace tickwire

// FrameView: one frame's records wherever they are kept, as the SnapshotDelta codec reads them. A
// client's decoded ReplicaFrame owns its states; a server's sent frame holds pointers into the
// shared world frames (a state is kept once per tick, not once per client), so a view reads either.
// Cheap to copy; valid while the frame it views lives. A default view is "no frame".
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

#include "tickwire/replication/frames/replica_state.h"

namespace tickwire {

// How far ahead of a walk through a frame its states are fetched (a frame of pointers reads
// scattered states).
inline constexpr std::size_t kPrefetchAheadRecords = 6;

class FrameView {
 public:
  FrameView() = default;
  // Implicit, so a frame (or a frame pointer, null for none) is given where a view is asked.
  FrameView(const ReplicaFrame* frame)  // NOLINT(google-explicit-constructor)
      : present_(frame != nullptr),
        tick_(frame != nullptr ? frame->tick : 0),
        owner_(frame != nullptr ? &frame->owner : nullptr),
        states_(frame != nullptr ? frame->states.data() : nullptr),
        size_(frame != nullptr ? frame->states.size() : 0),
        world_(frame != nullptr ? frame->world : protocol::WorldSettings{}),
        identity_(frame) {}
  FrameView(const ReplicaFrame& frame) : FrameView(&frame) {}  // NOLINT(google-explicit-constructor)
  // A frame of pointers (ascending id), `identity` the object that holds them.
  FrameView(uint32_t tick, const std::optional<protocol::OwnerDetail>& owner,
            std::span<const ReplicaState* const> states, const protocol::WorldSettings& world, const void* identity)
      : present_(true),
        tick_(tick),
        owner_(&owner),
        refs_(states.data()),
        size_(states.size()),
        world_(world),
        identity_(identity) {}

  explicit operator bool() const { return present_; }
  friend bool operator==(const FrameView& v, std::nullptr_t) { return !v.present_; }

  uint32_t tick() const { return tick_; }
  const std::optional<protocol::OwnerDetail>& owner() const { return present_ ? *owner_ : no_owner(); }
  // The room's settings at the frame's tick (the defaults for "no frame", as for the rest table's).
  const protocol::WorldSettings& world() const { return world_; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const ReplicaState& operator[](std::size_t i) const { return states_ != nullptr ? states_[i] : *refs_[i]; }
  // Starts fetching state i's cache lines, if the frame has one (the walks call it
  // kPrefetchAheadRecords ahead).
  [[gnu::always_inline]] void prefetch(std::size_t i) const {
    if (i < size_) prefetch_state(&(*this)[i]);
  }
  // Two views of the same frame object.
  bool same_object(const FrameView& other) const { return present_ && identity_ == other.identity_; }

 private:
  static const std::optional<protocol::OwnerDetail>& no_owner();
  bool present_ = false;
  uint32_t tick_ = 0;
  const std::optional<protocol::OwnerDetail>* owner_ = nullptr;
  const ReplicaState* states_ = nullptr;       // an owned frame's states, or
  const ReplicaState* const* refs_ = nullptr;  // a frame of pointers
  std::size_t size_ = 0;
  protocol::WorldSettings world_;
  const void* identity_ = nullptr;
};

// Two records the same: one pointer (a state both frames share) or equal fields.
inline bool same_record(const ReplicaState& a, const ReplicaState& b) { return &a == &b || a == b; }

// Tick, world settings, owner detail and every state the same (a server's sent frame against what a client decoded).
bool same_frame(const FrameView& a, const FrameView& b);

// An owned copy of the frame a view reads.
ReplicaFrame frame_of(const FrameView& view);

}  // namespace tickwire

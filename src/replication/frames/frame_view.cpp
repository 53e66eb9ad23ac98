// Comparing and copying frames through their views (tests, benchmarks and the client's checks).
#include "tickwire/replication/frames/frame_view.h"

namespace tickwire {

const std::optional<protocol::OwnerDetail>& FrameView::no_owner() {
  static const std::optional<protocol::OwnerDetail> kNone;
  return kNone;
}

bool same_frame(const FrameView& a, const FrameView& b) {
  if (a.tick() != b.tick() || a.world() != b.world() || a.size() != b.size() || a.owner().has_value() != b.owner().has_value()) return false;
  if (a.owner() && !same_owner_detail(*a.owner(), *b.owner())) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (!same_record(a[i], b[i])) return false;
  }
  return true;
}

ReplicaFrame frame_of(const FrameView& view) {
  ReplicaFrame frame;
  frame.tick = view.tick();
  frame.owner = view.owner();
  frame.world = view.world();
  frame.states.reserve(view.size());
  for (std::size_t i = 0; i < view.size(); ++i) frame.states.push_back(view[i]);
  return frame;
}

}  // namespace tickwire

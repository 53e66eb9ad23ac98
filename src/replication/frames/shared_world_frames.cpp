// Publishing a tick's world states: reuse a frame nobody holds (its capacity kept), else allocate
// one up to the cap.
#include "tickwire/replication/frames/shared_world_frames.h"

namespace tickwire {

SharedWorldFrames::SharedWorldFrames(uint32_t max_frames) : max_frames_(max_frames) { frames_.reserve(max_frames); }

std::shared_ptr<const WorldStates> SharedWorldFrames::publish(uint32_t tick, std::span<const ReplicaState> states) {
  std::shared_ptr<WorldStates>* free = nullptr;
  for (std::shared_ptr<WorldStates>& frame : frames_) {
    if (frame.use_count() == 1) {  // only this pool holds it
      free = &frame;
      break;
    }
  }
  if (free == nullptr) {
    if (frames_.size() >= max_frames_) return nullptr;
    frames_.push_back(std::make_shared<WorldStates>());
    free = &frames_.back();
  }
  WorldStates& frame = **free;
  frame.tick = tick;
  frame.states.assign(states.begin(), states.end());
  return *free;
}

}  // namespace tickwire

// ReferenceFrames: the frames a delta body may fit its prediction over, looked up by tick. The
// server's SentFrameHistory answers with the frames the client reported holding, the client's HeldFrames
// with the frames it holds; a body names which of them it used, so both ends fit the same ones.
#pragma once

#include <cstdint>

#include "tickwire/replication/frames/frame_view.h"

namespace tickwire {

class ReferenceFrames {
 public:
  virtual ~ReferenceFrames() = default;
  // The frame of `tick` (the client holds it, or is known to), else no frame.
  virtual FrameView held_frame(uint32_t tick) const = 0;

 protected:
  ReferenceFrames() = default;
  ReferenceFrames(const ReferenceFrames&) = default;
  ReferenceFrames& operator=(const ReferenceFrames&) = default;
};

}  // namespace tickwire

// The demo's reliable block: a download the server sends every client mid-game beside the
// snapshots (`tickwire server --block-mb N --block-at S`), as parts of the session's largest
// reliable message under a game message type of the reference game's own; the bots count it.
#pragma once

#include <cstddef>

#include "tickwire/protocol/session_channels.h"

namespace tickwire::cli {

inline constexpr MessageType kBlockPartType = 0x4b1;
inline constexpr std::size_t kBlockPartBytes = kSessionMaxGameMessageBytes;

}  // namespace tickwire::cli

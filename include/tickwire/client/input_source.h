// InputSource: what a game gives its client each client tick: the input for that tick's sequence.
#pragma once

#include <cstdint>
#include <functional>

#include "tickwire/protocol/input_frame.h"

namespace tickwire {

using InputSource = std::function<protocol::InputCmd(uint32_t sequence)>;

}  // namespace tickwire

// The one who started a run (the player whose press began it). The runtime never looks inside: it
// carries the value through every call, delay and timer of the run so that the world side can still
// answer "who did this" at the far end of a chain.
#pragma once

#include <compare>
#include <cstdint>

namespace tickwire {

struct LogicActivator {
  uint64_t value = 0;  // 0: nobody (a run the map started on its own, e.g. a timer that starts on)

  static constexpr LogicActivator none() { return {}; }
  constexpr bool present() const { return value != 0; }
  constexpr auto operator<=>(const LogicActivator&) const = default;
};

}  // namespace tickwire

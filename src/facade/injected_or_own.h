// A facade object runs on what a simulation or test injects (a socket, a timer), else on one of
// its own: the one rule, stated once.
#pragma once

#include <memory>

namespace tickwire {

// `injected` when given; otherwise a fresh Own, kept in `own`.
template <class T, class Own>
T* injected_or_own(T* injected, std::unique_ptr<Own>& own) {
  if (injected != nullptr) return injected;
  own = std::make_unique<Own>();
  return own.get();
}

}  // namespace tickwire

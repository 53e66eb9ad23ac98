// The lifecycle's table of legal moves and its counted, stamped transitions (fleet/lifecycle.h).
#include "tickwire/fleet/lifecycle.h"

namespace tickwire::fleet {
namespace {

constexpr int64_t kNeverEntered = INT64_MIN;

// Row: from; column: to.
using S = LifecycleState;
constexpr bool kLegal[kLifecycleStates][kLifecycleStates] = {
    //            starting ready  allocated draining stopped
    /*starting*/ {false,   true,  false,    true,    true},
    /*ready*/    {false,   false, true,     true,    true},
    /*allocated*/{false,   true,  false,    true,    true},
    /*draining*/ {false,   false, false,    false,   true},
    /*stopped*/  {false,   false, false,    false,   false},
};

}  // namespace

bool lifecycle_move_legal(LifecycleState from, LifecycleState to) {
  const auto f = static_cast<std::size_t>(from), t = static_cast<std::size_t>(to);
  return f < kLifecycleStates && t < kLifecycleStates && kLegal[f][t];
}

Lifecycle::Lifecycle(MonoTime born) {
  for (auto& at : entered_ns_) at.store(kNeverEntered, std::memory_order_relaxed);
  entries_[index(S::starting)].store(1, std::memory_order_relaxed);
  entered_ns_[index(S::starting)].store(born.ns(), std::memory_order_relaxed);
}

std::optional<MonoTime> Lifecycle::entered_at(LifecycleState s) const {
  const int64_t ns = entered_ns_[index(s)].load(std::memory_order_relaxed);
  if (ns == kNeverEntered) return std::nullopt;
  return MonoTime::from_ns(ns);
}

bool Lifecycle::move_to(LifecycleState to, MonoTime now) {
  LifecycleState from = state();
  do {
    if (from == to) return true;
    if (!lifecycle_move_legal(from, to)) {
      refused_moves_.fetch_add(1, std::memory_order_relaxed);
      return false;
    }
  } while (!state_.compare_exchange_weak(from, to, std::memory_order_acq_rel, std::memory_order_acquire));
  entries_[index(to)].fetch_add(1, std::memory_order_relaxed);
  entered_ns_[index(to)].store(now.ns(), std::memory_order_relaxed);
  return true;
}

bool lifecycle_admits(LifecycleState state, bool process_admits) {
  return process_admits && (state == LifecycleState::ready || state == LifecycleState::allocated);
}

}  // namespace tickwire::fleet

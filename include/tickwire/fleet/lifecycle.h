// A server process's lifecycle, the states a fleet's orchestrator reads: starting (waiting for its
// lease, recovering), ready (admits, nobody seated), allocated (a session is seated), draining (no
// longer admits; checkpointing and letting its clients go), stopped. One table says which moves are
// legal, so the probes, the metrics and the docs (docs/deployment.md) cannot disagree about them.
// The state is an atomic: any thread (the ops endpoint's) may read it while the owner moves it.
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <optional>

#include "tickwire/clock/time.h"
#include "tickwire/core/reasons.h"

namespace tickwire::fleet {

TW_REASONS(LifecycleState,
           starting,   // the process is up but not serving: waiting for its lease, recovering its room
           ready,      // it admits players and none is seated
           allocated,  // at least one session is seated (back to ready when the room empties)
           draining,   // it admits no one: checkpoint, clients let go, lease given up (one way)
           stopped)    // done; the process is about to exit (terminal)
inline constexpr std::size_t kLifecycleStates = static_cast<std::size_t>(LifecycleState::count_);

// The legal moves:
//   starting  -> ready | draining | stopped     (stopped: it failed to start)
//   ready     -> allocated | draining | stopped (stopped: authority lost, no drain possible)
//   allocated -> ready | draining | stopped     (ready: the room emptied, as an Agones SDK Ready())
//   draining  -> stopped
//   stopped   -> (nothing)
// Nothing moves back to starting, and draining and stopped are never left but forward.
bool lifecycle_move_legal(LifecycleState from, LifecycleState to);

class Lifecycle {
 public:
  explicit Lifecycle(MonoTime born);

  // Any thread.
  LifecycleState state() const { return state_.load(std::memory_order_acquire); }
  // Times the state was entered (starting counts its birth), and when it was last entered.
  uint64_t entries(LifecycleState s) const { return entries_[index(s)].load(std::memory_order_relaxed); }
  std::optional<MonoTime> entered_at(LifecycleState s) const;
  uint64_t refused_moves() const { return refused_moves_.load(std::memory_order_relaxed); }

  // The owner's thread. Moves to `to` when the table allows it (counted, stamped with `now`);
  // false when it does not (the state stays; counted in refused_moves). Moving to the state it is
  // already in is no move: true, nothing counted.
  bool move_to(LifecycleState to, MonoTime now);

 private:
  static std::size_t index(LifecycleState s) { return static_cast<std::size_t>(s); }

  std::atomic<LifecycleState> state_{LifecycleState::starting};
  std::array<std::atomic<uint64_t>, kLifecycleStates> entries_{};
  std::array<std::atomic<int64_t>, kLifecycleStates> entered_ns_{};
  std::atomic<uint64_t> refused_moves_{0};
};

// Whether a process in `state` should be sent players: ready or allocated, and it says it admits
// (a seat is free, its ladder has not closed admissions).
bool lifecycle_admits(LifecycleState state, bool process_admits);

}  // namespace tickwire::fleet

// Drives a load ladder through a run of readings, one every `step` from `start`, and records each
// change of its rung in force: what the engage, hysteresis and release tests read.
#pragma once

#include <cstddef>
#include <vector>

#include "tickwire/clock/time.h"

namespace tickwire::test {

template <class Rung>
struct RungChange {
  std::size_t reading = 0;  // the index of the reading that moved it
  MonoTime at;
  Rung from{};
  Rung to{};
};

template <class Rung>
struct LadderRun {
  std::vector<RungChange<Rung>> changes;
  MonoTime next;  // when the reading after the run falls
};

// `signals_of(i)` gives reading i's signals; readings are taken at start, start + step, ...
template <class Ladder, class SignalsOf>
auto drive_ladder(Ladder& ladder, MonoTime start, Duration step, std::size_t readings, SignalsOf signals_of) {
  using Rung = decltype(ladder.rung());
  LadderRun<Rung> run;
  MonoTime now = start;
  for (std::size_t i = 0; i < readings; ++i, now += step) {
    const Rung before = ladder.rung();
    const Rung after = ladder.update(signals_of(i), now);
    if (after != before) run.changes.push_back(RungChange<Rung>{i, now, before, after});
  }
  run.next = now;
  return run;
}

// The rungs a run moved to, in order.
template <class Rung>
std::vector<Rung> rungs_reached(const LadderRun<Rung>& run) {
  std::vector<Rung> reached;
  for (const RungChange<Rung>& change : run.changes) reached.push_back(change.to);
  return reached;
}

}  // namespace tickwire::test

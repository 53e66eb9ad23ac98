// The logic's scheduled queue: continuations (the rest of an action list after a delay) and wakes
// (a timer's next beat), ordered by the game time they are due and, among equals, by the order they
// were made. Bounded: a push past the cap is refused. What is pushed while a tick is being run waits
// in a side list until the tick ends, so nothing made on a tick can also run on it and nothing due
// is stuck behind it. Removal by node is eager, so an unloaded node leaves nothing behind.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "tickwire/clock/time.h"
#include "tickwire/logic/activator.h"
#include "tickwire/logic/logic_clock.h"
#include "tickwire/logic/node_id.h"

namespace tickwire {

struct LogicScheduled {
  enum class Kind : uint8_t { continuation, wake };

  Duration due;           // game time
  uint64_t sequence = 0;  // the order it was made in: ties run first-made first
  LogicNodeId node;
  uint64_t generation = 0;  // the node it belongs to, not just the id
  Kind kind = Kind::continuation;
  uint16_t wire = 0;         // continuation: the wire, and the action it resumes at
  uint16_t next_action = 0;
  uint16_t behaviour = 0;    // wake: the behaviour, and the tag it asked with
  uint32_t tag = 0;
  LogicActivator activator;
};

class LogicScheduledQueue {
 public:
  explicit LogicScheduledQueue(std::size_t capacity);

  // False when the queue is at its cap (nothing kept). The sequence number is assigned here.
  bool push(LogicScheduled entry);
  // A tick is being run: pushes wait in the side list until end_tick.
  void begin_tick();
  void end_tick();
  // The first-due entry if the clock has reached it (only entries made before this tick).
  std::optional<LogicScheduled> pop_due(const LogicClock& clock);

  // Removes every entry `matches` says; returns how many.
  template <class Predicate>
  std::size_t erase_if(Predicate matches);

  // A checkpoint's view, between ticks: every entry (in no particular order: (due, sequence) orders
  // them) and the sequence the next push takes.
  std::span<const LogicScheduled> entries() const;
  uint64_t next_sequence() const { return next_sequence_; }
  // Puts them back, between ticks, in place of what it holds. False, nothing changed, when they are
  // more than its cap, or a sequence repeats or is not below `next_sequence`.
  bool restore(std::vector<LogicScheduled> entries, uint64_t next_sequence);

  std::size_t size() const { return heap_.size() + fresh_.size(); }
  std::size_t capacity() const { return capacity_; }
  bool empty() const { return size() == 0; }

 private:
  void repair_heap();

  std::size_t capacity_;
  uint64_t next_sequence_ = 0;
  bool in_tick_ = false;
  std::vector<LogicScheduled> heap_;   // a min-heap on (due, sequence)
  std::vector<LogicScheduled> fresh_;  // made during the tick being run
};

template <class Predicate>
std::size_t LogicScheduledQueue::erase_if(Predicate matches) {
  const std::size_t before = size();
  std::erase_if(heap_, matches);
  std::erase_if(fresh_, matches);
  const std::size_t removed = before - size();
  if (removed > 0) repair_heap();
  return removed;
}

}  // namespace tickwire

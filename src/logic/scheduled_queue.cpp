// A bounded min-heap on (due game time, sequence), and a side list for what a running tick makes.
#include "scheduled_queue.h"

#include <algorithm>

#include "tickwire/core/assert.h"

namespace tickwire {

namespace {

// std::*_heap keep the largest first; "later" puts the first-due entry on top.
bool later(const LogicScheduled& a, const LogicScheduled& b) {
  if (a.due != b.due) return a.due > b.due;
  return a.sequence > b.sequence;
}

}  // namespace

LogicScheduledQueue::LogicScheduledQueue(std::size_t capacity) : capacity_(capacity) {
  TW_ASSERT(capacity > 0, "the scheduled queue has room for something");
}

bool LogicScheduledQueue::push(LogicScheduled entry) {
  if (size() >= capacity_) return false;
  entry.sequence = next_sequence_++;
  if (in_tick_) {
    fresh_.push_back(entry);
  } else {
    heap_.push_back(entry);
    std::push_heap(heap_.begin(), heap_.end(), later);
  }
  return true;
}

void LogicScheduledQueue::begin_tick() {
  TW_ASSERT(!in_tick_, "ticks do not nest");
  in_tick_ = true;
}

void LogicScheduledQueue::end_tick() {
  TW_ASSERT(in_tick_, "end_tick follows begin_tick");
  in_tick_ = false;
  for (const LogicScheduled& entry : fresh_) {
    heap_.push_back(entry);
    std::push_heap(heap_.begin(), heap_.end(), later);
  }
  fresh_.clear();
}

std::optional<LogicScheduled> LogicScheduledQueue::pop_due(const LogicClock& clock) {
  if (heap_.empty() || !clock.reached(heap_.front().due)) return std::nullopt;
  std::pop_heap(heap_.begin(), heap_.end(), later);
  LogicScheduled entry = heap_.back();
  heap_.pop_back();
  return entry;
}

std::span<const LogicScheduled> LogicScheduledQueue::entries() const {
  TW_ASSERT(!in_tick_ && fresh_.empty(), "a checkpoint is taken between ticks");
  return heap_;
}

bool LogicScheduledQueue::restore(std::vector<LogicScheduled> entries, uint64_t next_sequence) {
  TW_ASSERT(!in_tick_, "a queue is restored between ticks");
  if (entries.size() > capacity_) return false;
  std::vector<uint64_t> sequences;
  sequences.reserve(entries.size());
  for (const LogicScheduled& entry : entries) {
    if (entry.sequence >= next_sequence) return false;
    sequences.push_back(entry.sequence);
  }
  std::sort(sequences.begin(), sequences.end());
  if (std::adjacent_find(sequences.begin(), sequences.end()) != sequences.end()) return false;
  heap_ = std::move(entries);
  fresh_.clear();
  next_sequence_ = next_sequence;
  repair_heap();
  return true;
}

void LogicScheduledQueue::repair_heap() { std::make_heap(heap_.begin(), heap_.end(), later); }

}  // namespace tickwire

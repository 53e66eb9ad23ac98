// The admission queue under any sequence of calls, shared by fuzz_admission_queue and its seeded
// test: two bytes configure a small queue (0..5 seats, a line of 0..7, a 2 s silence timeout, a
// 1.5 s claim window), then every two bytes are one call (request, claim, release, leave, update or
// a new capacity) by one of 12 actors after 0..3.9 s, each checked by a LineWatch.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "watched_queue.h"

namespace tickwire::fleet::test {

inline constexpr ActorId kScriptActors = 12;

struct AdmissionScriptOutcome {
  uint64_t calls = 0;
  uint64_t promotions = 0;
  uint64_t silent_lapses = 0;
  uint64_t refusals = 0;
  Violation violation;
};

inline AdmissionQueueConfig script_config(uint8_t seats, uint8_t line) {
  AdmissionQueueConfig config;
  config.capacity = seats % 6u;
  config.max_line = line % 8u;
  config.waiter_timeout = Duration::seconds(2);
  config.claim_window = Duration::milliseconds(1500);
  return config;
}

// One call: the low three bits of `op` name it, the high five the time before it in 125 ms steps.
inline void run_script_call(WatchedQueue& queue, uint8_t op, uint8_t arg, MonoTime now) {
  const ActorId actor = arg % kScriptActors;
  switch (op & 7u) {
    case 3: queue.claim(actor, now); break;
    case 4: queue.release(actor, now); break;
    case 5: queue.leave(actor, now); break;
    case 6: queue.update(now); break;
    case 7: queue.set_capacity(arg % 8u, now); break;
    default: queue.request(actor, now); break;  // 0..2: requests and refreshes are the common call
  }
}

inline AdmissionScriptOutcome run_admission_script(std::span<const uint8_t> script) {
  AdmissionScriptOutcome out;
  if (script.size() < 2) return out;
  WatchedQueue queue(script_config(script[0], script[1]));
  MonoTime now = MonoTime::from_ns(0);
  for (std::size_t at = 2; at + 2 <= script.size() && !queue.violation(); at += 2) {
    now += Duration::milliseconds(125) * (script[at] >> 3);
    run_script_call(queue, script[at], script[at + 1], now);
    ++out.calls;
  }
  out.promotions = queue.queue().promoted();
  out.silent_lapses = queue.queue().places_lost()[PlaceLost::waiter_silent];
  out.refusals = queue.queue().refusals().total();
  out.violation = queue.violation();
  return out;
}

}  // namespace tickwire::fleet::test

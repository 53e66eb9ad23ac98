// WatchedQueue: an AdmissionQueue with its LineWatch fed after every call (the promotions it took,
// then the answer, then the whole line), so a driver (the crowd test, the fuzz script) makes calls
// and reads the first broken promise, if any, from one place.
#pragma once

#include <optional>
#include <vector>

#include "line_watch.h"
#include "tickwire/fleet/admission_queue.h"

namespace tickwire::fleet::test {

class WatchedQueue {
 public:
  explicit WatchedQueue(const AdmissionQueueConfig& config) : queue_(config), watch_(queue_, config) {}

  AdmissionAnswer request(ActorId actor, MonoTime now) {
    const AdmissionAnswer answer = queue_.request(actor, now);
    after(now, [&] { return watch_.answered(actor, answer, now); });
    return answer;
  }
  bool claim(ActorId actor, MonoTime now) {
    const bool claimed = queue_.claim(actor, now);
    after(now);
    return claimed;
  }
  bool release(ActorId actor, MonoTime now) {
    const bool was_waiting = watch_.waiting(actor, now);
    const bool released = queue_.release(actor, now);
    after(now, [] { return Violation{}; }, released && was_waiting ? std::optional<ActorId>(actor) : std::nullopt);
    return released;
  }
  bool leave(ActorId actor, MonoTime now) {
    const bool left = queue_.leave(actor, now);
    after(now, [&] { return left ? watch_.left(actor) : Violation{}; });
    return left;
  }
  void update(MonoTime now) {
    queue_.update(now);
    after(now);
  }
  void set_capacity(uint32_t seats, MonoTime now) {
    queue_.set_capacity(seats, now);
    after(now);
  }

  const std::vector<Promotion>& promoted() const { return promoted_; }  // the last call's promotions
  const Violation& violation() const { return violation_; }            // the first broken promise
  const AdmissionQueue& queue() const { return queue_; }
  const LineWatch& watch() const { return watch_; }

 private:
  template <class Then>
  void after(MonoTime now, Then&& then, std::optional<ActorId> declined = {}) {
    promoted_ = queue_.take_promotions();
    if (violation_) return;
    violation_ = watch_.promoted(promoted_, now, declined);
    if (!violation_) violation_ = then();
    if (!violation_) violation_ = watch_.check(now);
  }
  void after(MonoTime now) {
    after(now, [] { return Violation{}; });
  }

  AdmissionQueue queue_;
  LineWatch watch_;
  std::vector<Promotion> promoted_;
  Violation violation_;
};

}  // namespace tickwire::fleet::test

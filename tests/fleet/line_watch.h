// LineWatch: the admission queue's promises checked from outside, shared by the crowd test and the
// script behind fuzz_admission_queue. Waiters are promoted strictly in the order they joined, none
// skipped and none twice; a refresh keeps its place (a position never grows, and is always 1 + the
// waiters still ahead); only a waiter silent past its timeout, or one that left, loses its place; a
// free seat means nobody waits; nobody is promoted past the capacity; every answer survives the wire.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "tickwire/fleet/admission_queue.h"
#include "tickwire/wire/codec.h"

namespace tickwire::fleet::test {

using Violation = std::optional<std::string>;

class LineWatch {
 public:
  LineWatch(const AdmissionQueue& queue, const AdmissionQueueConfig& config)
      : queue_(queue), waiter_timeout_(config.waiter_timeout), claim_window_(config.claim_window) {}

  // After every call on the queue, in this order: promoted() with what take_promotions() gave, then
  // answered() for a request's answer (or left() for an accepted leave), then check(). `declined`:
  // the call was a release by an actor the watch saw waiting, so the queue promoted it while settling
  // and the release declined the seat (and withdrew the promotion) in the same call.
  Violation promoted(const std::vector<Promotion>& promotions, MonoTime now, std::optional<ActorId> declined = {}) {
    if (!promotions.empty() && queue_.seats_taken() > queue_.capacity())
      return fmt::format("promoted with {} seats taken of {}", queue_.seats_taken(), queue_.capacity());
    for (const Promotion& p : promotions) {
      if (p.claim_by != now + claim_window_) return fmt::format("actor {} promoted without its claim window", p.actor);
      if (Violation v = take_front(p.actor, declined, now)) return v;
    }
    return declined ? take_front(*declined, declined, now) : std::nullopt;
  }

  // Whether `actor` is in line as the watch saw it, and not silent at `now`.
  bool waiting(ActorId actor, MonoTime now) {
    const auto entry = find(actor);
    return entry != line_.end() && !silent(*entry, now);
  }

  Violation answered(ActorId actor, const AdmissionAnswer& answer, MonoTime now) {
    if (Violation v = survives_the_wire(answer, now)) return v;
    auto entry = find(actor);
    if (entry != line_.end() && silent(*entry, now)) {  // lapsed before this request: it joins again
      drop_silent(entry);
      entry = line_.end();
    }
    switch (answer.standing) {
      case protocol::AdmissionStanding::waiting:
        if (entry == line_.end()) return joined(actor, answer, now);
        if (answer.position > entry->position)
          return fmt::format("actor {} refreshed from place {} to place {}", actor, entry->position, answer.position);
        entry->refreshed = now;
        entry->position = answer.position;
        ++refreshes_;
        return std::nullopt;
      case protocol::AdmissionStanding::refused:
        if (entry != line_.end()) return fmt::format("waiter {} refused", actor);
        if (answer.line_length < queue_.max_line()) return fmt::format("refused with {} waiting", answer.line_length);
        return std::nullopt;
      default:
        if (entry != line_.end()) return fmt::format("waiter {} given a seat without a promotion", actor);
        if (answer.standing == protocol::AdmissionStanding::seat_offered && answer.claim_by <= now)
          return fmt::format("actor {} offered a seat already lapsed", actor);
        return std::nullopt;
    }
  }

  Violation left(ActorId actor) {
    const auto entry = find(actor);
    if (entry == line_.end()) return fmt::format("actor {} left a line it was not in", actor);
    line_.erase(entry);
    return std::nullopt;
  }

  // The whole line against the queue's own answers.
  Violation check(MonoTime now) {
    uint32_t still_waiting = 0;
    for (auto entry = line_.begin(); entry != line_.end();) {
      const std::optional<AdmissionAnswer> place = queue_.place_of(entry->actor, now);
      const bool waiting = place && place->standing == protocol::AdmissionStanding::waiting;
      if (silent(*entry, now)) {
        if (waiting) return fmt::format("actor {} kept its place though silent", entry->actor);
        entry = drop_silent(entry);
        continue;
      }
      if (!waiting) return fmt::format("actor {} lost its place without going silent", entry->actor);
      ++still_waiting;
      if (place->position != still_waiting)
        return fmt::format("actor {} at place {} with {} ahead", entry->actor, place->position, still_waiting - 1);
      if (place->position > entry->position)
        return fmt::format("actor {} moved back from {} to {}", entry->actor, entry->position, place->position);
      entry->position = place->position;
      ++entry;
    }
    if (queue_.line_length() != still_waiting)
      return fmt::format("the queue holds {} waiters, the watch saw {} join", queue_.line_length(), still_waiting);
    if (queue_.places_lost()[PlaceLost::waiter_silent] != silent_lapses_)
      return fmt::format("the queue lapsed {} silent waiters, the watch saw {} go silent",
                         queue_.places_lost()[PlaceLost::waiter_silent], silent_lapses_);
    if (queue_.free_seats() > 0 && queue_.line_length() > 0)
      return fmt::format("{} seats free while {} wait", queue_.free_seats(), queue_.line_length());
    return std::nullopt;
  }

  const std::vector<ActorId>& joins() const { return joins_; }            // every join, in order
  const std::vector<ActorId>& promotions() const { return promotions_; }  // every promotion, in order
  uint64_t silent_lapses() const { return silent_lapses_; }
  uint64_t refreshes_seen() const { return refreshes_; }

 private:
  struct Entry {
    ActorId actor = 0;
    MonoTime refreshed;
    uint32_t position = 0;  // the last place the queue gave it
  };

  bool silent(const Entry& entry, MonoTime now) const { return now - entry.refreshed >= waiter_timeout_; }
  // The next promotion is `actor`'s: only silent waiters (and a promoted one that declined at once,
  // in its own place) may stand before it.
  Violation take_front(ActorId actor, std::optional<ActorId>& declined, MonoTime now) {
    while (!line_.empty() && line_.front().actor != actor) {
      if (line_.front().actor == declined) {
        promotions_.push_back(*declined);
        declined.reset();
        line_.pop_front();
      } else if (silent(line_.front(), now)) {
        drop_silent(line_.begin());
      } else {
        return fmt::format("actor {} promoted ahead of actor {}, who joined before it and still waits", actor,
                           line_.front().actor);
      }
    }
    if (line_.empty()) return fmt::format("actor {} promoted without waiting", actor);
    if (declined == actor) declined.reset();
    line_.pop_front();
    promotions_.push_back(actor);
    return std::nullopt;
  }
  std::deque<Entry>::iterator find(ActorId actor) {
    return std::find_if(line_.begin(), line_.end(), [&](const Entry& e) { return e.actor == actor; });
  }
  std::deque<Entry>::iterator drop_silent(std::deque<Entry>::iterator entry) {
    ++silent_lapses_;
    return line_.erase(entry);
  }
  Violation joined(ActorId actor, const AdmissionAnswer& answer, MonoTime now) {
    if (answer.position != answer.line_length)
      return fmt::format("actor {} joined at place {} of {}, not at the back", actor, answer.position, answer.line_length);
    line_.push_back(Entry{actor, now, answer.position});
    joins_.push_back(actor);
    return std::nullopt;
  }
  static Violation survives_the_wire(const AdmissionAnswer& answer, MonoTime now) {
    const protocol::AdmissionPlace sent = admission_place(answer, now);
    protocol::AdmissionPlace received;
    const std::vector<uint8_t> bytes = wire::encode_bytes(sent);
    if (!wire::decode(bytes, received).ok() || !(received == sent)) return "an admission place does not round-trip";
    return std::nullopt;
  }

  const AdmissionQueue& queue_;
  Duration waiter_timeout_;
  Duration claim_window_;
  std::deque<Entry> line_;  // the waiters as the watch saw them join, the first first
  std::vector<ActorId> joins_;
  std::vector<ActorId> promotions_;
  uint64_t silent_lapses_ = 0;
  uint64_t refreshes_ = 0;
};

}  // namespace tickwire::fleet::test

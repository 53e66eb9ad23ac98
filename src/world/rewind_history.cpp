// A ring of the last ticks' bodies, each tick's sorted by (kind, id) so a read between two ticks
// pairs a body with itself in one merge.
#include "tickwire/world/rewind_history.h"

#include <algorithm>
#include <cmath>

#include "tickwire/core/assert.h"

namespace tickwire::world {

namespace {

bool before(const RewoundBox& a, const RewoundBox& b) { return a.kind != b.kind ? a.kind < b.kind : a.id < b.id; }

Aabb lerp(const Aabb& a, const Aabb& b, float t) {
  return {a.min + (b.min - a.min) * t, a.max + (b.max - a.max) * t};
}

}  // namespace

RewindHistory::RewindHistory(uint32_t ticks) {
  TW_ASSERT(ticks >= 1 && ticks <= kMaxRewindTicks, "a rewind history holds 1..kMaxRewindTicks ticks");
  ring_.resize(ticks);
}

const RewindHistory::Slot& RewindHistory::slot_back(std::size_t age) const {
  return ring_[(next_ + ring_.size() - 1 - age) % ring_.size()];
}

Tick RewindHistory::oldest() const { return held_ == 0 ? Tick{} : slot_back(held_ - 1).tick; }
Tick RewindHistory::newest() const { return held_ == 0 ? Tick{} : slot_back(0).tick; }

void RewindHistory::record(Tick tick, std::span<const RewoundBox> bodies) {
  if (held_ > 0 && tick <= newest()) clear();  // time went back (a new room clock): start over
  Slot& slot = ring_[next_];
  slot.tick = tick;
  slot.bodies.assign(bodies.begin(), bodies.end());
  std::sort(slot.bodies.begin(), slot.bodies.end(), before);
  next_ = (next_ + 1) % ring_.size();
  held_ = std::min(held_ + 1, ring_.size());
}

double RewindHistory::at(double render_tick, std::vector<RewoundBox>& out) const {
  if (held_ == 0) return render_tick;
  const double oldest_tick = static_cast<double>(oldest().value());
  const double newest_tick = static_cast<double>(newest().value());
  const double t = std::clamp(render_tick, oldest_tick, newest_tick);
  // The slot at or before t, and the one after it (ticks are recorded one by one, but a gap reads as
  // the nearer slot's bodies).
  std::size_t age = 0;
  while (age + 1 < held_ && static_cast<double>(slot_back(age).tick.value()) > t) ++age;
  const Slot& from = slot_back(age);
  if (age == 0 || static_cast<double>(from.tick.value()) == t) {
    out.insert(out.end(), from.bodies.begin(), from.bodies.end());
    return t;
  }
  const Slot& to = slot_back(age - 1);
  const double span = static_cast<double>(to.tick.value() - from.tick.value());
  const auto f = static_cast<float>((t - static_cast<double>(from.tick.value())) / span);
  auto a = from.bodies.begin();
  auto b = to.bodies.begin();
  while (a != from.bodies.end() || b != to.bodies.end()) {
    if (b == to.bodies.end() || (a != from.bodies.end() && before(*a, *b))) {
      if (f < 0.5f) out.push_back(*a);  // gone by the next tick: held while nearer
      ++a;
    } else if (a == from.bodies.end() || before(*b, *a)) {
      if (f >= 0.5f) out.push_back(*b);  // new at the next tick
      ++b;
    } else {
      out.push_back(RewoundBox{a->kind, a->id, lerp(a->box, b->box, f)});
      ++a, ++b;
    }
  }
  return t;
}

void RewindHistory::path(RewoundBox::Kind kind, uint32_t id, double since, std::vector<Aabb>& out) const {
  const RewoundBox key{kind, id, {}};
  for (std::size_t age = held_; age-- > 0;) {
    const Slot& slot = slot_back(age);
    if (age > 0 && static_cast<double>(slot_back(age - 1).tick.value()) <= since) continue;  // wholly before it
    const auto at = std::lower_bound(slot.bodies.begin(), slot.bodies.end(), key, before);
    if (at != slot.bodies.end() && at->kind == kind && at->id == id) out.push_back(at->box);
  }
}

}  // namespace tickwire::world

// RewindHistory: where the bodies a shot can strike stood at each recent tick (the pawns and the
// movers' boxes), so the server traces a shot against the world as its shooter drew it: the render
// time the client reports, between two ticks, read as the lerp of the two (what its interpolation
// drew). Bounded: it holds the contract's max rewind and no more, and a time older than it holds is
// read at its oldest tick (the room bounds the claim first; this is the game's own floor).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "tickwire/clock/tick.h"
#include "tickwire/world/vec3.h"

namespace tickwire::world {

inline constexpr uint32_t kMaxRewindTicks = 1024;  // the history's ticks, at most (1 s at 1,000 Hz)

// One body at one tick: `id` names it within its kind (a pawn's entity id, a mover's object index).
struct RewoundBox {
  enum class Kind : uint8_t { pawn, mover };
  Kind kind = Kind::pawn;
  uint32_t id = 0;
  Aabb box;
};

class RewindHistory {
 public:
  // Holds the last `ticks` ticks (at least 1, at most kMaxRewindTicks).
  explicit RewindHistory(uint32_t ticks = 1);

  // The bodies as `tick` left them (ticks recorded in order; a tick again replaces nothing older).
  void record(Tick tick, std::span<const RewoundBox> bodies);
  // The bodies at `render_tick` (a tick and a fraction): each lerped between the two ticks around
  // it where both hold it, else as the nearer tick holds it; read at the oldest held tick when older,
  // at the newest when newer. Returns the time it was read at (nothing held: nothing appended).
  double at(double render_tick, std::vector<RewoundBox>& out) const;
  // The box one body held at each held tick from `since` (a tick and a fraction: from the tick at or
  // before it) to the newest, oldest first: a body's recent path. Appends nothing for a tick it was
  // absent from.
  void path(RewoundBox::Kind kind, uint32_t id, double since, std::vector<Aabb>& out) const;
  std::size_t ticks_held() const { return held_; }
  // The oldest and newest ticks held (both Tick 0 when empty).
  Tick oldest() const;
  Tick newest() const;
  void clear() { held_ = 0; }

 private:
  struct Slot {
    Tick tick;
    std::vector<RewoundBox> bodies;  // sorted by (kind, id)
  };
  const Slot& slot_back(std::size_t age) const;  // 0: newest

  std::vector<Slot> ring_;
  std::size_t next_ = 0;
  std::size_t held_ = 0;
};

}  // namespace tickwire::world

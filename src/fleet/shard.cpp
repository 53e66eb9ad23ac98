// A shard's step: the due rooms run in turn, measured; each window, both ladders walked and every
// room told the rung it runs at.
#include "tickwire/fleet/shard.h"

#include <algorithm>
#include <utility>

#include "tickwire/core/assert.h"
#include "tickwire/fleet/shard_shedding.h"

namespace tickwire {

struct Shard::Pinned {
  Pinned(uint32_t room_id, std::unique_ptr<ShardRoom> r)
      : id(room_id),
        room(std::move(r)),
        period(tick_period_of(room->contract())),
        ladder(room->contract().load.room) {}
  uint32_t id;
  std::unique_ptr<ShardRoom> room;
  Duration period;
  RoomLoadLadder ladder;
  RoomLoadMeter meter;
  RoomLoadRung applied = RoomLoadRung::calm;
  Duration last_window_cost;
  uint64_t ticks = 0;
  // Its first iterations here catch up on whatever passed before it came (its clock started
  // elsewhere, or it was moving): neither this shard's lateness nor its load, so not measured
  // until one leaves it with its next tick still ahead.
  bool settled = false;
};

namespace {

// Each rung from just above `before` up to `after` engaged (rungs are cumulative).
template <class Rung>
void count_engaged(ReasonCounters<Rung>& counters, Rung before, Rung after) {
  for (auto r = static_cast<uint32_t>(before) + 1; r <= static_cast<uint32_t>(after); ++r) {
    counters.add(static_cast<Rung>(r));
  }
}

}  // namespace

Shard::Shard(HostTimer& timer, const ShardConfig& config, WorkClock* work)
    : timer_(timer), work_(work), config_(config), ladder_(config.ladder) {
  TW_ASSERT(config.window > Duration{}, "a shard measures over a positive window");
  rooms_.reserve(kShardMaxRooms);
  states_.reserve(kShardMaxRooms);
}

Shard::~Shard() = default;

bool Shard::adopt(uint32_t id, std::unique_ptr<ShardRoom>& room) {
  TW_ASSERT(room != nullptr, "a shard adopts a room");
  if (rooms_.size() >= kShardMaxRooms) return false;
  if (std::any_of(rooms_.begin(), rooms_.end(), [&](const auto& p) { return p->id == id; })) return false;
  rooms_.push_back(std::make_unique<Pinned>(id, std::move(room)));
  rooms_.back()->room->shed(room_shedding(RoomLoadRung::calm, rooms_.back()->room->contract()));
  ShardRoomState state;
  state.id = id;
  state.movable = rooms_.back()->room->movable();
  states_.push_back(state);
  return true;
}

std::unique_ptr<ShardRoom> Shard::release(uint32_t id) {
  const auto it = std::find_if(rooms_.begin(), rooms_.end(), [&](const auto& p) { return p->id == id; });
  if (it == rooms_.end()) return nullptr;
  std::unique_ptr<ShardRoom> room = std::move((*it)->room);
  room->shed(room_shedding(RoomLoadRung::calm, room->contract()));
  const auto index = static_cast<std::size_t>(it - rooms_.begin());
  rooms_.erase(it);
  states_.erase(states_.begin() + static_cast<std::ptrdiff_t>(index));
  return room;
}

Duration Shard::work_spent() { return work_ != nullptr ? work_->spent() : timer_.now() - MonoTime{}; }

MonoTime Shard::step() {
  MonoTime now = timer_.now();
  if (!window_open_) {
    window_open_ = true;
    window_start_ = now;
  }
  for (auto& pinned : rooms_) {
    const MonoTime due = pinned->room->next_due();
    if (due > now) continue;
    const MonoTime began = timer_.now();
    const Duration work_before = work_spent();
    pinned->ticks += pinned->room->run(began);
    const Duration cost = work_spent() - work_before;
    now = timer_.now();
    if (!pinned->settled) {
      pinned->settled = pinned->room->next_due() > now;  // caught up
      continue;
    }
    window_busy_ += cost;
    pinned->meter.record(began - due, pinned->period, cost);
  }
  if (now - window_start_ >= config_.window) close_window(now);
  MonoTime next = now + config_.window;
  for (const auto& pinned : rooms_) next = std::min(next, pinned->room->next_due());
  return next;
}

void Shard::close_window(MonoTime now) {
  const Duration window = now - window_start_;
  ++windows_;
  signals_.busy_percent = std::clamp(100.0 * static_cast<double>(window_busy_.ns()) / static_cast<double>(window.ns()), 0.0, 100.0);
  signals_.lag_ticks = 0;
  const auto sharing = static_cast<uint32_t>(std::max<std::size_t>(rooms_.size(), 1));
  for (std::size_t i = 0; i < rooms_.size(); ++i) {
    Pinned& pinned = *rooms_[i];
    pinned.last_window_cost = pinned.meter.window_cost();
    const RoomLoadSignals room_signals = pinned.meter.close_window(window, sharing);
    signals_.lag_ticks = std::max(signals_.lag_ticks, room_signals.lag_ticks);
    ShardRoomState& state = states_[i];
    state.signals = room_signals;
    state.own = pinned.ladder.update(room_signals, now);
    state.iterations = pinned.meter.iterations();
    state.ticks = pinned.ticks;
    state.measured_hz = pinned.room->measured_hz();
  }
  if (shard_lag_at_kill_threshold(signals_, config_.ladder)) ++kill_windows_;
  const ShardLoadRung before = ladder_.rung();
  const ShardLoadRung after = ladder_.update(signals_, now);
  note_shard_rung(now, before, after);
  for (std::size_t i = 0; i < rooms_.size(); ++i) {
    Pinned& pinned = *rooms_[i];
    ShardRoomState& state = states_[i];
    state.in_force = compose_room_rung(state.own, after);
    if (state.in_force == pinned.applied) continue;
    count_engaged(room_engaged_, pinned.applied, state.in_force);
    pinned.room->shed(room_shedding(state.in_force, pinned.room->contract()));
    pinned.applied = state.in_force;
  }
  window_start_ = now;
  window_busy_ = Duration{};
}

void Shard::note_shard_rung(MonoTime now, ShardLoadRung before, ShardLoadRung after) {
  if (before == after) return;
  count_engaged(engaged_, before, after);
  if (changes_.size() == kShardRungChangesKept) changes_.pop_front();
  changes_.push_back(ShardRungChange{now, before, after});
}

std::optional<uint32_t> Shard::costliest_movable() const {
  std::optional<uint32_t> costliest;
  Duration most{Duration::nanoseconds(-1)};
  for (const auto& pinned : rooms_) {
    if (!pinned->room->movable() || pinned->last_window_cost <= most) continue;
    most = pinned->last_window_cost;
    costliest = pinned->id;
  }
  return costliest;
}

}  // namespace tickwire

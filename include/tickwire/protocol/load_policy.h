// The load ladders' part of the netcode contract (seed 003, "Load ladders"): the rungs of the room
// ladder and of the shard ladder in their fixed order, each named and given the thresholds it
// engages and releases at, the shard's tick-lag kill threshold, and the numbers a room's rungs shed
// by. Which rungs exist, their order and what each sheds are the engine's (fleet/); when they engage
// is policy, and it is here so that a client or an operator reading the contract sees it.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "tickwire/core/reasons.h"
#include "tickwire/protocol/contract_fields.h"
#include "tickwire/wire/types.h"

namespace tickwire {

// The room ladder's rungs, calm first; each sheds what the ones below it shed, and more.
TW_REASONS(RoomLoadRung,
           calm,                 // nothing shed
           world_lane_slowed,    // the world (far) lane runs worldLaneDivisor times less often
           interest_narrowed,    // the interest radius shrinks to interestRadiusPercent of the contract's
           snapshot_budget_cut,  // every client's snapshot budget shrinks to snapshotBudgetPercent
           admissions_closed)    // the room admits no new session
inline constexpr wire::NamedValue kRoomLoadRungMembers[] = {
    {"calm", 0}, {"worldLaneSlowed", 1}, {"interestNarrowed", 2}, {"snapshotBudgetCut", 3}, {"admissionsClosed", 4}};
inline constexpr wire::EnumDef kRoomLoadRungDef{"RoomLoadRung", kRoomLoadRungMembers};

// The shard ladder's rungs, calm first; each holds what the ones below it hold, and more.
TW_REASONS(ShardLoadRung,
           calm,               // nothing shed
           placement_closed,   // the fleet places no new room on the shard
           rooms_shed,         // every room of the shard sheds at least to interest_narrowed
           admissions_closed,  // every room of the shard sheds its whole ladder: no new session anywhere on it
           rooms_migrated)     // the fleet moves the shard's costliest room to another shard
inline constexpr wire::NamedValue kShardLoadRungMembers[] = {
    {"calm", 0}, {"placementClosed", 1}, {"roomsShed", 2}, {"admissionsClosed", 3}, {"roomsMigrated", 4}};
inline constexpr wire::EnumDef kShardLoadRungDef{"ShardLoadRung", kShardLoadRungMembers};

// The rungs above calm, which the contract lists.
inline constexpr std::size_t kRoomLadderRungs = static_cast<std::size_t>(RoomLoadRung::count_) - 1;
inline constexpr std::size_t kShardLadderRungs = static_cast<std::size_t>(ShardLoadRung::count_) - 1;

namespace load_detail {

// `camel` is `snake` spelled in camelCase ("world_lane_slowed" -> "worldLaneSlowed").
constexpr bool is_camel_of(std::string_view snake, std::string_view camel) {
  std::size_t at = 0;
  bool upper_next = false;
  for (const char c : snake) {
    if (c == '_') {
      upper_next = true;
      continue;
    }
    const char expected = upper_next && c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
    if (at >= camel.size() || camel[at++] != expected) return false;
    upper_next = false;
  }
  return at == camel.size();
}

// A wire enum's members are the reason enum's, in its order, spelled in camelCase.
template <std::size_t N>
constexpr bool members_follow(std::span<const wire::NamedValue> members, const std::array<std::string_view, N>& names) {
  if (members.size() != N) return false;
  for (std::size_t i = 0; i < N; ++i) {
    if (members[i].value != i || !is_camel_of(names[i], members[i].name)) return false;
  }
  return true;
}

}  // namespace load_detail

static_assert(load_detail::members_follow(kRoomLoadRungMembers, RoomLoadRung_reason_names));
static_assert(load_detail::members_follow(kShardLoadRungMembers, ShardLoadRung_reason_names));

// Ranges the ladders' numbers are validated against.
inline constexpr uint16_t kLoadMaxCostPercent = 1000;  // a room's tick cost: ten times its budget
inline constexpr uint16_t kLoadMaxBusyPercent = 100;   // a shard's thread busy all the time
inline constexpr uint16_t kLoadMaxLagTicks = 1024;
// Room below the kill threshold for every rung, each entering one tick of lag above the last.
inline constexpr uint16_t kLoadMinKillLagTicks = static_cast<uint16_t>(kShardLadderRungs + 1);
inline constexpr uint32_t kLoadMaxReleaseDwellMs = 600'000;
inline constexpr uint16_t kLoadMaxWorldLaneDivisor = 16;
inline constexpr uint16_t kLoadMinShedPercent = 10;  // interest radius and snapshot budget: never below a tenth
// The cap on a ladder's list as the walks read it; the contract rules then ask for exactly its rungs
// (a cap of the rung count itself trips GCC 12's -Wstringop-overflow at -O3 in the read walk's resize).
inline constexpr std::size_t kLoadMaxListedRungs = 16;

// One rung of a ladder: its name and, for each of the ladder's two signals (its load in percent, its
// lag in ticks), the threshold it engages at and the one it releases at. It engages when either
// signal reaches its enter threshold; it releases once both have stayed at or below their release
// thresholds for the ladder's dwell (contract rules: release below enter, enter thresholds rising
// rung by rung, every rung listed once in order). `Names` tells the ladders apart on the wire.
template <class Names>
struct RungThresholds {
  typename Names::Rung rung{};
  uint16_t enter_percent = 0;  // the load signal: a room's tick cost, a shard's busy share
  uint16_t release_percent = 0;
  uint16_t enter_lag_ticks = 0;
  uint16_t release_lag_ticks = 0;
  friend bool operator==(const RungThresholds&, const RungThresholds&) = default;

  static constexpr std::string_view wire_name = Names::wire_name;
  template <class W>
  void fields(W& w) {
    w.enum8("rung", rung, Names::rungs);
    contract_u16(w, Names::enter_percent, enter_percent, 1, Names::max_percent);
    contract_u16(w, Names::release_percent, release_percent, 0, Names::max_percent);
    contract_u16(w, "enterLagTicks", enter_lag_ticks, 1, kLoadMaxLagTicks);
    contract_u16(w, "releaseLagTicks", release_lag_ticks, 0, kLoadMaxLagTicks);
  }
};

// The room ladder's load signal is the room's tick cost, in percent of its tick budget.
struct RoomRungNames {
  using Rung = RoomLoadRung;
  static constexpr std::string_view wire_name = "RoomRungThresholds";
  static constexpr const wire::EnumDef& rungs = kRoomLoadRungDef;
  static constexpr const char* enter_percent = "enterCostPercent";
  static constexpr const char* release_percent = "releaseCostPercent";
  static constexpr uint16_t max_percent = kLoadMaxCostPercent;
};
using RoomRungThresholds = RungThresholds<RoomRungNames>;

// The shard ladder's load signal is the share of the window its thread was busy, in percent. Every
// enter lag lies below the kill threshold (contract rules), so the ladder has shed all it can
// before the shard would be killed.
struct ShardRungNames {
  using Rung = ShardLoadRung;
  static constexpr std::string_view wire_name = "ShardRungThresholds";
  static constexpr const wire::EnumDef& rungs = kShardLoadRungDef;
  static constexpr const char* enter_percent = "enterBusyPercent";
  static constexpr const char* release_percent = "releaseBusyPercent";
  static constexpr uint16_t max_percent = kLoadMaxBusyPercent;
};
using ShardRungThresholds = RungThresholds<ShardRungNames>;

std::vector<RoomRungThresholds> default_room_rungs();
std::vector<ShardRungThresholds> default_shard_rungs();

// The room ladder: its rungs, how long the signals must stay at or below a rung's release
// thresholds before it releases, and what its rungs shed by (1 or 100: that rung sheds nothing).
struct RoomLadderPolicy {
  std::vector<RoomRungThresholds> rungs = default_room_rungs();
  uint32_t release_dwell_ms = 2'000;
  uint16_t world_lane_divisor = 2;        // world_lane_slowed: the world lane every ticksPerSnapshot x this ticks
  uint16_t interest_radius_percent = 75;  // interest_narrowed: the radius (and the pose radius within it)
  uint16_t snapshot_budget_percent = 60;  // snapshot_budget_cut: the budget, never below the contract's least
  friend bool operator==(const RoomLadderPolicy&, const RoomLadderPolicy&) = default;

  static constexpr std::string_view wire_name = "RoomLadderPolicy";
  template <class W>
  void fields(W& w) {
    contract_list8(w, "rungs", rungs, kLoadMaxListedRungs);  // exactly kRoomLadderRungs (contract rules)
    contract_u32(w, "releaseDwellMs", release_dwell_ms, 0, kLoadMaxReleaseDwellMs);
    contract_u16(w, "worldLaneDivisor", world_lane_divisor, 1, kLoadMaxWorldLaneDivisor);
    contract_u16(w, "interestRadiusPercent", interest_radius_percent, kLoadMinShedPercent, 100);
    contract_u16(w, "snapshotBudgetPercent", snapshot_budget_percent, kLoadMinShedPercent, 100);
  }
};

// The shard ladder: its rungs, its dwell, and the tick-lag at which the shard is killed. The kill
// threshold is never relaxed: no rung moves it, and every rung engages below it.
struct ShardLadderPolicy {
  std::vector<ShardRungThresholds> rungs = default_shard_rungs();
  uint32_t release_dwell_ms = 5'000;
  uint16_t kill_lag_ticks = 32;  // half a second at 60 Hz: the room clock's own overload threshold
  friend bool operator==(const ShardLadderPolicy&, const ShardLadderPolicy&) = default;

  static constexpr std::string_view wire_name = "ShardLadderPolicy";
  template <class W>
  void fields(W& w) {
    contract_list8(w, "rungs", rungs, kLoadMaxListedRungs);  // exactly kShardLadderRungs (contract rules)
    contract_u32(w, "releaseDwellMs", release_dwell_ms, 0, kLoadMaxReleaseDwellMs);
    contract_u16(w, "killLagTicks", kill_lag_ticks, kLoadMinKillLagTicks, kLoadMaxLagTicks);
  }
};

// The contract's `load`: both ladders. The shard ladder rides in every room's contract so that all
// a room may shed is read from it; rooms placed on one shard are meant to share it.
struct LoadPolicy {
  RoomLadderPolicy room;
  ShardLadderPolicy shard;
  friend bool operator==(const LoadPolicy&, const LoadPolicy&) = default;

  static constexpr std::string_view wire_name = "LoadPolicy";
  template <class W>
  void fields(W& w) {
    w.shape("room", room);
    w.shape("shard", shard);
  }
};

}  // namespace tickwire

// RoomPolicy: what a room is configured with, the input the netcode contract is resolved from.
// Identity and content coordinates, cadence, interpolation defaults, the input queue, forgiveness,
// byte budgets and interaction/fire limits are contract material; RoomBookkeeping (player count,
// lease progress) is volatile and by construction never reaches the contract or its revision key.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace tickwire {

// Defaults and ranges a policy is resolved and validated against.
inline constexpr uint32_t kContractDefaultTickRateHz = 60;
inline constexpr uint32_t kContractMaxTickRateHz = 240;
inline constexpr uint32_t kContractDefaultMaxCatchUpTicks = 4;
inline constexpr uint32_t kContractMaxCatchUpTicksCap = 16;
inline constexpr uint32_t kContractDefaultInputQueueTicks = 12;
inline constexpr uint32_t kContractMaxInputQueueTicks = 64;  // the signed queue-depth byte must hold it
inline constexpr uint32_t kContractDefaultStarvationTicks = 3;
inline constexpr uint32_t kContractDefaultInterpBufferTicks = 16;
inline constexpr uint32_t kContractMaxInterpBufferTicks = 256;
inline constexpr uint32_t kContractMaxPacketBytes = 1200;
inline constexpr uint32_t kContractMinPacketBytes = 256;
inline constexpr uint32_t kContractMaxSnapshotFragments = 16;
inline constexpr std::size_t kContractMaxStringBytes = 128;

// Who and what the room is: the identity and content coordinates.
struct RoomIdentity {
  std::string room_id;
  std::string game;
  std::string deployment;
  std::string content_version;
  std::string environment;
  std::string blueprint;      // may be empty
  std::string room_template;  // may be empty
};

struct CadencePolicy {
  uint32_t tick_rate_hz = kContractDefaultTickRateHz;
  uint32_t snapshot_rate_hz = kContractDefaultTickRateHz;  // one snapshot per tick by default
  uint32_t max_catch_up_ticks = kContractDefaultMaxCatchUpTicks;
};

struct InterpolationPolicy {
  double delay_snapshot_intervals = 2.0;  // the base delay: two snapshot intervals
  uint32_t buffer_ticks = kContractDefaultInterpBufferTicks;
  double margin_growth_ticks = 1.0;  // JitterMargin growth per held or snapped frame
  double max_margin_ticks = 8.0;
  double margin_decay_seconds = 2.0;  // calm time that hands back one margin tick
  bool auto_margin = true;
  uint32_t max_extrapolation_ms = 100;  // a stalled lane extrapolates no further than this
};

struct InputPolicy {
  uint32_t queue_ticks = kContractDefaultInputQueueTicks;
  uint32_t starvation_ticks = kContractDefaultStarvationTicks;  // ticks the last input repeats
  double forgiveness = 1.0;  // 1.0: the server's answer always stands; below: claims may be adopted
};

struct ByteBudgets {
  uint32_t max_packet_bytes = kContractMaxPacketBytes;
  uint32_t max_snapshot_fragments = kContractMaxSnapshotFragments;
  uint32_t snapshot_budget_bytes = 8 * kContractMaxPacketBytes;
  uint32_t client_bytes_per_second = 256 * 1024;
};

struct InteractionLimits {
  double interaction_range_m = 3.0;
  uint32_t interactions_per_second = 8;
  uint32_t fire_per_second = 15;
  uint32_t max_rewind_ms = 250;  // how far back a hit may be judged
};

// Volatile bookkeeping: changes while the room runs and must never change its contract.
struct RoomBookkeeping {
  uint32_t player_count = 0;
  double lease_progress = 0.0;  // share of the owner lease's term elapsed
  uint64_t lease_renewals = 0;
};

struct RoomPolicy {
  RoomIdentity identity;
  CadencePolicy cadence;
  InterpolationPolicy interpolation;
  InputPolicy input;
  ByteBudgets budgets;
  InteractionLimits limits;
  RoomBookkeeping bookkeeping;
};

}  // namespace tickwire

// RoomPolicy: what a room is configured with, the input the netcode contract is resolved from.
// Identity and content coordinates, cadence, interpolation defaults, the input queue, forgiveness,
// byte budgets and interaction/fire limits are contract material; RoomBookkeeping (player count,
// lease progress) is volatile and by construction never reaches the contract or its revision key.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "tickwire/protocol/vocabulary.h"

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

  static constexpr std::string_view wire_name = "RoomIdentity";
  template <class W>
  void fields(W& w) {
    w.str8("roomId", room_id, kContractMaxStringBytes);
    w.str8("game", game, kContractMaxStringBytes);
    w.str8("deployment", deployment, kContractMaxStringBytes);
    w.str8("contentVersion", content_version, kContractMaxStringBytes);
    w.str8("environment", environment, kContractMaxStringBytes);
    w.str8("blueprint", blueprint, kContractMaxStringBytes);
    w.str8("roomTemplate", room_template, kContractMaxStringBytes);
  }
};

struct CadencePolicy {
  uint32_t tick_rate_hz = kContractDefaultTickRateHz;
  uint32_t snapshot_rate_hz = kContractDefaultTickRateHz;  // one snapshot per tick by default
  uint32_t max_catch_up_ticks = kContractDefaultMaxCatchUpTicks;

  static constexpr std::string_view wire_name = "CadencePolicy";
  template <class W>
  void fields(W& w) {
    w.u32("tickRateHz", tick_rate_hz);
    w.u32("snapshotRateHz", snapshot_rate_hz);
    w.u32("maxCatchUpTicks", max_catch_up_ticks);
  }
};

struct InterpolationPolicy {
  double delay_snapshot_intervals = 2.0;  // the base delay: two snapshot intervals
  uint32_t buffer_ticks = kContractDefaultInterpBufferTicks;
  double margin_growth_ticks = 1.0;  // JitterMargin growth per held or snapped frame
  double max_margin_ticks = 8.0;
  double margin_decay_seconds = 2.0;  // calm time that hands back one margin tick
  bool auto_margin = true;
  uint32_t max_extrapolation_ms = 100;  // a stalled lane extrapolates no further than this

  static constexpr std::string_view wire_name = "InterpolationPolicy";
  template <class W>
  void fields(W& w) {
    w.f64("delaySnapshotIntervals", delay_snapshot_intervals);
    w.u32("bufferTicks", buffer_ticks);
    w.f64("marginGrowthTicks", margin_growth_ticks);
    w.f64("maxMarginTicks", max_margin_ticks);
    w.f64("marginDecaySeconds", margin_decay_seconds);
    w.boolean("autoMargin", auto_margin);
    w.u32("maxExtrapolationMs", max_extrapolation_ms);
  }
};

struct InputPolicy {
  uint32_t queue_ticks = kContractDefaultInputQueueTicks;
  uint32_t starvation_ticks = kContractDefaultStarvationTicks;  // ticks the last input repeats
  double forgiveness = 1.0;  // 1.0: the server's answer always stands; below: claims may be adopted

  static constexpr std::string_view wire_name = "InputPolicy";
  template <class W>
  void fields(W& w) {
    w.u32("queueTicks", queue_ticks);
    w.u32("starvationTicks", starvation_ticks);
    w.f64("forgiveness", forgiveness);
  }
};

struct ByteBudgets {
  uint32_t max_packet_bytes = kContractMaxPacketBytes;
  uint32_t max_snapshot_fragments = kContractMaxSnapshotFragments;
  uint32_t snapshot_budget_bytes = 1000;
  uint32_t client_bytes_per_second = 256 * 1024;

  static constexpr std::string_view wire_name = "ByteBudgets";
  template <class W>
  void fields(W& w) {
    w.u32("maxPacketBytes", max_packet_bytes);
    w.u32("maxSnapshotFragments", max_snapshot_fragments);
    w.u32("snapshotBudgetBytes", snapshot_budget_bytes);
    w.u32("clientBytesPerSecond", client_bytes_per_second);
  }
};

struct InterestPolicy {
  double radius_m = 100.0;
  double pose_radius_m = 30.0;
  static constexpr std::string_view wire_name = "InterestPolicy";
  template <class W>
  void fields(W& w) {
    w.f64("radiusM", radius_m);
    w.f64("poseRadiusM", pose_radius_m);
  }
};

struct InteractionLimits {
  double interaction_range_m = 3.0;
  uint32_t interactions_per_second = 8;
  uint32_t relays_per_second = 60;
  uint32_t fire_per_second = 15;
  uint32_t max_rewind_ms = 250;  // how far back a hit may be judged

  static constexpr std::string_view wire_name = "InteractionLimits";
  template <class W>
  void fields(W& w) {
    w.f64("interactionRangeM", interaction_range_m);
    w.u32("interactionsPerSecond", interactions_per_second);
    w.u32("firePerSecond", fire_per_second);
    w.u32("maxRewindMs", max_rewind_ms);
  }
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
  InterestPolicy interest;
  GameVocabulary vocabulary;
  RoomBookkeeping bookkeeping;
};

}  // namespace tickwire

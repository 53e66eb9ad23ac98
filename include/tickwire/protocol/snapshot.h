// Snapshot: the authority frame the room sends each client once per simulated tick, stamped with
// the tick it describes and the contract hash. The owner detail tells the owning client the truth
// about its inputs (the last input sequence actually simulated, and the signed queue-depth byte)
// and its pawn as simulated, which prediction reconciles against; the records are the tick's state;
// the world settings the room ran the tick under close it.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "tickwire/protocol/constants.h"
#include "tickwire/protocol/pawn_values.h"
#include "tickwire/protocol/record_batch.h"
#include "tickwire/protocol/vec3.h"
#include "tickwire/protocol/world_settings.h"
#include "tickwire/wire/describe_walker.h"
#include "tickwire/wire/types.h"

namespace tickwire::protocol {

// The owner's pawn as the server simulated it at the frame's tick. Beside position and velocity it
// carries the game's registered pawn values (GameVocabulary::pawn_values, in order: a stance
// height, an eye height...) and its entity flag bits.
struct PawnDetail {
  static constexpr std::string_view wire_name = "PawnDetail";
  uint64_t pawn_ref = 0;
  Vec3 position, velocity;
  PawnValues values;
  uint8_t flags = 0;            // FlagDef bits of GameVocabulary::entity_flags
  uint8_t placement_epoch = 0;  // bumps on every teleport/respawn: a prediction older than it snaps

  template <class W>
  void fields(W& w) {
    w.u64("pawnRef", pawn_ref);
    w.shape("position", position);
    w.shape("velocity", velocity);
    w.list8("values", values, 0, MaxPawnValues);
    w.u8("flags", flags);
    w.u8("placementEpoch", placement_epoch);
  }
  friend bool operator==(const PawnDetail&, const PawnDetail&) = default;
};

// What the server did with the claim that rode the tick's input (telemetry for the owning client:
// the client reconciles against the pawn detail either way).
enum class ClaimOutcome : uint8_t { none = 0, accepted = 1, corrected = 2 };
inline constexpr wire::NamedValue kClaimOutcomeMembers[] = {{"none", 0}, {"accepted", 1}, {"corrected", 2}};
inline constexpr wire::EnumDef kClaimOutcomeDef{"ClaimOutcome", kClaimOutcomeMembers};

// The last input sequence simulated (absent until the first input ran).
struct InputAck {
  static constexpr std::string_view wire_name = "InputAck";
  uint32_t sequence = 0;
  template <class W>
  void fields(W& w) {
    w.u32("sequence", sequence);
  }
  friend bool operator==(const InputAck&, const InputAck&) = default;
};

struct OwnerDetail {
  static constexpr std::string_view wire_name = "OwnerDetail";
  std::optional<InputAck> ack;  // honest: captured when the tick took its input
  int8_t queue_depth = 0;       // inputs waiting unsimulated, or minus the consecutive starved ticks
  PawnDetail pawn;
  ClaimOutcome claim = ClaimOutcome::none;  // ClaimAccepted: the tick's claim adopted or not

  template <class W>
  void fields(W& w) {
    w.optional("ack", ack);
    w.i8("queueDepth", queue_depth);
    w.shape("pawn", pawn);
    w.enum8("claim", claim, kClaimOutcomeDef);
  }
  friend bool operator==(const OwnerDetail&, const OwnerDetail&) = default;
};

struct Snapshot {
  static constexpr std::string_view wire_name = "Snapshot";
  static constexpr std::string_view message_name = "snapshot";
  static constexpr uint8_t wire_id = 17;
  static constexpr wire::Direction wire_direction = wire::Direction::server_to_client;

  uint32_t tick = 0;
  wire::Hash16 contract_hash;
  std::optional<OwnerDetail> owner;  // present for a client that owns a pawn
  uint16_t record_count = 0;
  std::vector<Record> records;
  WorldSettings world;  // the room's settings at this tick (an older writer's: the defaults)

  template <class W>
  void fields(W& w) {
    w.u32("tick", tick);
    w.hash16("contractHash", contract_hash);
    w.optional("owner", owner);
    w.u16("recordCount", record_count);
    w.counted("records", records, "recordCount", record_count, MaxRecordsPerSnapshot);
    w.tail();
    w.shape("world", world);
  }
};

}  // namespace tickwire::protocol

// ReplicationServer: a room's whole snapshot production, free of any transport. Once a tick it
// takes the game's records: quantizes them once into the tick's world frame, files the entities
// for interest (with the game's notes and the clients' pawns), keeps the rest table taken from the
// game's map objects; then per client it composes that client's frame (interest, byte budget,
// lanes), codes it against what the client says it holds, and hands back encoded messages: the
// rest table's chunks (reliable) and the snapshot, whole or as its fragments (unreliable). A
// client of another build gets the full Snapshot, cut by the same interest composer. Every policy
// number (budget, fragments, radius, lanes) comes from the contract. The room, the benchmarks and
// the tests all drive this one service.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "tickwire/clock/time.h"
#include "tickwire/core/owner_id.h"
#include "tickwire/core/reasons.h"
#include "tickwire/core/reason_counters.h"
#include "tickwire/protocol/contract_hash.h"
#include "tickwire/protocol/netcode_contract.h"
#include "tickwire/protocol/snapshot.h"
#include "tickwire/protocol/snapshot_delta.h"
#include "tickwire/replication/budget/replication_limits.h"
#include "tickwire/replication/builder/client_replication_state.h"
#include "tickwire/replication/builder/client_snapshot_builder.h"
#include "tickwire/replication/fragments/snapshot_slicer.h"
#include "tickwire/replication/interest/interest_set.h"
#include "tickwire/replication/interest/tick_interest.h"
#include "tickwire/replication/rest_record_source.h"
#include "tickwire/replication/rest_table/map_rest_table.h"
#include "tickwire/replication/tick_records.h"

namespace tickwire {

// The most clients one service serves (owner ids 1..kMaxClientOwner).
inline constexpr uint32_t kReplicationMaxClients = kMaxClientOwner;
// A client holding nothing to code against gets a fragmented whole-state snapshot at most this often.
inline constexpr uint32_t kUnreferencedEveryTicks = 8;

struct ReplicationServerConfig {
  // Tuning that is not policy (the contract's lanes and budget override what they name).
  ClientSnapshotBuilderConfig builder;
  TickInterestConfig interest;
  // The unreliable channel's message cap: whole snapshots up to it, fragments past it (the
  // contract's max_snapshot_fragments is the ceiling).
  SnapshotFragmentBudget fragments = SnapshotFragmentBudget::of(protocol::MaxPacketBytes - 100);
  ClientReplicationConfig client;  // per-client history and logs (max_entities and fragments are set here)
  // A client holding nothing to code against gets a whole state past one message at most once in
  // this many ticks (on a narrow link such a set may never complete while the next one crowds it).
  uint32_t unreferenced_every_ticks = kUnreferencedEveryTicks;
};

// What a client's build takes (from its peer schema).
struct ReplicationFormat {
  bool deltas = true;      // it lists snapshotDelta: interest, budget and delta coding
  bool rest_table = true;  // ... and mapRestTable: it is sent the rest table
};

// Why a client was sent no snapshot this tick (counted per client).
TW_REASONS(SnapshotHold,
  not_world_tick,         // a full-snapshot client between world-lane ticks
  awaiting_rest_table,    // nothing to code against but the rest table, still on its way
  unreferenced_recently,  // a whole state past one message went out less than kUnreferencedEveryTicks ago
  over_ceiling           // past the contract's fragment ceiling: not sent
)

struct ReplicationClientStats {
  uint64_t snapshots_sent = 0;
  uint64_t fragments_sent = 0;
  uint64_t fragment_sets_sent = 0;  // of snapshots_sent, those sent as fragments
  uint64_t snapshot_bytes = 0;     // encoded snapshot bytes (id byte included), fragment headers not
  uint64_t delta_snapshots = 0;    // of snapshots_sent, coded against a frame the client held
  uint64_t baseline_age_ticks = 0;  // summed over delta_snapshots
  uint64_t records_deferred = 0;    // visible entity states the budget left for a later tick (summed)
  uint64_t unsent = 0;              // built, then refused by the transport (its frame forgotten)
  ReasonCounters<SnapshotHold> holds;
  Tick first_snapshot_tick;
  Tick last_snapshot_tick;
};

// One client's messages for one tick, encoded (each message's id byte first), valid until the next
// build(): `reliable` before `unreliable`.
struct ClientMessages {
  std::span<const std::span<const uint8_t>> reliable;    // rest table chunks not yet taken (reliable_taken)
  std::span<const std::span<const uint8_t>> unreliable;  // the snapshot, whole or its fragments
  bool snapshot = false;                                 // a snapshot is in `unreliable`
};

class ReplicationServer {
 public:
  ReplicationServer(const NetcodeContract& contract, const ReplicationServerConfig& config = {});
  ~ReplicationServer();
  ReplicationServer(const ReplicationServer&) = delete;
  ReplicationServer& operator=(const ReplicationServer&) = delete;

  const NetcodeContract& contract() const { return contract_; }
  const ContractHash& contract_hash() const { return contract_hash_; }
  const ReplicaKinds& kinds() const { return kinds_; }

  // A client joins: `owner` 1..255, its pawn's record id (0: none, a spectator) and its format.
  void add_client(OwnerId owner, uint32_t pawn_record_id, const ReplicationFormat& format);
  void remove_client(OwnerId owner);
  bool has_client(OwnerId owner) const {
    return owner != 0 && owner <= kReplicationMaxClients && clients_[owner] != nullptr;
  }
  // What the client says it holds (every InputFrame carries it): baselines and the rest table.
  void on_held(OwnerId owner, const protocol::SnapshotsHeld& held);
  // How many of the last build()'s `reliable` messages the channel took, in order. The rest are
  // offered again by the next build(), so a rest table of any size streams as fast as the reliable
  // channel drains, never past its send queue.
  void reliable_taken(OwnerId owner, std::size_t count);
  // A per-client cap on the snapshot budget (a link estimate); 0 lifts it. The contract's budget
  // always applies.
  void set_budget_cap(OwnerId owner, uint32_t bytes);
  // The room's world settings from the next begin_tick() on (every snapshot carries them; the
  // contract's values until set). Valid settings only (protocol::valid_world_settings).
  void set_world_settings(const protocol::WorldSettings& settings);
  const protocol::WorldSettings& world_settings() const { return world_; }
  // The limits the room's snapshots run at from the next build() on: the contract's until set; a
  // room under load tightens them (held within the contract's: replication_limits.h).
  void set_limits(const ReplicationLimits& limits);
  const ReplicationLimits& limits() const { return limits_; }
  // A spectator's interest centre (a client without a pawn record).
  void set_view_centre(OwnerId owner, float x_m, float z_m);
  // Whether the client's coded records are logged bit by bit (ClientReplicationState::record_bits,
  // from its next snapshot on): the snapshot inspector's switch; off costs nothing.
  void inspect_records(OwnerId owner, bool on);

  // Once per tick, before the clients: the game's records (kept by the caller until the tick's
  // builds are done) and its map objects, retaken when their generation moved or a named one vanished.
  void begin_tick(Tick tick, const TickRecords& records, const RestRecordSource& rest);
  // The tick's world frame quantized and filed for interest; the first build() does it if not
  // called (a caller timing the shared work apart from the clients' calls it).
  void prepare_tick();
  // The tick's messages for one client; `owner_detail` is its truth this tick (absent: no pawn).
  ClientMessages build(OwnerId owner, const std::optional<protocol::OwnerDetail>& owner_detail, MonoTime now);
  // The transport refused what build() returned: the frame is forgotten, never a baseline.
  void unsent(OwnerId owner);
  // The last snapshot build() made, whole, before slicing (id byte first); valid until the next build().
  std::span<const uint8_t> last_snapshot() const { return {encoded_.data(), last_snapshot_bytes_}; }

  // Whether `tick` runs the world lane (the limits' rate: the contract's snapshot rate unless slowed);
  // the pose lane runs every tick.
  bool world_tick(Tick tick) const;
  const ReplicationClientStats* stats(OwnerId owner) const;
  const ClientReplicationState* replication(OwnerId owner) const;
  const MapRestTable& rest_table() const { return rest_; }
  const TickInterest& interest() const { return interest_; }
  const SnapshotSlicer& slicer() const { return slicer_; }
  // The world-frame sharing figures (the builder's; callers outside replication do not reach the
  // snapshot producer itself): frames allocated, states copied into sent frames, pool events.
  uint32_t world_frames() const { return builder_.world_frames(); }
  uint64_t frame_states_copied() const { return builder_.states_copied(); }
  const ReasonCounters<WorldFrameEvent>& world_frame_events() const { return builder_.world_frame_events(); }
  uint64_t snapshots_built() const { return snapshots_built_; }

 private:
  struct Client;
  void refresh_rest_table(const RestRecordSource& rest);
  void encode_rest_chunks();
  void prefetch_after(OwnerId owner) const;
  ClientMessages finish(Client& c, std::size_t bytes);
  bool build_delta(Client& c, MonoTime now, std::size_t& bytes);
  bool build_full(Client& c, std::size_t& bytes);
  ClientView view_of(const Client& c) const;

  NetcodeContract contract_;
  ContractHash contract_hash_;
  ReplicaKinds kinds_;
  ReplicationServerConfig config_;
  ReplicationLimits limits_;  // the contract's, or tighter ones a room under load set
  std::vector<std::unique_ptr<Client>> clients_;  // by owner id (0 unused)
  // The tick.
  Tick tick_;
  const TickRecords* records_ = nullptr;
  bool delta_tick_begun_ = false;
  std::vector<ReplicaState> world_states_;  // the tick's records quantized, once per tick
  std::vector<PawnMark> pawns_;
  TickInterest interest_;
  ReplicaFrame world_frame_;                // the tick's frame the clients' frames are cut from
  std::vector<uint32_t> world_entities_;    // the interest index of each of its states
  ClientSnapshotBuilder builder_;
  InterestComposer composer_;               // the full-snapshot cut
  InterestSet full_set_;
  EntityMarks full_marks_;
  // Scratch.
  protocol::Snapshot full_;
  protocol::SnapshotDelta delta_;
  std::vector<uint8_t> body_;
  std::vector<uint8_t> encoded_;
  SnapshotSlicer slicer_;
  protocol::WorldSettings world_;           // what the next tick carries
  std::vector<std::span<const uint8_t>> reliable_;
  std::vector<std::span<const uint8_t>> unreliable_;
  // The rest table.
  RestRevisions revisions_;
  MapRestTable rest_;
  uint64_t rest_generation_ = 0;
  wire::Hash16 rest_map_identity_;  // the map the table in hand is of (RestRecordSource::map_identity)
  std::vector<protocol::Record> rest_records_;
  std::vector<std::vector<uint8_t>> rest_messages_;  // the table's chunks, encoded once per take
  uint64_t snapshots_built_ = 0;
  std::size_t last_snapshot_bytes_ = 0;
};

}  // namespace tickwire

// RoomServer: the room on the network. It turns each netcode connection into a session: runs the
// connect sequence (schema hashes, texts once per hash, a plan for another build), admits the
// session into the room with a RoomWelcome carrying the contract, routes every message (rewritten
// into our shapes) to the room, and from the room's completed seam sends each admitted client one
// Snapshot per snapshot tick, stamped with the tick and the contract hash.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tickwire/core/reason_counters.h"
#include "tickwire/protocol/peer_schema.h"
#include "tickwire/protocol/session_channels.h"
#include "tickwire/protocol/snapshot.h"
#include "tickwire/protocol/snapshot_delta.h"
#include "tickwire/replication/rest_table/map_rest_table.h"
#include "tickwire/replication/frames/replica_kinds.h"
#include "tickwire/replication/builder/client_replication_state.h"
#include "tickwire/replication/builder/client_snapshot_builder.h"
#include "tickwire/replication/fragments/snapshot_slicer.h"
#include "tickwire/server/room.h"
#include "tickwire/server/room_interest.h"
#include "tickwire/transport/net_channel.h"
#include "tickwire/transport/reliable_server.h"
#include "tickwire/wire/codec.h"

namespace tickwire {

// A client holding nothing to code against gets a fragmented whole-state snapshot at most this often.
inline constexpr uint32_t kUnreferencedEveryTicks = 8;

struct RoomServerConfig {
  std::string build_name = "tickwire";
  uint8_t reliable_channel = kSessionReliableChannel;
  uint8_t unreliable_channel = kSessionUnreliableChannel;
  ReplicaKinds kinds = ReplicaKinds::defaults();  // the game's kinds: each one's wire precision
  RoomInterestConfig interest;  // a delta client sees entity records within this radius of its pawn
  // A delta client's snapshot message per snapshot tick: what does not fit waits, gaining priority.
  // Fitting works on estimates, so the default leaves a tenth of one message (1,096 bytes) spare.
  uint32_t snapshot_budget_bytes = 1000;
  ClientSnapshotBuilderConfig builder;  // lanes, baseline window, estimate calibration
};

// Why a session's message was not acted on (counted; the session goes on).
enum class SessionDrop : uint8_t {
  undecodable,      // a message that did not decode as its shape
  unexpected,       // a message this side never takes (or one before admission)
  snapshot_unsent,  // the transport refused a snapshot or one of its fragments (queue full)
  snapshot_over_ceiling,  // a snapshot past MaxSnapshotFragments fragments: not sent
  admit_refused,    // the room had no room (owner taken or no entity slot): the client is dropped
  count_,
};

// One connection's view, for tests, the report and diagnostics.
struct SessionStats {
  uint64_t snapshots_sent = 0;
  uint64_t fragments_sent = 0;
  uint64_t snapshot_bytes = 0;  // encoded snapshot bytes (id byte included), fragment headers not
  uint64_t delta_snapshots = 0;     // of snapshots_sent, coded against a frame the client held
  uint64_t baseline_age_ticks = 0;  // summed over delta_snapshots
  uint64_t snapshots_awaiting_rest_table = 0;  // ticks not sent: no reference held yet, the table on its way
  uint64_t snapshots_unreferenced_skipped = 0;  // ticks not sent: a fragmented whole state went out recently
  uint64_t records_deferred = 0;  // visible entity states the budget left for a later tick (summed)
  uint64_t inputs_received = 0;
  Tick first_snapshot_tick;
  Tick last_snapshot_tick;
};

class RoomServer : public TickObserver {
 public:
  // `transport`, `room` and `cache` must outlive the server; max clients must be <= 255.
  RoomServer(ReliableServer& transport, Room& room, SchemaCache& cache, const RoomServerConfig& config = {});

  // One loop iteration at `now`: receive, run the connect sequences and route messages, run the
  // room's due ticks (their snapshots go out from on_tick_completed), send. Returns the room's update.
  RoomUpdate update(MonoTime now, WallTime wall_now);

  void on_tick_completed(Tick tick) override;

  Room& room() { return room_; }
  const Room& room() const { return room_; }
  ReliableServer& transport() { return transport_; }
  // The connection at a netcode slot; owner ids are slot + 1.
  static OwnerId owner_of_slot(uint32_t slot) { return static_cast<OwnerId>(slot + 1); }
  bool admitted(uint32_t slot) const;
  const PeerSchema* peer(uint32_t slot) const;
  const SessionStats* stats(uint32_t slot) const;
  NetChannel* channel(uint32_t slot);
  const ReasonCounters<SessionDrop>& drops() const { return drops_; }
  const wire::DecodeErrorCounters& decode_errors() const { return decode_errors_; }
  // Connect-sequence refusals over every session, closed and live.
  ReasonCounters<PeerRefusal> refusals() const;
  uint64_t snapshots_sent() const { return snapshots_sent_; }
  const SnapshotSlicer& slicer() const { return slicer_; }
  uint64_t sessions_admitted() const { return sessions_admitted_; }
  const MapRestTable& rest_table() const { return rest_; }

 private:
  struct Connection {
    Connection(ReliableEndpoint& endpoint, OwnerId owner, SchemaCache& cache, const RoomServerConfig& config,
               const SnapshotFragmentBudget& fragments);
    OwnerId owner;
    NetChannel net;
    PeerSchema peer;
    bool admitted = false;
    bool takes_deltas = false;  // the peer's schema lists snapshotDelta
    bool takes_rest = false;    // ... and mapRestTable: it is sent the rest table
    uint32_t rest_sent = 0;     // the rest table revision it was sent
    uint32_t rest_held = 0;     // the revision it reports holding whole
    uint32_t last_unreferenced_tick = 0;  // the last fragmented snapshot coded against nothing
    uint32_t pawn_index = kNoEntity;  // its pawn's interest index this tick (kNoEntity: not filed)
    ClientReplicationState replication;  // what a delta client was sent and holds, its priorities, its logs
    SessionStats stats;
  };

  void take_events();
  void receive_all(MonoTime now);
  void receive_channel(uint32_t slot, uint8_t channel, bool reliable);
  void after_message(uint32_t slot);
  void admit(uint32_t slot);
  void dispatch(Connection& connection, const PeerMessage& message);
  void drop_client(uint32_t slot, MonoTime now);
  void refresh_rest_table();
  void send_rest_table(Connection& c);
  bool send_snapshot(Connection& c, Tick tick);
  void begin_delta_tick(Tick tick);
  void prefetch_next_delta_client(std::size_t slot) const;
  bool send_delta_snapshot(Connection& c, Tick tick);
  void log_diagnostics(Connection& c, Tick tick, uint64_t lines_before);
  bool send_encoded(Connection& c, Tick tick, std::size_t bytes);

  ReliableServer& transport_;
  Room& room_;
  SchemaCache& cache_;
  RoomServerConfig config_;
  std::vector<std::unique_ptr<Connection>> connections_;  // by netcode slot
  std::vector<uint32_t> to_drop_;                       // slots whose session failed this iteration
  protocol::Snapshot snapshot_;                         // the tick's frame, reused
  protocol::Snapshot cut_snapshot_;                     // one full-snapshot client's cut of it, reused
  std::vector<ReplicaState> world_states_;              // the tick's records quantized, once per tick
  RoomInterest interest_;                               // where the entity records are, whose pawn is which
  ReplicaFrame world_frame_;                            // the tick's frame the clients' frames are cut from
  std::vector<uint32_t> world_entities_;                // the interest index of each of its states
  ClientSnapshotBuilder builder_;                       // interest, budget and delta, one client at a time
  MonoTime now_;                                        // the update's time (the budget logs' clock)
  protocol::SnapshotDelta delta_;                       // one delta client's message, reused
  std::vector<uint8_t> body_;                           // its body bytes
  std::vector<uint8_t> encoded_;                        // one client's encoded snapshot (id first)
  SnapshotSlicer slicer_;
  RestRevisions revisions_;                             // this server's rest table revisions
  MapRestTable rest_;                                   // the map objects as taken
  uint64_t rest_generation_ = 0;                        // the game's map generation it was taken at
  std::vector<protocol::Record> rest_records_;          // the game's rest records, reused
  protocol::RestTableChunk rest_chunk_;                 // one chunk, reused
  ReasonCounters<SessionDrop> drops_;
  ReasonCounters<PeerRefusal> closed_refusals_;
  wire::DecodeErrorCounters decode_errors_;
  uint64_t snapshots_sent_ = 0;
  uint64_t sessions_admitted_ = 0;
};

}  // namespace tickwire

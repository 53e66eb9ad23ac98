// ClientSnapshotBuilder: turns the tick's world frame into one client's snapshot. Interest decides
// what the client may see (radius, always-relevant, minus others' private entities), the byte
// budget decides which of those get their current state this tick (priority accumulation, parents
// with their children, scene frames whole, pose and world lanes), and the rest keep the state this
// client was last sent (free once its baseline holds it), so a client never sees an entity step
// back in time or blink out. The frame is then coded against the client's acknowledged baseline.
// One builder serves every client; per-client state is the caller's.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "tickwire/clock/time.h"
#include "tickwire/core/reason_counters.h"
#include "tickwire/core/status.h"
#include "tickwire/protocol/snapshot.h"
#include "tickwire/protocol/snapshot_delta.h"
#include "tickwire/replication/builder/client_replication_state.h"
#include "tickwire/replication/interest/interest_set.h"
#include "tickwire/replication/budget/priority_budget.h"
#include "tickwire/replication/frames/replica_kinds.h"
#include "tickwire/replication/delta/snapshot_delta_codec.h"

namespace tickwire {

// The tick's state, shared by every client: built once per tick by the room.
struct WorldTickFrame {
  Tick tick;
  const ReplicaFrame* frame = nullptr;   // every replicated record, quantized once, ascending id
  // The interest-world index of each frame->states[i]; kNoEntity marks a shared record (a map
  // object): every client sees it, outside interest and fitting, always at its current state
  // (at rest it costs nothing against a baseline or the rest table).
  std::span<const uint32_t> entities;
  const InterestWorld* world = nullptr;  // positions, owners, flags, parents, scene frames (moved to this tick)
};

// One client, as the builder sees it this tick.
struct ClientView {
  uint16_t client = 0;
  uint32_t pawn = kNoEntity;  // its pawn's interest index: the interest centre, always visible
  float x_m = 0.0f;           // the interest centre when it has no pawn (a spectator)
  float z_m = 0.0f;
  float radius_m = 100.0f;
  uint32_t budget_bytes = 1100;                 // the whole SnapshotDelta message, id byte included
  std::optional<protocol::OwnerDetail> owner;  // the owning client's truth, sent whole every tick
  // Coded against when the client holds no acknowledged frame (the rest table it holds); null: nothing.
  const ReplicaFrame* fallback = nullptr;
};

struct ClientSnapshotBuilderConfig {
  uint32_t max_visible = 2048;  // one client's interest set (<= InterestSet::kMaxEntities)
  PriorityConfig priority;
  uint32_t max_baseline_age_ticks = protocol::MaxBaselineTicks;
  bool predict_from_older = true;  // give the codec the second acked frame as well
  // The codec fits its prediction over at most this many of the frames the client holds, spread
  // over the window (smooth motion codes in far fewer bits; each record's fit costs time, a lookup
  // per frame and, rotating, a log each). 0: predict from the two references alone.
  uint32_t max_fit_frames = 31;
  // Bytes kept from the budget for what fitting does not choose: removals and unchanged runs.
  uint32_t reserve_bytes = 24;
  // A loose budget: when the client's last snapshot took at most this fraction of its budget (and
  // its interest set grew by at most a quarter), nothing is estimated and everything its lanes allow
  // is sent; the coded size is checked instead, and a snapshot past the budget is fitted again in
  // full. 0: always estimate and fit.
  float loose_below = 0.5f;
  // false: every tick is loose (everything its lanes allow, nothing estimated, the coded size still
  // checked against the budget): a bench measuring the codec alone. A room always fits.
  bool fit_budget = true;
  // Learn, per client, how the encoder's real record bytes compare with the estimates, and fit
  // against the budget in estimate units (the estimate errs high; the entropy coder adapts).
  bool calibrate_estimates = true;
  // Shared world frames alive at once (SharedWorldFrames): past them a tick's frames copy their
  // states. 0: never share.
  uint32_t max_shared_frames = SharedWorldFrames::kDefaultMaxFrames;
};

// What a build produced; `body` is the caller's buffer, `frame` lives in the client's history.
struct ClientSnapshot {
  const SentFrame* frame = nullptr;  // what the client holds once it decodes this snapshot
  uint8_t baseline_age = 0;          // SnapshotDelta::baseline_age (0: none)
  uint8_t predict_age = 0;           // SnapshotDelta::predict_age (0: none)
  bool on_fallback = false;          // coded against ClientView::fallback (SnapshotDelta names its revision)
  const SnapshotDiagnostics* diagnostics = nullptr;
};

// Per tick, in the room: move the InterestWorld's entities, quantize the world frame once, then
//   builder.begin_tick({tick, &frame, interest_index_per_state, &world});
//   for each session: builder.build(view, now, session.replication, body) -> SnapshotDelta{tick,
//     hash, rest_revision 0, baseline_age, predict_age, body}, sliced if past one message;
// and when the transport acks every packet of tick T's snapshot: session.replication.acknowledge(T).
class ClientSnapshotBuilder {
 public:
  ClientSnapshotBuilder(const InterestWorld& world, const ReplicaKinds& kinds,
                        const ClientSnapshotBuilderConfig& config);

  // Once per tick, before the clients: indexes the world frame by interest index.
  void begin_tick(const WorldTickFrame& tick);

  // The client's frame for this tick (interest, budget, baseline carry-over), stored in its history
  // as unacknowledged. Does not encode: build() does both; tests call this to look at the choice.
  // Expires the client's history first (expire()).
  const SentFrame& compose(const ClientView& view, ClientReplicationState& client);

  // Lets go of the client's sent frames no delta can use any more (SentFrameHistory::expire), so a
  // client whose frames stopped going out (it stopped acking) holds no older world frames than one
  // served every tick and the pool cannot run dry (kMaxHeldWorldFrames). compose() does it; a
  // caller that composes nothing for a client this tick calls it instead.
  void expire(ClientReplicationState& client);

  // compose(), then encode(): what the room calls per client per tick.
  Result<ClientSnapshot> build(const ClientView& view, MonoTime now, ClientReplicationState& client,
                               std::vector<uint8_t>& body);

  // Encodes the frame the last compose() made for `client` against its references into `body`
  // (cleared first), and records the diagnostics and the budget log. A frame the budget meant for
  // one message that the estimates let spill into fragments, or a loose one that passed the budget,
  // is composed and fitted once more (in full, tighter) and coded again. An error (the body would
  // pass MaxSnapshotBytes) means nothing may be sent: the frame is discarded from the history.
  Result<ClientSnapshot> encode(MonoTime now, ClientReplicationState& client, std::vector<uint8_t>& body);

  // Starts fetching what the next compose() for `client` reads first (its references' frames), so a
  // caller serving its clients in turn overlaps one client's memory traffic with the work on the one
  // before. A hint: nothing changes.
  void prefetch(const ClientReplicationState& client) const;

  const ClientSnapshotBuilderConfig& config() const { return config_; }
  // How the world frames' sharing went: its rare events, the states sent frames kept as their own
  // copies (a held state whose frame was too old to point into; every state of a pool-dry tick),
  // and the shared frames allocated (each a tick's states: the pool's memory is this many frames).
  const ReasonCounters<WorldFrameEvent>& world_frame_events() const { return world_frame_events_; }
  uint64_t states_copied() const { return states_copied_; }
  uint32_t world_frames() const { return world_frames_.frames(); }
  // The lanes from the next compose() on (a room under load slows its world lane, narrows its pose lane).
  void set_lanes(const LaneSchedule& lanes) { config_.priority.lanes = lanes; }

 private:
  struct Pick {
    uint32_t id;              // the record id: frames are sorted by it
    uint32_t entity;          // interest index
    const ReplicaState* state;
    bool in_newest;           // the newest frame sent holds this entity under the same id
  };
  // A frame's states by interest index, for one build.
  struct FrameIndex {
    explicit FrameIndex(uint32_t max_entities) : slot(max_entities, 0), marks(max_entities) {}
    void index(const SentFrame* frame);
    // The frame's state for `entity` if it holds this incarnation of it (a record id is the same
    // for the whole of an incarnation: the room's mapping from interest index to record id).
    const ReplicaState* find(uint32_t entity, uint32_t incarnation) const;
    const SentFrame* frame = nullptr;
    std::vector<uint32_t> slot;
    EntityMarks marks;
  };
  InterestViewer viewer_of(const ClientView& view) const;
  bool budget_is_loose(const ClientView& view, const ClientReplicationState& client) const;
  bool must_refit(const ClientReplicationState& client, const Result<DeltaBodyStats>& coded) const;
  void measure_candidates(const InterestViewer& viewer, SnapshotDiagnostics& diag);
  void find_holds();
  void measure_shared(const FrameView& base, SnapshotDiagnostics& diag);
  const ReplicaState* share(SentFrame& out, const ReplicaState* state);
  static void point_at_copies(SentFrame& out);
  // This tick's world states: the shared copy, or the caller's frame when none was free.
  const std::vector<ReplicaState>& world_states() const { return world_frame_ ? world_frame_->states : tick_.frame->states; }
  void reserve_holds(SnapshotDiagnostics& diag);
  void collect_picks(SnapshotDiagnostics& diag);
  void drop_orphans(SnapshotDiagnostics& diag);
  void order_picks();
  uint32_t record_budget(const ClientView& view) const;
  void learn_estimate_scale(const SnapshotDiagnostics& diag, ClientReplicationState& client);
  Result<DeltaBodyStats> code_frame(ClientReplicationState& client, std::vector<uint8_t>& body);
  Result<ClientSnapshot> publish(MonoTime now, ClientReplicationState& client, const Result<DeltaBodyStats>& coded);

  // A held state's shared frame older than this is copied instead: with the history's expiry, the
  // frames held stay within its kExpireAfterTicks plus this age (kMaxHeldWorldFrames).
  static constexpr uint32_t kMaxSharedAgeTicks = static_cast<uint32_t>(protocol::MaxBaselineTicks);
  static_assert(SentFrameHistory::kExpireAfterTicks + kMaxSharedAgeTicks + 2 <= kMaxHeldWorldFrames,
                "the pool's bound counts the history's window and the held states' age");

  const InterestWorld& world_;
  const ReplicaKinds& kinds_;
  ClientSnapshotBuilderConfig config_;
  WorldTickFrame tick_;
  SharedWorldFrames world_frames_;
  std::shared_ptr<const WorldStates> world_frame_;  // this tick's (null: every state is copied)
  bool in_tick_ = false;
  const ClientReplicationState* composed_for_ = nullptr;  // the client of the last compose()
  ClientView composed_view_;                              // and its view (a refit composes it again)
  bool fit_in_full_ = false;                              // a refit: estimate and fit, loose or not
  const SentFrame* composed_ = nullptr;
  FrameView composed_base_;  // what the last compose() coded against (none: nothing)
  uint32_t message_overhead_bytes_ = 0;  // SnapshotDelta without its body, id byte included

  // Scratch, sized once; every vector is reserved to its cap at construction.
  std::vector<uint32_t> state_of_;  // interest index -> index in the world frame (this tick)
  std::vector<uint32_t> shared_;    // the world frame's shared states (indices into it), ascending id
  uint32_t shared_bytes_ = 0;       // their estimated cost against this build's baseline
  EntityMarks in_frame_;            // interest indices present in the world frame this tick
  SentFrameHistory::References refs_;  // the client's references this build
  FrameIndex base_;                    // its baseline
  FrameIndex last_;                    // the newest frame it was sent
  InterestComposer composer_;
  InterestSet set_;
  std::vector<uint32_t> sizes_;  // per set entry: estimated bytes of its current state (0: nothing new)
  std::vector<const ReplicaState*> bases_;  // per set entry: the baseline's state (null: none)
  std::vector<const ReplicaState*> holds_;  // per set entry: the state kept when not selected (null: absent)
  std::vector<uint32_t> hold_bytes_;        // per set entry: what keeping it costs against the baseline
  uint32_t hold_total_bytes_ = 0;
  PriorityBudget budget_;
  SendList send_;
  EntityMarks selected_;
  EntityMarks present_;
  EntityMarks frames_reverted_;  // scene frames whose held members went back to the baseline
  std::vector<Pick> picks_;
  EntityMarks in_newest_;      // picks placed by the newest sent frame's order
  std::vector<Pick> pick_of_;  // by interest index, for those
  std::vector<Pick> ordered_;  // those picks, in id order
  std::vector<Pick> tail_;     // the other picks
  std::vector<Pick> shared_run_;  // the frame's shared states, ascending id (grows to the map's object count once)
  std::vector<Pick> entity_run_;  // its entity states in id order, before the shared ones join
  FitStats fit_;
  std::vector<ClientPriorityState::Saved> saved_priority_;  // the set's accumulators before this tick's fit
  uint32_t refits_ = 0;
  ReasonCounters<WorldFrameEvent> world_frame_events_;
  uint64_t states_copied_ = 0;
};

}  // namespace tickwire

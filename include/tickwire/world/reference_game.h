// ReferenceGame: the reference game's side of the Simulation seam. Pawns move by the shared
// CharacterMover against the map's static boxes, its objects' static bodies and its doors' and lifts'
// moving ones (ObjectSolids: a rider is carried) and are placed through the PawnPlacer at the map's
// spawn points; the map's networked objects start at their authored state and the map's logic
// (MapLogicHost: doors, buttons, lights, plates, triggers, relays, timers...) runs once per tick,
// driven by Use presses, interactions and pawns' feet on plates; a few lights flicker so object
// records always carry some load. What both ends hold (the map) is the baseline: a snapshot carries
// every pawn and only the objects that differ from the authored map. Objects spawn and despawn one
// at a time, and the whole map switches live through one seam (switch_map).
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "tickwire/clock/token_bucket.h"
#include "tickwire/core/reason_counters.h"
#include "tickwire/server/forgiveness_gate.h"
#include "tickwire/server/simulation.h"
#include "tickwire/world/character_mover.h"
#include "tickwire/world/map.h"
#include "tickwire/world/map_logic_host.h"
#include "tickwire/world/map_object_table.h"
#include "tickwire/world/object_lifecycle.h"
#include "tickwire/world/object_solids.h"
#include "tickwire/world/pawn_placer.h"
#include "tickwire/world/pawn_state.h"
#include "tickwire/world/reference_vocabulary.h"
#include "tickwire/world/rewind_history.h"
#include "tickwire/world/scene_edit_set.h"
#include "tickwire/world/server_props.h"
#include "tickwire/world/server_voxels.h"
#include "tickwire/world/shot_trace.h"
#include "tickwire/world/use_reach.h"
#include "tickwire/world/water_pool.h"

namespace tickwire {
class ByteRecordReader;
class ByteRecordWriter;
}  // namespace tickwire

namespace tickwire::world {

inline constexpr uint32_t kFlickerEveryNthLight = 40;  // about 8 of the reference map's lights

// Map objects are the authority's (owner 0), at the indices a game names itself: id = the handle of
// kGameIndexBase + object index, so a pawn's id and an object's id never collide in a frame.
inline constexpr uint32_t kMapObjectEntityIdBase = EntityNetHandle::kGameIndexBase;
inline constexpr uint32_t kMaxMapObjectIndex = EntityNetHandle::kMaxIndex - EntityNetHandle::kGameIndexBase;
inline constexpr uint32_t map_object_entity_id(uint32_t object_index) {
  return EntityNetHandle::make(EntityNetHandle::kAuthorityOwner, kMapObjectEntityIdBase + object_index).raw();
}
// The object index an entity id names, or nullopt (not a map object's id).
inline constexpr std::optional<uint32_t> map_object_index(uint32_t entity_id) {
  const EntityNetHandle handle = EntityNetHandle::from_raw(entity_id);
  if (!handle.is_authority() || handle.index() < kMapObjectEntityIdBase) return std::nullopt;
  return handle.index() - kMapObjectEntityIdBase;
}

// What write_records says about map objects. `changed`: only the objects that differ from the
// authored map, each section sparse against it (clients fill the rest in from their own map).
// `whole`: every map object, whole, every tick: the full state a room thinning by the rest table
// and the delta codec needs (an object missing from it reads as gone).
enum class ObjectRecords : uint8_t { changed, whole };

// A physics prop's section, bit 0: the solver has it asleep (it stands still until something wakes it).
inline constexpr uint8_t kPropAsleepBit = 1;

// The reference game's entity event kinds (values are only ever appended).
inline constexpr uint8_t kEventUseTaken = 1;
inline constexpr uint8_t kEventUseRefused = 2;
inline constexpr uint8_t kEventUseUnhandled = 3;
inline constexpr std::size_t kMaxPendingEvents = 1024;  // between two takes; past it counted, dropped
inline constexpr std::size_t kMaxPendingHits = 1024;    // hit events between two takes; past it counted, dropped
inline constexpr std::size_t kMaxPendingEditRefusals = 1024;  // edit refusals between two takes; past it counted, dropped

// The reference game's durable facts (seed 003; values are only ever appended).
inline constexpr uint32_t kFactSceneEdit = 1;   // an accepted gesture (its SceneEdit body), made again through edit()
inline constexpr uint32_t kFactVoxelWrite = 2;  // a voxel write that landed: volume u32, cell 3 x u16, block u8

// How long the reference game's server guesses a starved client's input (the last one repeated)
// before it takes the link for dead and stands the pawn: a poor mobile link's stall (250 ms) whole.
// The contract's default (3 ticks, 50 ms at 60 Hz) stands a pawn a link stall would have walked on,
// and the player sees the correction when the link comes back (docs/inputs-and-lead.md).
inline constexpr double kReferenceGuessSeconds = 0.25;

// The reference game's own numbers in a room policy: its vocabulary, its reach (kUseReachM), its
// pawn (a kinematic controller whose movement its clients predict) and its starved-tick guess
// (kReferenceGuessSeconds at the policy's tick rate: set the rate first).
void apply_reference_policy(RoomPolicy& policy);

// A map object as an interaction names it: its entity id (map_object_entity_id) in the handle,
// generation 0 and no flags. The room lets it through to the game (resolves_target).
inline EntityRef map_object_ref(uint32_t object_index) {
  return EntityRef::from_raw(uint64_t{map_object_entity_id(object_index)} << 32);
}

class ReferenceGame final : public Simulation {
 public:
  // `map` (and every map later given to switch_map) is the caller's and must outlive the game.
  explicit ReferenceGame(const Map& map, const MoverSettings& settings = {}, const PropPhysicsSettings& props = {},
                         const PropPushSettings& push = {});

  // The room's contract: its forgiveness (below 1.0 a client's claim may be adopted, through the
  // ForgivenessGate) and its interaction range.
  void begin(const NetcodeContract& contract) override;
  // A new forgiveness reaches the gate from the next claim; a new time scale the logic's clock
  // (its delays and doors) from the next tick.
  void world_settings_changed(const protocol::WorldSettings& settings) override;
  void spawn_pawn(EntityRef pawn, OwnerId owner, Tick tick) override;
  void despawn_pawn(EntityRef pawn) override;
  void step_pawn(EntityRef pawn, const TickInput& input, Tick tick, double dt_s) override;
  void step_world(Tick tick, double dt_s) override;
  protocol::PawnDetail pawn_detail(EntityRef pawn) const override;
  protocol::ClaimOutcome claim_outcome(EntityRef pawn) const override;
  void write_records(Tick tick, TickRecords& out) const override;
  // A client's interaction naming a map object (map_object_ref): the target is a hint the server
  // re-judges (reach from the pawn's eye, the look cone) before routing a Use into its logic.
  void interact(EntityRef actor_pawn, EntityRef target, uint8_t action, Tick tick) override;
  bool resolves_target(EntityRef target) const override;
  void visit_game_reasons(const ReasonVisitor& visit) const override;
  // Every Use, named (interact) or pressed, is answered to its pawn's client: an entity event
  // kEventUseTaken (its source the object, its payload the state the use left in the object's first
  // section), kEventUseUnhandled (taken, but its logic did nothing), or kEventUseRefused (the
  // reason, a UseRefusal, in the payload's bits).
  void take_events(std::vector<GameEvent>& out) override;
  // Every voxel chunk written since the last take, whole, to every session (a voxelCells message),
  // and every written chunk to each session that joined since (a late joiner's download).
  void take_messages(std::vector<GameMessageOut>& out) override;
  // A shot (seed 000, "Hits"): the claimed eye re-checked against the pawn's own (feet plus its
  // stance's eye height), the shot dropped with a warning past the contract's tolerance; else traced
  // from the claimed eye along the aim against the world, the other pawns and the movers rewound to
  // the shooter's render time (RewindHistory), the props, voxels and pools as they stand (the waves at
  // the render time). Its events (a water crossing, then the solid or nothing) go to every session.
  void fire(EntityRef shooter_pawn, const FireShot& shot, Tick tick) override;
  void take_hits(std::vector<protocol::HitEvent>& out) override;
  // A scene edit gesture (seed 000, "Scene edits"; the room checked the editor's world authority and
  // rate): every write checked through SceneEditRules against the object's map record and standing
  // edits, what passes laid over the live object (its settings, its hidden flag and transform in the
  // records, its body: hide drops it, move moves it), what fails queued for the editor by name. Each
  // edited object leaves the rest table (map_generation() moves) and is stated whole until the table
  // is next taken. The edits outlive a despawn and a reinstall; a map switch forgets them.
  void edit(OwnerId editor, const protocol::SceneEdit& gesture, Tick tick) override;
  void take_edit_refusals(std::vector<EditRefusalOut>& out) override;
  // Durability (seed 003, "Durability and rejoin"; reference_game_durable.cpp): the facts are the
  // accepted edit gestures and the voxel writes that landed, in the order made; the state a
  // checkpoint holds is the edit set, every written voxel chunk, the world time, every pawn's
  // mover state and the objects and logic mid-flight (reference_game_logic_state.cpp). A pawn
  // changing hands keeps its body; its claims and Use start afresh.
  void rebind_pawn(EntityRef pawn, OwnerId owner, Tick tick) override;
  void keep_facts(bool on) override;
  void take_facts(std::vector<DurableFact>& out) override;
  void save_state(std::vector<uint8_t>& out) const override;
  bool restore_state(std::span<const uint8_t> state) override;
  bool replay_fact(const DurableFact& fact) override;
  // The save state (seed 002; reference_game_save_state.cpp): the checkpoint's state (edits, voxel
  // chunks, pawns, objects, logic with its scheduled continuations) and what a checkpoint leaves
  // out because a crash loses it anyway: the props' bodies (poses and velocities), each pawn's Use
  // button, the next spawn point and the last tick's world seconds.
  bool saves_whole_state() const override { return true; }
  // Reseats the props' solver (ServerProps::reseat): Bullet's contact caches are not state.
  void settle_for_save() override { props_.reseat(); }
  void save_whole_state(std::vector<uint8_t>& out) const override;
  bool load_whole_state(std::span<const uint8_t> state) override;
  const protocol::SceneNodeState* scene_state() const override { return &scene_edits_.state(); }
  const SceneEditSet& scene_edits() const { return scene_edits_; }
  // Whether the object is out of the rest table since its last edit (stated whole until the next take).
  bool left_rest_table(uint32_t object_index) const;
  // The last shot traced (its events and distances): what a console line reports.
  const ShotOutcome& last_shot() const { return last_shot_; }
  const ReasonCounters<ShotDrop>& shot_drops() const { return shot_drops_; }
  uint64_t shots_traced() const { return shots_traced_; }
  // How far each shot's claimed eye stood from the pawn's own, counted in bands (kEyeStrayBandsM,
  // the last band past 2 m): what an operator reads to tune the contract's fireEyeToleranceM
  // against the honest clients' spread (stats: game.shot.eye_stray.le<cm>cm, over200cm).
  static constexpr std::array<float, 5> kEyeStrayBandsM = {0.1f, 0.25f, 0.5f, 1.0f, 2.0f};
  const std::array<uint64_t, kEyeStrayBandsM.size() + 1>& eye_strays() const { return eye_strays_; }
  const RewindHistory& rewind_history() const { return history_; }
  std::span<const WaterPool> pools() const { return pools_; }
  void write_rest_records(std::vector<protocol::Record>& out) const override;
  uint64_t map_generation() const override { return map_generation_; }
  // The map's content hash (Map::content_hash): clients learn it with every rest table.
  wire::Hash16 map_identity() const override;

  // Puts every map object back at its authored state and rebinds it (a hot reload of the same
  // map): map_generation() moves, so the room retakes its rest table.
  void reinstall_objects();
  void set_object_records(ObjectRecords mode) { object_records_ = mode; }

  // --- objects joining and leaving (no rebuild: every other object keeps its state) ---------------
  // Takes one map object out: its touch volume settles at empty first (onEndTouch fires for each
  // pawn inside), its node is unloaded with everything it had in flight, it leaves the records and
  // the rest table (map_generation() moves, so the room retakes it and no client fills in a ghost).
  // Calls naming it are dropped in silence until it is back. False when it is not spawned.
  bool despawn_object(uint32_t object_index);
  // Brings a despawned object back at its authored state, as a fresh node (nothing its previous
  // node scheduled reaches it); map_generation() moves. False when it is spawned already.
  bool spawn_object(uint32_t object_index);
  bool object_spawned(uint32_t object_index) const;
  // The live map switch: the old map's touch volumes settle at empty, its logic is discarded with
  // every continuation, `next`'s objects are installed at their authored state with a new runtime
  // (its ticks going on from the old one's), map_generation() moves (the rest table is retaken) and
  // every pawn is placed at the new map's spawn points (its placement epoch moves: clients snap).
  // `next` is the caller's and must outlive the game (or the next switch).
  void switch_map(const Map& next);
  const ObjectLifecycleCounts& lifecycle() const { return lifecycle_; }

  // An admin teleport or a respawn: puts the pawn at `where` through the PawnPlacer (which bumps its
  // placement epoch, so its client snaps and the claims simulated before it are refused).
  void place_pawn(EntityRef pawn, const Placement& where);
  // The server-owned movement flags (an admin grants flight or freezes a pawn); the mover obeys
  // them from the pawn's next step, and claims can never set them.
  void set_noclip(EntityRef pawn, bool noclip);
  void set_frozen(EntityRef pawn, bool frozen);

  // Writes `block` into a voxel volume's cell (the volume is its voxel_volume object's index): the
  // pawns collide with it from the next tick, and its chunk goes whole to every client. Nullopt when
  // written; otherwise why not (counted in the game's reasons).
  std::optional<VoxelWriteRefusal> write_voxel(uint32_t volume, const VoxelCell& cell, uint8_t block) {
    return voxels_.write(volume, cell, block);
  }
  // The voxel volumes: the session's writes, the chunks cooked around the players.
  const ServerVoxels& voxels() const { return voxels_; }

  // Toggles a map object's state by index (flips bit 0 of every component, or the enabled flag of
  // an object without components), outside its logic: an admin's switch.
  void toggle_object(uint32_t object_index);
  // A Use of a map object by a pawn, judged as a press is (reach, cone, interactive): true if its
  // logic took it. Refusals are counted in use_refusals().
  bool use_object(EntityRef pawn, uint32_t object_index);
  // A live object's component as the game holds it now (what the records carry).
  const ObjectComponent& object_component(uint32_t object_index, std::size_t component) const;

  const Map& map() const { return *map_; }
  const CharacterMover& mover() const { return mover_; }
  const PawnState* pawn(EntityRef pawn) const;
  const ForgivenessGate& gate() const { return gate_; }
  std::size_t pawn_count() const { return pawns_.size(); }
  // The physics props (the server's solver, their wire poses, pushes and respawns).
  const ServerProps& props() const { return props_; }
  const ObjectSolids& solids() const { return solids_; }
  // What a pawn's step collides with beside the movers and props: the map's boxes and every spawned
  // object's static body as its edits leave it.
  std::span<const Aabb> static_boxes() const { return static_boxes_; }
  const ReasonCounters<UseRefusal>& use_refusals() const { return use_refusals_; }
  uint64_t uses() const { return uses_; }
  // The map's logic (null until begin(): its ticks follow the contract's tick rate).
  const MapLogicHost* logic() const { return logic_.get(); }
  MapLogicHost* logic() { return logic_.get(); }
  // Map objects whose state differs from the authored map right now.
  std::size_t changed_objects() const;

 private:
  struct ObjectState {
    std::vector<ObjectComponent> components;
    bool enabled = true;
    bool spawned = true;  // false: out of the game (no records, no rest record, no node)
  };
  protocol::Record object_record(uint32_t index) const;
  protocol::Record whole_object_record(uint32_t index) const;
  void install_objects();
  void install_logic();
  void discard_logic();
  void refresh_usable();
  void refresh_solids();
  void refresh_moving_boxes();
  void refresh_prop_boxes();
  void refresh_prop_states();
  void sync_voxels();
  void write_prop_pose(uint32_t index, protocol::ObjectRecord& record) const;
  MoverState driver_state(const KinematicTrack& track) const;
  void carry_touch_volumes();
  Placement next_spawn_placement();
  bool differs_from_map(uint32_t index) const;
  void use_press(EntityRef pawn, const PawnState& state, Tick tick);
  void take_use(EntityRef actor, uint32_t object_index);
  void refuse_use(EntityRef actor, uint32_t target_id, UseRefusal reason);
  void raise(EntityRef actor, const protocol::EntityEvent& event);
  void record_rewind(Tick tick);
  // Scene edits (reference_game_edits.cpp).
  EditTarget edit_target(uint32_t object_index) const;
  // The object's outputs as its standing rewiring leaves them (what its logic node runs).
  std::vector<MapOutput> live_outputs(uint32_t object_index) const;
  void apply_object_edits(uint32_t object_index);
  // The edit set changed for `touched` (a gesture, a restored checkpoint): the live objects, the
  // logic, the bodies and the rest table follow.
  void edits_changed(std::span<const uint32_t> touched);
  void note_voxel_facts();
  void keep_fact(DurableFact fact);
  void rebuild_edited_statics();
  // Every spawned object's static body as its edits leave it (an edited one's from edited_statics_).
  void visit_statics(const std::function<void(const StaticSolid&)>& visit) const;
  bool object_hidden(uint32_t object_index) const;
  void write_edits(uint32_t object_index, protocol::ObjectRecord& record) const;
  void gather_shot_scene(double render_tick, ShotScene& scene);
  float eye_stray(EntityRef shooter_pawn, const PawnState& state, const Vec3& claimed, double render_tick);
  // A checkpoint's objects and logic (reference_game_logic_state.cpp): each object whose state stands
  // apart from the authored map (out of the game, disabled, its channels or bits moved: a door's
  // pose, a light's bit, a flicker), then the logic host's state. Read and checked whole before
  // restore_objects lays it over the game (after the edit set, so settings are the edits').
  struct SavedObjects {
    std::vector<std::pair<uint32_t, ObjectState>> changed;  // by object index, ascending
    std::span<const uint8_t> logic;                         // MapLogicHost's state; empty: no logic ran
  };
  void save_objects(ByteRecordWriter& write) const;
  bool read_objects(ByteRecordReader& read, SavedObjects& out) const;
  bool restore_objects(const SavedObjects& saved);

  const Map* map_;  // the caller's; switch_map points it elsewhere
  CharacterMover mover_;
  PawnPlacer placer_;
  // Whether the claim was adopted.
  bool judge_claim(EntityRef pawn, const PawnState& before, const protocol::Claim& claim, double dt_s);

  std::map<uint64_t, PawnState> pawns_;  // by EntityRef raw
  std::map<uint64_t, ClaimLedger> ledgers_;  // each pawn's speed allowance for claims
  std::map<uint64_t, protocol::ClaimOutcome> claim_outcomes_;  // each pawn's claim verdict this tick
  ForgivenessGate gate_;
  MapObjectTableCache object_tables_;
  std::vector<ObjectState> objects_;     // by object index
  std::vector<uint32_t> map_positions_;  // objects_[index] is map().objects()[map_positions_[index]]
  std::vector<bool> client_only_;        // by object index: a client's own prop (sim: client), never on the wire
  uint64_t map_generation_ = 0;
  ObjectRecords object_records_ = ObjectRecords::whole;
  std::vector<uint32_t> flickering_;     // light object indices animated by step_world
  ObjectSolids solids_;                  // the map's objects' bodies (rebuilt with the objects)
  std::vector<Aabb> static_boxes_;       // the map's boxes and the spawned objects' static bodies
  ServerProps props_;                    // the physics props (rebuilt with the objects)
  std::vector<TurnedBox> prop_boxes_;    // what a pawn's step collides with beside the statics: the props
  std::vector<Aabb> pawn_boxes_;         // scratch: where the tick left every pawn (a prop stops at one)
  std::vector<MovingBox> moving_boxes_;  // each spawned kinematic body over the next tick
  std::vector<uint32_t> moving_box_objects_;  // and its object (the shots' rewind history names it)
  uint32_t next_spawn_ = 0;
  double interaction_range_m_ = kUseReachM;
  uint32_t interactions_per_second_ = 0;
  Duration tick_length_;                        // zero until begin()
  double time_scale_ = 1.0;                     // the world's (the contract's until changed)
  std::unique_ptr<MapLogicHost> logic_;
  std::map<uint64_t, bool> use_held_;           // each pawn's Use button on its last step
  std::map<uint64_t, TokenBucket> use_buckets_;  // each pawn's Use presses per second
  std::vector<UseCandidate> usable_;            // the objects a press may pick, with their positions
  std::vector<TouchingPawn> touching_;          // scratch: every pawn's feet for the touch volumes
  ReasonCounters<UseRefusal> use_refusals_;
  std::map<uint64_t, OwnerId> owners_;  // each pawn's session (who an answer goes to)
  std::vector<GameEvent> events_;       // raised since the server last took them (capped)
  uint64_t events_dropped_ = 0;
  uint64_t uses_ = 0;
  ObjectLifecycleCounts lifecycle_;
  ServerVoxels voxels_;                // the voxel volumes (installed with the objects)
  std::vector<Aabb> pawn_step_boxes_;  // scratch: one step's boxes, the voxel chunks near it added
  std::vector<Vec3> player_feet_;      // scratch: where the voxel chunks stream around
  ReasonCounters<LogicDrop> discarded_logic_drops_;  // the drops of every runtime discarded so far
  // Shots: the bodies' recent ticks, the pools, the events raised since the last take.
  RewindHistory history_;
  std::vector<Aabb> shot_path_;  // scratch: the shooter's boxes since its render time (eye_stray)
  std::vector<WaterPool> pools_;
  double fire_eye_tolerance_m_ = 1.0;  // the contract's
  double world_time_s_ = 0;            // the world time the last tick left (the waves' clock)
  double world_dt_s_ = 0;              // the last tick's world seconds
  std::vector<protocol::HitEvent> hits_;
  ReasonCounters<ShotDrop> shot_drops_;
  uint64_t shots_traced_ = 0;
  std::array<uint64_t, kEyeStrayBandsM.size() + 1> eye_strays_{};
  uint64_t hits_by_kind_[3] = {0, 0, 0};  // by protocol::HitKind
  ShotOutcome last_shot_;
  std::vector<RewoundBox> rewound_;        // scratch: one tick's bodies, or one shot's rewound ones
  std::vector<ObjectTarget> shot_objects_;  // scratch: one shot's static object bodies
  std::vector<PropTarget> shot_props_;      // scratch: one shot's props
  std::optional<Tick> last_logic_tick_;              // the last discarded runtime's last tick
  // Scene edits: the set, the refusals for their senders, the statics edited objects make, and the
  // map generation each edited object left the rest table at.
  SceneEditSet scene_edits_;
  std::vector<EditRefusalOut> edit_refusals_;
  uint64_t edit_refusals_dropped_ = 0;
  uint64_t edit_gestures_ = 0;
  ReasonCounters<protocol::EditRefusal> edit_refused_;
  std::vector<StaticSolid> edited_statics_;
  std::vector<uint64_t> rest_left_at_;  // by object index; 0: in the table
  // Durability: facts made since the last take (only while a store keeps the room).
  bool keeping_facts_ = false;
  std::vector<DurableFact> facts_;
  std::vector<ServerVoxels::CellWrite> voxel_writes_;  // scratch
  uint64_t facts_dropped_ = 0;                         // past the cap between two takes (never expected)
};

}  // namespace tickwire::world

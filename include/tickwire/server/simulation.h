// The Simulation seam: everything the engine needs from a game, and nothing more. The room owns
// the clock, the sessions and the inputs; the game steps pawns and its world and says what the
// tick's state is. The engine never includes the game (world/ or a user's own code): the game
// implements this interface and hands it to the room.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "tickwire/clock/tick.h"
#include "tickwire/protocol/entity_event.h"
#include "tickwire/protocol/hit_event.h"
#include "tickwire/protocol/netcode_contract.h"
#include "tickwire/protocol/record_batch.h"
#include "tickwire/protocol/scene_edit.h"
#include "tickwire/protocol/scene_edit_refused.h"
#include "tickwire/protocol/scene_node_state.h"
#include "tickwire/protocol/snapshot.h"
#include "tickwire/replication/handles/construct_handle.h"
#include "tickwire/replication/handles/entity_handle.h"
#include "tickwire/replication/rest_record_source.h"
#include "tickwire/replication/tick_records.h"
#include "tickwire/server/durable_state.h"
#include "tickwire/server/fire_shot.h"
#include "tickwire/server/game_save_state.h"
#include "tickwire/server/tick_input.h"
#include "tickwire/transport/message_envelope.h"

namespace tickwire {

// The rest table's source (RestRecordSource: write_rest_records, map_generation) is part of the
// seam: a game with map objects overrides both.
// An entity event (seed 000, "Interaction channel") for one session's client (`to`: its owner) or
// for every session (`to` = 0, the authority's id: a broadcast).
struct GameEvent {
  OwnerId to = 0;
  protocol::EntityEvent event;
};

// A game message of the game's own (type >= kFirstGameMessageType) for one session's client (`to`:
// its owner) or for every session (`to` = 0): sent reliable and in order through the client's outbox.
struct GameMessageOut {
  OwnerId to = 0;
  MessageType type = 0;
  std::vector<uint8_t> payload;
};

// A write of a scene edit the game refused, for its sender alone.
struct EditRefusalOut {
  OwnerId to = 0;
  protocol::SceneEditRefused refused;
};

class Simulation : public RestRecordSource, public DurableState, public GameSaveState {
 public:
  ~Simulation() override = default;

  // The room's resolved contract, once, before any other call: every policy number the game obeys
  // (forgiveness, interaction range, its own vocabulary as the room hashed it) comes from here.
  virtual void begin(const NetcodeContract& contract) { (void)contract; }
  // The room's world settings changed (Room::set_world_settings): the forgiveness the game's gate
  // judges claims with, the time scale its logic runs at (every step's dt_s already carries it).
  // Until called, the contract's values hold (initial_world_settings).
  virtual void world_settings_changed(const protocol::WorldSettings& settings) { (void)settings; }

  // A session was admitted: place the pawn the room allocated for `owner` (through the game's own
  // placement rules). A pawn leaving is despawned before its handle can be reused. `owner` is
  // kAuthorityOwner for a pawn a recovery puts back for its player (restore_state may then move it).
  virtual void spawn_pawn(EntityRef pawn, OwnerId owner, Tick tick) = 0;
  virtual void despawn_pawn(EntityRef pawn) = 0;

  // One fixed tick of one pawn, from the one input the room prepared for it this tick.
  virtual void step_pawn(EntityRef pawn, const TickInput& input, Tick tick, double dt_s) = 0;
  // The world's own tick, after every pawn stepped.
  virtual void step_world(Tick tick, double dt_s) = 0;

  // The owning client's view of its pawn as simulated (what prediction reconciles against): its
  // values are the vocabulary's pawn values, in order.
  virtual protocol::PawnDetail pawn_detail(EntityRef pawn) const = 0;
  // What the game did with the claim that rode the pawn's input this tick (ClaimAccepted in the
  // owner detail, telemetry for its client): none when no claim was judged.
  virtual protocol::ClaimOutcome claim_outcome(EntityRef pawn) const {
    (void)pawn;
    return protocol::ClaimOutcome::none;
  }
  // The tick's state: every record (presence is an entity's lifecycle; every map object whole),
  // with interest notes for those that are private, always relevant, parented, in a scene frame or
  // important (called once per tick). A record's kind and flag bits are the vocabulary's.
  virtual void write_records(Tick tick, TickRecords& out) const = 0;

  // A client's request naming `target`: called only after the room checked the target's
  // generation and the session's interaction rate (the contract's limits) (a stale ref never
  // reaches the game). The game judges range (the contract's interaction range) and rules itself.
  virtual void interact(EntityRef actor_pawn, EntityRef target, uint8_t action, Tick tick) {
    (void)actor_pawn, (void)target, (void)action, (void)tick;
  }
  // Whether `target` names something the game holds itself, outside the room's entity slots (the
  // reference game's map objects): the room lets an interaction naming it through to interact()
  // after its rate check, and the game judges it. False (the default): only live slots pass.
  virtual bool resolves_target(EntityRef target) const {
    (void)target;
    return false;
  }

  // An RPC from `caller`'s client to one of the game's constructs (seed 002, "ConstructHandle": a
  // game mode, an AI director), after the room's rate check. The game resolves `target` in its
  // ConstructRegistry (a stale or foreign handle is refused with that registry's reason) and acts;
  // nothing (the default, a game with no constructs): refused as not_live. The room counts refusals.
  virtual std::optional<ConstructRefusal> construct_call(OwnerId caller, ConstructHandle target, uint16_t method,
                                                         std::span<const uint8_t> payload, Tick tick) {
    (void)caller, (void)target, (void)method, (void)payload, (void)tick;
    return ConstructRefusal::not_live;
  }

  // A shot from `shooter_pawn`'s client (seed 000, "Hits"), called only after the room checked the
  // session's fire rate, the numbers and the rewind bound: the game re-checks the claimed eye
  // against its own, traces its world (lag compensated to shot.render_tick) and raises hit events.
  virtual void fire(EntityRef shooter_pawn, const FireShot& shot, Tick tick) { (void)shooter_pawn, (void)shot, (void)tick; }
  // The hit events the game raised since it was last asked: the server drains them after every
  // update and sends each, reliable, to every session whose build knows hitEvent.
  virtual void take_hits(std::vector<protocol::HitEvent>& out) { (void)out; }

  // A scene edit gesture (seed 000, "Scene edits") from `editor`'s session, called only after the
  // room checked the session's world authority and its edit rate: the game checks every write through
  // its rules, applies what passes and queues what it refused, by name, for the sender alone.
  virtual void edit(OwnerId editor, const protocol::SceneEdit& gesture, Tick tick) {
    (void)editor, (void)gesture, (void)tick;
  }
  virtual void take_edit_refusals(std::vector<EditRefusalOut>& out) { (void)out; }
  // The game's whole edit set, or null (a game that takes no edits): the server sends it to every
  // session whose build knows sceneNodeState whenever its revision moves, and to each one that joins.
  virtual const protocol::SceneNodeState* scene_state() const { return nullptr; }

  // The entity events the game raised since it was last asked (answers to interactions,
  // announcements): the server drains them after every update and sends each on the reliable
  // channel to its session (or to every session). The default raises none.
  virtual void take_events(std::vector<GameEvent>& out) { (void)out; }
  // The game messages the game queued since it was last asked (a download, a written voxel chunk):
  // drained beside the events and queued in each client's outbox (Server::send's path), so what a
  // link cannot take yet waits instead of being lost; a refusal is counted by reason. A message for
  // a session that joined this tick reaches it (a pawn is spawned only once its session is in).
  virtual void take_messages(std::vector<GameMessageOut>& out) { (void)out; }

  // Durability (seed 003, "Durability and rejoin"; DurableState): a game that keeps durable state
  // overrides keep_facts, take_facts, save_state, restore_state and replay_fact; the durable/ module
  // drives them through the Room. Its fact kinds stay below kFirstEngineFactKind.

  // A pawn the room holds for its player (seed 003: a player who left may come back into it) changed
  // hands: `owner` is its new session's, or kAuthorityOwner while nobody holds it (its session left,
  // or a recovery put it back). What the game kept per owner (who an answer goes to, what its client
  // has been sent) follows. The pawn itself is as it was.
  virtual void rebind_pawn(EntityRef pawn, OwnerId owner, Tick tick) { (void)pawn, (void)owner, (void)tick; }

  // The game's own counted reasons (its interaction refusals, its logic's drops), each as a name
  // and a nonzero count: the server's stats list them as "game.<name>".
  using ReasonVisitor = std::function<void(std::string_view name, uint64_t count)>;
  virtual void visit_game_reasons(const ReasonVisitor& visit) const { (void)visit; }
};

}  // namespace tickwire

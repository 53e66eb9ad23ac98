// SessionClient: a client's session with a room, over a ReliableClient. It runs its side of the
// connect sequence (PeerSchema: its hash, the server's text when new, a plan when the builds
// differ), takes the RoomWelcome only if the contract validates and hashes to what the server
// said, then checks every authority frame's contract hash (ContractGuard) before using it. Inputs
// go up redundantly through an InputSender; the snapshots' honest acks retire them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "tickwire/core/reasons.h"
#include "tickwire/client/delta_snapshot_reader.h"
#include "tickwire/client/game_message.h"
#include "tickwire/client/input_sender.h"
#include "tickwire/core/reason_counters.h"
#include "tickwire/core/ring_buffer.h"
#include "tickwire/protocol/contract_guard.h"
#include "tickwire/protocol/entity_event.h"
#include "tickwire/protocol/fire_request.h"
#include "tickwire/protocol/hit_event.h"
#include "tickwire/protocol/scene_edit.h"
#include "tickwire/protocol/scene_edit_refused.h"
#include "tickwire/protocol/scene_node_state.h"
#include "tickwire/protocol/interact_request.h"
#include "tickwire/protocol/netcode_contract.h"
#include "tickwire/protocol/peer_schema.h"
#include "tickwire/protocol/relay_refused.h"
#include "tickwire/protocol/session_channels.h"
#include "tickwire/protocol/resume_ticket.h"
#include "tickwire/protocol/room_welcome.h"
#include "tickwire/protocol/snapshot.h"
#include "tickwire/protocol/snapshot_fragment.h"
#include "tickwire/protocol/timed_input_frame.h"
#include "tickwire/replication/fragments/snapshot_reassembler.h"
#include "tickwire/transport/net_channel.h"
#include "tickwire/transport/reliable_client.h"
#include "tickwire/wire/codec.h"

namespace tickwire {

inline constexpr std::size_t kSessionSnapshotQueue = 32;  // accepted snapshots awaiting the game
// Game messages awaiting the game: a late joiner hears a whole download (every written voxel chunk)
// within a few updates, so the game drains it once per frame without losing the oldest.
inline constexpr std::size_t kSessionGameMessageQueue = 1024;
inline constexpr std::size_t kSessionEntityEventQueue = 64;  // entity events awaiting the game
inline constexpr std::size_t kSessionHitEventQueue = 256;    // hit events awaiting the game (every player's shots)
inline constexpr std::size_t kSessionEditRefusalQueue = 256;  // refusals of this client's scene edits awaiting the game

struct SessionClientConfig {
  std::string build_name = "tickwire";
  uint8_t reliable_channel = kSessionReliableChannel;
  uint8_t unreliable_channel = kSessionUnreliableChannel;
  std::size_t max_inputs_per_frame = protocol::MaxInputsPerPacket;
  // The game's vocabulary: a room whose contract carries another one is refused; records of kinds
  // it does not register are left out.
  GameVocabulary vocabulary;
  // Server-time mode: the client's own logic rate (0: the room's tick rate), at most the contract's
  // mode.serverTime.maxLogicHz. The other modes run the room's tick rate and ignore it.
  uint32_t logic_hz = 0;
};

// Why a server message was not used.
TW_REASONS(ClientDrop,
  contract_invalid,       // the welcome's contract fails validation: the session is refused
  contract_hash_mismatch, // our hash of the welcome's contract is not the server's: refused
  frame_refused,          // a snapshot whose contract hash is not ours (ContractGuard)
  before_welcome,         // a snapshot before the welcome
  stale_snapshot,         // a snapshot older than (or equal to) the newest taken
  undecodable,            // a message that did not decode as its shape
  unexpected,             // a message a client never takes
  queue_overflow,         // the game did not drain snapshots: the oldest was dropped
  delta_unresolved,       // a delta snapshot with a missing reference or a malformed body (deltas().drops())
  vocabulary_mismatch,    // the welcome's contract carries another game's vocabulary: the session is refused
  owner_malformed,        // an owner detail whose pawn values are not the vocabulary's count
  game_message_overflow,  // the game did not drain its game messages: the oldest was dropped
  entity_event_overflow,  // the game did not drain its entity events: the oldest was dropped
  hit_event_overflow,     // the game did not drain its hit events: the oldest was dropped
  edit_refusal_overflow,  // the game did not drain its scene edit refusals: the oldest was dropped
  stale_scene_state,      // a sceneNodeState not newer than the one held
  scene_state_unordered,  // a sceneNodeState whose objects do not ascend by index (each once): refused
  world_malformed,        // a snapshot whose world settings are out of range (a NaN time scale...)
  owner_id_invalid        // the welcome's owner id is the authority's or past the owner id space: refused
)

// What a client keeps of the newest snapshot it accepted: the order rule's tick, the room's settings
// and the owner's truth.
struct SnapshotHead {
  uint32_t tick = 0;
  protocol::WorldSettings world;
  std::optional<protocol::OwnerDetail> owner;
};

class SessionClient {
 public:
  // `transport` and `cache` must outlive the client.
  SessionClient(ReliableClient& transport, SchemaCache& cache, const SessionClientConfig& config = {});

  // Receives and handles everything that arrived (call once per frame, before simulating).
  void receive(MonoTime now);
  // Sends what was queued this frame (after send_input).
  void send(MonoTime now) { transport_.send(now); }

  // The input for the client's next tick: recorded, then sent with the un-acked ones before it,
  // and with `claim` (the predicted pawn after this input) when given: see Predictor::claim.
  // Returns its sequence, or nullopt before the welcome (no input is sent before admission).
  std::optional<uint32_t> send_input(const protocol::InputCmd& cmd,
                                     const std::optional<protocol::Claim>& claim = std::nullopt);
  // Server-time mode: the input sampled at `stamp_us` (the server time the client believed then),
  // recorded and sent with the un-acked ones before it, stamped by the newest and the client's
  // logic step `step_us`. Returns its sequence, or nullopt before the welcome.
  std::optional<uint32_t> send_timed_input(const protocol::InputCmd& cmd, uint64_t stamp_us, uint32_t step_us);
  // The room's world settings as the newest snapshot carries them (seed 000: replicated in every
  // snapshot); before the first, the contract's; before the welcome, the defaults (forgiveness 1.0,
  // the authoritative default: a client that has not heard from a server claims nothing).
  protocol::WorldSettings world_settings() const;
  double forgiveness() const { return world_settings().forgiveness; }
  // Sends the pending (un-acked) inputs again without a new one: a client holding its clock keeps
  // them flowing, so the acks that end the hold can come back.
  void resend_inputs();

  bool welcomed() const { return welcome_.has_value(); }
  // Welcomed, not refused, and connected: send_input() will take an input.
  bool sending() const { return welcome_ && !refused_ && net_; }
  const std::optional<protocol::RoomWelcome>& welcome() const { return welcome_; }
  // Set once the session can never proceed (a fatal connect-sequence refusal or a refused contract).
  bool refused() const { return refused_; }
  const ContractGuard* guard() const { return guard_ ? &*guard_ : nullptr; }
  const PeerSchema* peer() const { return peer_ ? &*peer_ : nullptr; }
  const InputSender& inputs() const { return inputs_; }
  // The newest accepted snapshot's tick, world settings and owner detail (its records went to the
  // game through pop_snapshot: a client keeps no second copy of the world).
  const std::optional<SnapshotHead>& newest() const { return newest_; }
  // The queue of accepted snapshots the game has not taken.
  // `wire_bytes`, when given, is the snapshot's encoded size (id byte included, fragments joined).
  bool pop_snapshot(protocol::Snapshot& out, std::size_t* wire_bytes = nullptr);
  const SnapshotReassembler& reassembler() const { return reassembler_; }
  uint64_t fragments_received() const { return fragments_received_; }
  uint64_t snapshots_accepted() const { return snapshots_accepted_; }
  const ReasonCounters<ClientDrop>& drops() const { return drops_; }
  const DeltaSnapshotReader& deltas() const { return delta_; }

  // A game message (type >= kFirstGameMessageType) to another client through the server, which
  // relays it unread; false when not welcomed or the channel refused it.
  bool send_to(OwnerId target, MessageType type, std::span<const uint8_t> payload, bool reliable);
  // The game's messages for this client (relayed from another client, or the server's own), oldest first.
  bool pop_game_message(GameMessage& out);
  uint64_t game_messages_received() const { return game_messages_received_; }
  // The interaction channel (seed 000): a request to act on `target` (an EntityRef raw: a snapshot's
  // entity id in the handle) with the game's verb, on the reliable channel; false when not welcomed
  // or the channel refused it. The server re-judges everything (the target is only a hint).
  bool send_interact(uint64_t target_ref, uint8_t action);
  // An RPC to one of the game's constructs (seed 002: a game mode, an AI director) by its handle's
  // raw bits, the game's method and a payload of at most MaxConstructCallPayloadBytes; false
  // before the welcome or for a payload past the cap.
  bool send_construct_call(uint32_t target, uint16_t method, std::span<const uint8_t> payload);
  // The server's entity events for this client (its answers and announcements), oldest first.
  bool pop_entity_event(protocol::EntityEvent& out);
  uint64_t entity_events_received() const { return entity_events_received_; }
  // A shot (seed 000, "Hits"): the claimed eye and aim and the render time the client drew the world
  // at, on the reliable channel, numbered by the client's own shot counter (returned). Nullopt when
  // not welcomed, when the server's build does not know fireRequest, or the channel refused it.
  std::optional<uint32_t> send_fire(const protocol::Vec3& eye, const protocol::Vec3& aim, double render_tick);
  // The server's hit events (every session's shots, this client's among them), oldest first.
  bool pop_hit_event(protocol::HitEvent& out);
  uint64_t hit_events_received() const { return hit_events_received_; }
  // Scene edits (seed 000, "Scene edits"): one gesture, numbered by the client's own gesture counter
  // (returned), on the reliable channel. Nullopt when not welcomed, when the server's build does not
  // know sceneEdit, or the channel refused it. The server applies only what its rules pass and only
  // from a session admitted with world authority.
  std::optional<uint32_t> send_edit(protocol::SceneEdit gesture);
  // The server's refusals of this client's edits, by name, oldest first.
  bool pop_edit_refusal(protocol::SceneEditRefused& out);
  // The room's whole edit set as the newest sceneNodeState said it (null before any).
  const protocol::SceneNodeState* scene_state() const { return scene_state_ ? &*scene_state_ : nullptr; }
  uint64_t scene_states_received() const { return scene_states_received_; }
  // The newest ResumeTicket (seed 003): whether this session came back into its pawn (or why not)
  // and the token to present next time (kept across connections: it is for the next one).
  const std::optional<protocol::ResumeTicket>& resume_ticket() const { return resume_ticket_; }
  // The server's refusals of our addressed messages, by reason.
  const ReasonCounters<protocol::RelayRefusal>& relay_refusals() const { return relay_refusals_; }
  ReliableClient& transport() { return transport_; }

 private:
  void on_connection();
  void receive_channel(uint8_t channel, bool reliable);
  void dispatch(const PeerMessage& message);
  void on_welcome(std::span<const uint8_t> body);
  void on_snapshot(std::span<const uint8_t> body, std::size_t wire_bytes);
  void on_snapshot_delta(std::span<const uint8_t> body, std::size_t wire_bytes);
  void on_rest_chunk(std::span<const uint8_t> body);
  bool admissible(ContractVerdict verdict, uint32_t tick);
  void accept(std::size_t wire_bytes);
  void on_fragment(std::span<const uint8_t> body);
  void on_game_message(const NetMessage& message);
  void on_relay_refused(std::span<const uint8_t> body);
  void on_resume_ticket(std::span<const uint8_t> body);
  void on_entity_event(std::span<const uint8_t> body);
  void on_hit_event(std::span<const uint8_t> body);
  void on_scene_state(std::span<const uint8_t> body);
  template <class Message, std::size_t N>
  void queue_decoded(std::span<const uint8_t> body, RingBuffer<Message, N>& inbox, ClientDrop overflow, uint64_t& received);

  ReliableClient& transport_;
  SchemaCache& cache_;
  SessionClientConfig config_;
  uint64_t connection_ = 0;  // the transport's connection count this state belongs to
  std::optional<NetChannel> net_;
  std::optional<PeerSchema> peer_;
  std::optional<protocol::RoomWelcome> welcome_;
  std::optional<protocol::ResumeTicket> resume_ticket_;
  std::optional<ContractGuard> guard_;
  bool refused_ = false;
  InputSender inputs_;
  protocol::InputFrame frame_;
  protocol::TimedInputFrame timed_frame_;
  protocol::Snapshot decoded_;
  // Snapshots circulate without allocating: decoded_ moves into the queue, the game swaps its last
  // one for it at pop_snapshot, and that one comes back here to be decoded into next.
  protocol::Snapshot spare_;
  protocol::SnapshotDelta delta_message_;
  protocol::RestTableChunk rest_chunk_;
  DeltaSnapshotReader delta_;
  std::optional<SnapshotHead> newest_;
  struct Queued {
    protocol::Snapshot snapshot;
    std::size_t wire_bytes = 0;
  };
  RingBuffer<Queued, kSessionSnapshotQueue> queue_;
  protocol::SnapshotFragment fragment_;
  SnapshotReassembler reassembler_;
  uint64_t fragments_received_ = 0;
  uint64_t snapshots_accepted_ = 0;
  ReasonCounters<ClientDrop> drops_;
  wire::DecodeErrorCounters decode_errors_;
  RingBuffer<GameMessage, kSessionGameMessageQueue> game_messages_;
  uint64_t game_messages_received_ = 0;
  RingBuffer<protocol::EntityEvent, kSessionEntityEventQueue> entity_events_;
  uint64_t entity_events_received_ = 0;
  RingBuffer<protocol::HitEvent, kSessionHitEventQueue> hit_events_;
  uint64_t hit_events_received_ = 0;
  uint32_t next_shot_ = 1;
  RingBuffer<protocol::SceneEditRefused, kSessionEditRefusalQueue> edit_refusals_;
  uint64_t edit_refusals_received_ = 0;
  std::optional<protocol::SceneNodeState> scene_state_;
  uint64_t scene_states_received_ = 0;
  uint32_t next_gesture_ = 1;
  ReasonCounters<protocol::RelayRefusal> relay_refusals_;
};

}  // namespace tickwire

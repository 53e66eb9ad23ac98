// tickwire::Client: a player's client in one object. A game's client is a config, its
// PredictionModel and one call per frame:
//
//   tickwire::ClientConfig config;
//   config.connect_token = token_from_my_backend;   // or, in development: server_address + dev key
//   config.vocabulary = my_game_vocabulary();
//   config.model = &my_prediction_model;            // the server's own step for the pawn
//   auto opened = tickwire::Client::open(config);
//   while (playing) {
//     opened.client->frame(now, [&](uint32_t sequence) { return read_input(); });
//     draw(opened.client->own_position(), opened.client->remote_entities());
//   }
//
// Under it: the socket, netcode 1.02, the reliability layer, the session (connect sequence,
// welcome, contract guard), clock regulation, prediction and reconciliation, interpolation of
// everyone else at each kind's profile, and relay of addressed game messages through the server.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "tickwire/client/game_message.h"
#include "tickwire/client/input_source.h"
#include "tickwire/client/object_sample.h"
#include "tickwire/client/prediction_model.h"
#include "tickwire/clock/time.h"
#include "tickwire/protocol/entity_event.h"
#include "tickwire/protocol/hit_event.h"
#include "tickwire/protocol/input_frame.h"
#include "tickwire/protocol/netcode_contract.h"
#include "tickwire/protocol/resume_ticket.h"
#include "tickwire/protocol/scene_edit.h"
#include "tickwire/protocol/scene_edit_refused.h"
#include "tickwire/protocol/scene_node_state.h"
#include "tickwire/protocol/vocabulary.h"
#include "tickwire/stats.h"
#include "tickwire/transport/connect_token_private.h"
#include "tickwire/transport/message_envelope.h"
#include "tickwire/transport/netcode_constants.h"
#include "tickwire/transport/netcode_crypto.h"

namespace tickwire {

class DatagramSocket;
class GameClient;

struct ClientConfig {
  // The connect token the game's backend minted (its bytes, as netcode 1.02 defines them)...
  std::vector<uint8_t> connect_token;
  // ...or, for development only, the server's HOST:PORT and its private key: the client mints its
  // own token (a shipped client never holds the key). With a token alone the client's socket takes
  // the family and scope (loopback or any) of the token's first server address.
  std::string server_address;
  netcode::Key dev_private_key{};
  uint64_t client_id = 0;
  uint64_t protocol_id = netcode::kDefaultProtocolId;
  uint32_t token_expire_seconds = 3600;
  // The user data a development token carries (what the server reads at admission: its grants, e.g.
  // world authority or a resume token, stated by write_admission_grants in server/admission_grants.h).
  netcode::UserData dev_user_data{};
  // The game's vocabulary: a room whose contract carries another is refused.
  GameVocabulary vocabulary;
  // The server's own step for the pawn (must outlive the client); null: no prediction.
  const PredictionModel* model = nullptr;
  std::string build_name = "tickwire";
  // In a server-time room: the client's own logic rate, inputs sampled and the pawn predicted this
  // often (0: the room's tick rate; at most the contract's mode.serverTime.maxLogicHz). The other
  // modes run the room's tick rate.
  uint32_t logic_hz = 0;
  // Injected instead of a socket of its own (simulations, tests); must outlive the client.
  DatagramSocket* socket = nullptr;
};

enum class ClientPhase : uint8_t {
  connecting,    // netcode handshake and the connect sequence
  playing,       // welcomed into the room
  refused,       // the room's contract, vocabulary or schema cannot be taken: see reason
  disconnected,  // the connection ended (or never started): see reason
};

struct ClientStatus {
  ClientPhase phase = ClientPhase::connecting;
  std::string reason;  // why refused or disconnected (e.g. "connect_token_expired", "vocabulary_mismatch")
};

// A remote entity as drawn this frame, at its kind's interpolation profile.
struct DrawnEntity {
  uint32_t entity_id = 0;
  uint8_t kind = 0;
  protocol::Vec3 position_m;
  float yaw_deg = 0, pitch_deg = 0;
  uint8_t flags = 0;
  uint8_t channel_count = 0;
  float channels[protocol::MaxKindChannels] = {0, 0, 0, 0};
  uint8_t bits = 0;
  bool extrapolated = false;  // past its newest sample (short of the cap)
};

// The server's answer for the own pawn, for tools that draw it against own_position() (a correction
// ghost): the newest snapshot's owner detail, the pawn at the input the server acked.
struct OwnPawnAnswer {
  uint32_t tick = 0;           // the snapshot's
  protocol::Vec3 position_m;   // the server's pawn there
  float correction_m = 0;      // how far the last applied reconcile moved the prediction (0: confirmed)
  float easing_m = 0;          // what of the corrections is still being eased out of the drawn pawn
};

class Client;

struct ClientOpen {
  std::unique_ptr<Client> client;
  std::string error;
  explicit operator bool() const { return client != nullptr; }
};

class Client {
 public:
  // Opens (or takes) a socket and starts connecting at `now` (`wall_now` stamps a minted token).
  static ClientOpen open(const ClientConfig& config, MonoTime now, WallTime wall_now);
  ~Client();
  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;

  // One frame at `now`: receive, regulate the clock, run the due client ticks (inputs from
  // `input`), predict, interpolate, send.
  void frame(MonoTime now, const InputSource& input);
  // Tells the server (redundantly) and stops.
  void disconnect(MonoTime now);

  ClientStatus status() const;
  OwnerId owner() const;  // 0 before the welcome
  const NetcodeContract* contract() const;  // the room's, once welcomed

  // The own pawn where the camera draws it, and each of its pawn values: predicted and eased when
  // the room's contract admits its prediction (contract()->prediction.ownPawnPredicted), else as
  // the snapshots place it, interpolated like a remote entity (its values: the server's newest).
  protocol::Vec3 own_position() const;
  float own_value(std::size_t index) const;
  // Every remote entity (the own pawn excepted) at this frame's render time for its kind's profile.
  const std::vector<DrawnEntity>& remote_entities() const { return drawn_; }
  // For tools (read-only, not per frame): the own pawn as the server answered for it (nullopt before
  // an owner detail), and every remote entity as the newest snapshot holds it (what the render
  // time runs behind), into `out`, its tick returned (nullopt and `out` empty before a snapshot).
  std::optional<OwnPawnAnswer> own_pawn_answer() const;
  std::optional<uint32_t> newest_remote_entities(std::vector<DrawnEntity>& out) const;
  // A map object (its index in the map's object table) at this frame's render time: its channels
  // lerped, its bits and flags snapped, its pose when a record moved it (else where the map puts
  // it: the game's catalog of the same map). nullopt while no snapshot at that time names it.
  std::optional<ObjectSample> map_object(uint32_t object_index) const;
  // The map objects whose state changes within the held history (a door easing, a lamp that just
  // flipped), ascending: the ones to redraw. Every other object rests as its last sample left it.
  std::span<const uint32_t> changing_objects() const;

  // A game message (type >= 256) to another client, through the server, which never reads it.
  // False when it could not be queued (not playing, or the channel is full). Unreliable ones may be
  // lost and may arrive out of order (a late one inside the channel's window), never twice.
  bool send_to(OwnerId target, MessageType type, std::span<const uint8_t> payload, bool reliable = true);
  // The next game message for this client (from another client, or from the server: from 0),
  // oldest first.
  std::optional<GameMessage> receive_message();

  // The interaction channel: ask the server to act on an entity (`target_ref`: an EntityRef raw, a
  // snapshot's entity id in its handle) with the game's verb, reliable. The server re-judges reach,
  // look and rate itself and answers with an entity event. False when not playing or the channel is full.
  bool interact(uint64_t target_ref, uint8_t action);
  // An RPC to one of the game's constructs (a game mode, an AI director) by its ConstructHandle's
  // raw bits: the game's method and up to 256 bytes it reads. A stale or foreign handle is refused
  // by the server (stats: construct.refusal.<why>). False before the welcome or past the cap.
  bool call_construct(uint32_t construct_handle, uint16_t method, std::span<const uint8_t> payload = {});
  // The next entity event for this client (the server's answers and announcements), oldest first.
  std::optional<protocol::EntityEvent> receive_event();

  // A shot (seed 000, "Hits"): the eye it leaves from and the way it aims, told to the server with
  // this frame's render time (the standard profile's: where the remote pawns stand as drawn), so
  // the server traces the others as this client saw them, no further back than the contract's max
  // rewind. The server re-checks the eye against its own and may drop the shot without a word.
  // Returns the shot's number (echoed in its hit events), or nullopt when not playing, before the
  // first snapshot, when the server's build does not know shots, or the channel is full.
  std::optional<uint32_t> fire(const protocol::Vec3& eye, const protocol::Vec3& aim);
  // The next hit event (every player's shots, this client's among them), oldest first.
  std::optional<protocol::HitEvent> receive_hit();

  // A scene edit gesture (seed 000, "Scene edits"): field, component and object edits, checked by
  // the server through the same rules an editor checks them with (world/scene_edit_rules.h), applied
  // only from a session admitted with world authority. Returns the gesture's number (echoed in its
  // refusals), or nullopt when not playing, when the server's build does not know edits, or the
  // channel is full.
  std::optional<uint32_t> edit(const protocol::SceneEdit& gesture);
  // The next refusal of one of this client's edit writes (or of a whole gesture), by name.
  std::optional<protocol::SceneEditRefused> receive_edit_refusal();
  // The room's whole edit set (null before the server sent one): what the game lays over its map.
  const protocol::SceneNodeState* scene_state() const;
  // The newest resume ticket (seed 003; null before one, or from a server that offers none): whether
  // this session came back into the pawn it left, and the token (hex) to present next time: the
  // game's backend puts it in the next connect token's user data (AdmissionGrants::resume_token),
  // so a player whose process died comes back into the same pawn.
  const protocol::ResumeTicket* resume_ticket() const;

  // Which map the server's rest table is of (its game's map identity; zero until a table named one).
  // It changes after a live map switch: the moment to rebuild what the game derived from the map.
  wire::Hash16 map_identity() const;

  // The room's world settings as the newest snapshot carries them (the contract's before the first;
  // the defaults, forgiveness 1.0 and time scale 1, before the welcome). Prediction already steps at
  // the time scale and claims by the forgiveness; a game scales its own world-time effects
  // (animation, particles, sound pitch) by time_scale. Ticks keep their wall-clock rate at any scale,
  // so remote interpolation needs nothing.
  protocol::WorldSettings world_settings() const;

  ClientStats stats() const;
  struct Parts;  // the machinery (defined with the implementation)
  // The machinery, for tools and tests that look deeper (internal headers).
  GameClient& game();
  const GameClient& game() const;

 private:
  explicit Client(std::unique_ptr<Parts> parts);
  void draw();
  std::unique_ptr<Parts> parts_;
  std::vector<DrawnEntity> drawn_;
};

}  // namespace tickwire

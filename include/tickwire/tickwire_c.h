/* tickwire_c.h: the C API over the tickwire::Server / tickwire::Client facade, for games and engine
 * bindings (Unity, Godot, Unreal) that cannot take C++ types: opaque handles, plain structs, enum
 * result codes and a message per handle. No exception and no C++ type crosses this header.
 *
 * Conventions. Every function that can fail returns a tw_result; its message is read with the
 * handle's *_last_error() (or, for the *_open functions, from an optional tw_error out-param).
 * Config structs are filled with the library's defaults by their *_init() function, then edited.
 * Time is a parameter: int64 nanoseconds, monotonic (tw_mono_now_ns) for cadence and wall
 * (tw_wall_now_ns) for tokens. Strings are UTF-8, NUL-terminated, copied when taken; a string the
 * library returns stays valid until the next call on the same handle. A handle is used from one
 * thread at a time. Entity refs (pawns) are the engine's 64-bit EntityRef values. */
#ifndef TICKWIRE_TICKWIRE_C_H
#define TICKWIRE_TICKWIRE_C_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- caps and sizes (each equal to the library's own, checked where the API is built) ---- */
#define TW_KEY_BYTES 32                 /* a netcode 1.02 private key */
#define TW_CONNECT_TOKEN_BYTES 2048     /* a netcode 1.02 connect token */
#define TW_MAX_PAWN_VALUES 4            /* the game's floats in a pawn state */
#define TW_MAX_KIND_CHANNELS 4          /* float channels in an entity record's payload */
#define TW_MAX_COMPONENT_SECTIONS 4     /* component sections in an object record */
#define TW_MAX_RECORDS_PER_TICK 4096    /* records a tick may write */
#define TW_VOCABULARY_MAX_NAME_BYTES 32 /* a kind, flag, component, value or button name */
#define TW_FIRST_GAME_MESSAGE_TYPE 256  /* relayed message types start here; below are the engine's */
#define TW_ERROR_BYTES 256              /* a tw_error's message, NUL included */

typedef enum tw_result {
  TW_OK = 0,
  TW_ERR_INVALID_ARGUMENT = 1, /* a null handle or pointer, a value out of its range: see the message */
  TW_ERR_REFUSED = 2,          /* the library refused (a policy, an address, a socket): see the message */
  TW_ERR_NOT_READY = 3,        /* not now: not playing yet, a channel full */
  TW_ERR_EMPTY = 4,            /* nothing to return (no game message waiting) */
  TW_ERR_OUT_OF_MEMORY = 5,
  TW_ERR_INTERNAL = 6          /* the library failed unexpectedly (a bug): see the message */
} tw_result;

/* The name of a result code ("ok", "invalid_argument"...), static storage. */
const char* tw_result_name(tw_result result);

/* What an *_open function says when it fails. */
typedef struct tw_error {
  tw_result result;
  char message[TW_ERROR_BYTES];
} tw_error;

/* ---- time (the library's one real clock source) ---- */
/* Monotonic nanoseconds (steady clock): pass as `now_ns` to updates and frames. */
int64_t tw_mono_now_ns(void);
/* Wall-clock nanoseconds since the Unix epoch: stamps connect tokens. */
int64_t tw_wall_now_ns(void);

/* ---- plain values ---- */
typedef struct tw_vec3 {
  float x, y, z; /* metres, y up */
} tw_vec3;

/* The room's settings that may change while it runs; every snapshot carries them. */
typedef struct tw_world_settings {
  float forgiveness; /* [0, 1]: 1 the server's answer always stands; 0 a claim is adopted outright */
  float time_scale;  /* [0, 4]: world seconds a tick advances, in tick lengths (0 paused) */
} tw_world_settings;

/* One tick's input: two movement axes (-1..1), look angles, eight button bits (the vocabulary's). */
typedef struct tw_input {
  uint32_t buttons;
  float move_x, move_y;
  float yaw_deg, pitch_deg;
} tw_input;

/* A pawn as the owner's client predicts it and the server details it. */
typedef struct tw_pawn_state {
  tw_vec3 position;
  tw_vec3 velocity_mps;
  float values[TW_MAX_PAWN_VALUES]; /* the vocabulary's pawn values, in registration order */
  uint8_t value_count;
  uint8_t flags;           /* entity flag bits (the vocabulary's) */
  uint8_t placement_epoch; /* bumped by the server on a teleport or respawn; the client never does */
} tw_pawn_state;

/* ---- the game's vocabulary: kinds, flags, components, pawn values, buttons ---- */
typedef struct tw_vocabulary tw_vocabulary;

typedef enum tw_interp_profile {
  TW_INTERP_STANDARD = 0,   /* ceil(interp) + 1 ticks behind the newest snapshot */
  TW_INTERP_HUG_NEWEST = 1, /* the margin alone: freshest pose */
  TW_INTERP_DOUBLED = 2     /* a doubled buffer: perfectly fluid slow movers */
} tw_interp_profile;

typedef struct tw_kind_def {
  uint8_t id;               /* 1..255 */
  const char* name;         /* 1..32 bytes */
  float position_quantum_m; /* wire precision of positions */
  uint8_t rotation_bits;    /* smallest-three bits per component, 9..15 */
  tw_interp_profile profile;
  bool important; /* rides the pose lane at any distance */
} tw_kind_def;

/* Fills `def` with the library's default precision and profile (id 0, name NULL). */
void tw_kind_def_init(tw_kind_def* def);
/* An empty vocabulary into `out`. */
tw_result tw_vocabulary_create(tw_vocabulary** out);
/* Frees the vocabulary (servers and clients opened with it keep their own copies). */
void tw_vocabulary_destroy(tw_vocabulary* vocabulary);
/* The message of the vocabulary's last failed call ("" when none). */
const char* tw_vocabulary_last_error(const tw_vocabulary* vocabulary);
/* Registers a kind; a zero id, a repeated id or name, or a precision out of range is refused. */
tw_result tw_vocabulary_add_kind(tw_vocabulary* vocabulary, const tw_kind_def* def);
/* Names entity flag `bit` (0..7); `claimable`: a client's forgiveness claim may set it. */
tw_result tw_vocabulary_add_entity_flag(tw_vocabulary* vocabulary, uint8_t bit, const char* name, bool claimable);
/* Names map-object flag `bit` (0..7). */
tw_result tw_vocabulary_add_object_flag(tw_vocabulary* vocabulary, uint8_t bit, const char* name);
/* Registers a map-object component section: wire id 1..255, 0..4 float channels. */
tw_result tw_vocabulary_add_component(tw_vocabulary* vocabulary, uint8_t wire_id, const char* name, uint8_t channels);
/* Appends a pawn value (at most TW_MAX_PAWN_VALUES); its index is the registration order. */
tw_result tw_vocabulary_add_pawn_value(tw_vocabulary* vocabulary, const char* name);
/* Names input button `bit` (0..7); `posture`: held through starved ticks (a crouch). */
tw_result tw_vocabulary_add_button(tw_vocabulary* vocabulary, uint8_t bit, const char* name, bool posture);

/* ---- the tick's records, written by the simulation ---- */
typedef struct tw_records tw_records; /* valid only inside the callback that receives it */

typedef struct tw_entity_record {
  uint32_t id; /* unique in the tick; a pawn's is tw_pawn_record_id(pawn) */
  uint8_t kind;
  tw_vec3 position_m; /* finite */
  float yaw_deg, pitch_deg;
  uint8_t flags; /* entity flag bits the vocabulary names */
  bool has_rotation;
  float rotation[4]; /* quaternion x, y, z, w (when has_rotation) */
  uint8_t channel_count;
  float channels[TW_MAX_KIND_CHANNELS];
  uint8_t bits;
} tw_entity_record;

/* Interest attributes of one record (seed 003); all zero: public, spatial, parentless. */
typedef struct tw_record_interest {
  uint16_t private_to; /* nonzero: only this owner's client sees it */
  bool always_relevant;
  bool important;       /* pose lane at any distance */
  uint32_t parent_id;   /* sent with and after this record (0: none) */
  uint32_t scene_frame; /* members go whole or not at all (0: none) */
} tw_record_interest;

typedef struct tw_component_section {
  uint8_t wire_id; /* a registered component */
  uint8_t channel_count;
  float channels[TW_MAX_KIND_CHANNELS];
  uint8_t bits;
} tw_component_section;

/* A map object, whole. */
typedef struct tw_object_record {
  uint32_t id;
  uint32_t object_index;
  uint8_t flags; /* object flag bits the vocabulary names */
  uint8_t section_count;
  tw_component_section sections[TW_MAX_COMPONENT_SECTIONS];
} tw_object_record;

/* The record id of a pawn's entity (its net handle). */
uint32_t tw_pawn_record_id(uint64_t pawn);
/* Adds an entity record (`interest` may be NULL). A repeated id, an unregistered kind or flag, a
 * non-finite position or a full tick is refused by name and counted ("c_api.record.<reason>"). */
tw_result tw_records_add_entity(tw_records* records, const tw_entity_record* record, const tw_record_interest* interest);
/* Adds a map object's record, refused and counted like an entity's. */
tw_result tw_records_add_object(tw_records* records, const tw_object_record* record);

/* ---- the simulation: the game's server side, as C callbacks ---- */
typedef enum tw_input_source {
  TW_INPUT_FRESH = 0,    /* the oldest queued input, applied once */
  TW_INPUT_REPEATED = 1, /* a starved tick: the previous input again */
  TW_INPUT_ZEROED = 2    /* starved past the limit: movement and actions zeroed */
} tw_input_source;

typedef struct tw_tick_input {
  tw_input cmd;
  uint32_t sequence; /* when has_sequence */
  bool has_sequence;
  tw_input_source source;
  uint32_t starved_run_ticks;
  bool has_claim;      /* the client's forgiveness claim rode this fresh input */
  tw_pawn_state claim; /* what the client says its pawn is after it */
} tw_tick_input;

/* Every callback gets `user`. Required: spawn_pawn, despawn_pawn, step_pawn, pawn_detail,
 * write_records; the others may be NULL. Callbacks run inside tw_server_update/run_once. */
typedef struct tw_simulation {
  void* user;
  /* Place the pawn the room allocated for client `owner`. */
  void (*spawn_pawn)(void* user, uint64_t pawn, uint16_t owner, int64_t tick);
  /* The pawn's client left: forget the pawn. */
  void (*despawn_pawn)(void* user, uint64_t pawn);
  /* One fixed tick of one pawn from the input the room prepared for it. */
  void (*step_pawn)(void* user, uint64_t pawn, const tw_tick_input* input, int64_t tick, double dt_s);
  /* The world's tick, after every pawn (optional). */
  void (*step_world)(void* user, int64_t tick, double dt_s);
  /* The owner's view of its pawn as simulated (what prediction reconciles against); `out` is zeroed. */
  void (*pawn_detail)(void* user, uint64_t pawn, tw_pawn_state* out);
  /* The tick's state: every entity (and map object) through tw_records_add_*. */
  void (*write_records)(void* user, int64_t tick, tw_records* out);
  /* A client's interaction with `target` (its generation and rate already checked) (optional). */
  void (*interact)(void* user, uint64_t actor_pawn, uint64_t target, uint8_t action, int64_t tick);
  /* The rest table: every map object whole, through tw_records_add_object (optional). */
  void (*write_rest_records)(void* user, tw_records* out);
  /* Bumped when the game installs or rebinds its map objects (optional; NULL: 0). */
  uint64_t (*map_generation)(void* user);
} tw_simulation;

/* ---- the server ---- */
typedef struct tw_server tw_server;

/* The possessed character's movement body and its movement's requested authority (the room
 * policy's prediction: the server grants client prediction only to a kinematic controller whose
 * movement asks for it; a client-predicted dynamic rigidbody is demoted, with a diagnostic). */
typedef enum tw_pawn_body {
  TW_PAWN_BODY_NONE = 0,                 /* no controllable character: fails closed, nothing predicted */
  TW_PAWN_BODY_KINEMATIC_CONTROLLER = 1, /* the game's own controller: may be predicted */
  TW_PAWN_BODY_DYNAMIC_RIGIDBODY = 2     /* a physics body: never predicted */
} tw_pawn_body;

/* The room's runtime mode (docs/server-time-mode.md); a deterministic match is not a server's. */
typedef enum tw_runtime_mode {
  TW_MODE_SNAPSHOT = 0,    /* clients tick with the room: one input per tick, queued (the default) */
  TW_MODE_SERVER_TIME = 1  /* clients run their own logic rates; inputs stamped with the server's time */
} tw_runtime_mode;

typedef enum tw_movement_authority {
  TW_MOVEMENT_SERVER_AUTHORITATIVE = 0,
  TW_MOVEMENT_CLIENT_PREDICTED = 1
} tw_movement_authority;

typedef struct tw_server_config {
  const char* bind;           /* numeric HOST:PORT ("127.0.0.1:40000"; port 0: any free port) */
  const char* public_address; /* what tokens list; NULL or "": the bound address */
  uint8_t private_key[TW_KEY_BYTES];
  uint64_t protocol_id;
  uint32_t max_clients; /* 1..1023 */
  const tw_vocabulary* vocabulary; /* copied; NULL: an empty vocabulary */
  /* The room policy (a subset; the rest keeps the library's defaults). */
  const char* room_id;
  const char* game;
  const char* deployment;
  const char* content_version;
  const char* environment;
  uint32_t tick_rate_hz;
  uint32_t snapshot_rate_hz; /* divides the tick rate (the world lane's rate) */
  double forgiveness; /* 1: the server's answer always stands; below: claims may be adopted */
  double interest_radius_m;
  uint32_t snapshot_budget_bytes;
  /* The library's default fails closed (no character, server-authoritative: nothing predicted); a
   * game whose clients predict their pawn sets a kinematic controller and client prediction. */
  tw_pawn_body pawn_body;
  tw_movement_authority movement_authority;
  tw_runtime_mode mode;
} tw_server_config;

typedef struct tw_server_update_info {
  uint32_t ticks_run;
  int64_t last_tick; /* the newest tick simulated */
} tw_server_update_info;

typedef struct tw_server_stats {
  uint32_t clients;
  uint64_t sessions_admitted;
  double tick_rate_hz;
  uint64_t ticks_executed;
  uint64_t ticks_declared; /* declared dropped (overload) */
  int64_t last_tick;
  uint64_t snapshots_sent;
  uint64_t bytes_sent;
  uint64_t bytes_received;
  uint64_t relayed;
  uint32_t reason_count; /* read each with tw_server_stats_reason */
} tw_server_stats;

/* Fills `config` with the library's defaults (its policy numbers, protocol id, bind address). */
void tw_server_config_init(tw_server_config* config);
/* Opens the socket, resolves the policy into the contract and starts the room; `simulation` is
 * copied, its `user` must outlive the server. */
tw_result tw_server_open(const tw_server_config* config, const tw_simulation* simulation, tw_server** out, tw_error* error);
/* Stops the server (each client hears it) and frees it. */
void tw_server_destroy(tw_server* server);
/* The message of the server's last failed call, or of the last record refused ("" when none). */
const char* tw_server_last_error(const tw_server* server);
/* Waits for the next due tick on the server's own timer, then runs tw_server_update at that time. */
tw_result tw_server_run_once(tw_server* server, tw_server_update_info* out);
/* One iteration at `now_ns`: receive, run the due ticks (snapshots go out), send. `out` may be NULL. */
tw_result tw_server_update(tw_server* server, int64_t now_ns, tw_server_update_info* out);
/* When the room's next tick is due (monotonic ns): a loop may sleep until then. */
int64_t tw_server_next_due_ns(const tw_server* server);
/* Disconnects every client and stops accepting. */
tw_result tw_server_stop(tw_server* server);
/* The bound socket's HOST:PORT. */
const char* tw_server_local_address(tw_server* server);
/* The room's contract hash, 32 hex digits. */
const char* tw_server_contract_hash(tw_server* server);
/* The world settings from the next tick on (TW_ERR_INVALID_ARGUMENT out of range); and the current ones. */
tw_result tw_server_set_world_settings(tw_server* server, const tw_world_settings* settings);
tw_world_settings tw_server_world_settings(const tw_server* server);
/* The server's figures now; the reason list is kept for tw_server_stats_reason. */
tw_result tw_server_stats_get(tw_server* server, tw_server_stats* out);
/* Reason `index` of the last tw_server_stats_get: "area.reason" (valid until the next one) and count. */
tw_result tw_server_stats_reason(const tw_server* server, uint32_t index, const char** name, uint64_t* count);

/* ---- the client ---- */
typedef struct tw_client tw_client;

/* The game's prediction: the server's own step for the pawn. `next` starts as a copy of `state`. */
typedef struct tw_prediction_model {
  void* user;
  void (*step)(void* user, const tw_pawn_state* state, const tw_input* cmd, double dt_s, tw_pawn_state* next);
} tw_prediction_model;

typedef struct tw_client_config {
  /* The connect token the game's backend minted (TW_CONNECT_TOKEN_BYTES)... */
  const uint8_t* connect_token;
  size_t connect_token_bytes;
  /* ...or, for development only, the server and its key: the client mints its own token. */
  const char* server_address; /* numeric HOST:PORT */
  uint8_t dev_private_key[TW_KEY_BYTES];
  uint64_t client_id;
  uint64_t protocol_id;
  uint32_t token_expire_seconds;
  const tw_vocabulary* vocabulary; /* copied; must match the room's */
  tw_prediction_model model;       /* step NULL: no prediction; `user` must outlive the client */
  uint32_t logic_hz; /* a server-time room: the client's own logic rate (0: the room's tick rate) */
} tw_client_config;

typedef enum tw_client_phase {
  TW_PHASE_CONNECTING = 0,  /* netcode handshake and the connect sequence */
  TW_PHASE_PLAYING = 1,     /* welcomed into the room */
  TW_PHASE_REFUSED = 2,     /* the room's contract, vocabulary or schema cannot be taken */
  TW_PHASE_DISCONNECTED = 3 /* the connection ended or never started */
} tw_client_phase;

/* A remote entity as drawn this frame, at its kind's interpolation profile. */
typedef struct tw_drawn_entity {
  uint32_t entity_id;
  uint8_t kind;
  tw_vec3 position_m;
  float yaw_deg, pitch_deg;
  uint8_t flags;
  uint8_t channel_count;
  float channels[TW_MAX_KIND_CHANNELS];
  uint8_t bits;
  bool extrapolated; /* past its newest sample */
} tw_drawn_entity;

/* A map object as drawn this frame: channels lerped, bits and flags snapped at the render time. */
typedef struct tw_drawn_object {
  uint32_t object_index; /* its place in the map's object table */
  uint8_t flags;         /* object flag bits the vocabulary names */
  bool has_pose;         /* a record moved it; otherwise it stands where the map puts it */
  tw_vec3 position_m;
  bool has_rotation;
  float rotation[4]; /* quaternion x, y, z, w (when has_rotation) */
  bool has_scale;
  tw_vec3 scale;
  uint8_t section_count;
  tw_component_section sections[TW_MAX_COMPONENT_SECTIONS];
} tw_drawn_object;

/* A game message another client addressed to this one; `payload` is the client's until its next call. */
typedef struct tw_game_message {
  uint16_t from;
  uint16_t type;
  const uint8_t* payload;
  size_t payload_bytes;
} tw_game_message;

typedef struct tw_client_stats {
  bool welcomed;
  uint64_t frames;
  uint64_t inputs_sent;
  uint64_t snapshots;
  uint64_t snapshot_bytes;
  double rtt_ms;
  uint64_t bytes_sent;
  uint64_t bytes_received;
  uint64_t corrections; /* prediction corrections eased out */
  uint64_t prediction_snaps;
  uint64_t held_frames;  /* interpolation ran past the newest snapshot */
  uint64_t render_snaps; /* the render clock jumped */
  uint64_t messages_received;
  uint32_t reason_count; /* read each with tw_client_stats_reason */
} tw_client_stats;

/* Input for the client tick `sequence`; `out` is zeroed before the call. */
typedef void (*tw_input_fn)(void* user, uint32_t sequence, tw_input* out);

/* Fills `config` with the library's defaults (protocol id, token lifetime; no token, no model). */
void tw_client_config_init(tw_client_config* config);
/* Opens a socket and starts connecting at `now_ns` (`wall_now_ns` stamps a minted token). */
tw_result tw_client_open(const tw_client_config* config, int64_t now_ns, int64_t wall_now_ns, tw_client** out,
                         tw_error* error);
/* Frees the client (call tw_client_disconnect first to tell the server). */
void tw_client_destroy(tw_client* client);
/* The message of the client's last failed call ("" when none). */
const char* tw_client_last_error(const tw_client* client);
/* One frame at `now_ns`: receive, run the due client ticks (inputs from `input`, NULL: none), predict, interpolate, send. */
tw_result tw_client_frame(tw_client* client, int64_t now_ns, tw_input_fn input, void* user);
/* Tells the server (redundantly) and stops. */
tw_result tw_client_disconnect(tw_client* client, int64_t now_ns);
/* The phase; `reason` (may be NULL) receives why refused or disconnected ("" otherwise). */
tw_client_phase tw_client_status(tw_client* client, const char** reason);
/* This client's owner id in the room (0 before the welcome). */
uint16_t tw_client_owner(const tw_client* client);
/* The own pawn where the camera draws it (predicted, eased). */
tw_vec3 tw_client_own_position(const tw_client* client);
/* The own pawn's value `index` (0 when it has fewer). */
float tw_client_own_value(const tw_client* client, size_t index);
/* Copies up to `capacity` remote entities drawn this frame into `out`; returns how many there are. */
size_t tw_client_remote_entities(const tw_client* client, tw_drawn_entity* out, size_t capacity);
/* The room's world settings as the newest snapshot carries them (the contract's before the first);
   prediction already steps and claims by them. */
tw_world_settings tw_client_world_settings(const tw_client* client);
/* Map object `object_index` at this frame's render time into `out`, or TW_ERR_EMPTY while no
   snapshot at that time names it. */
tw_result tw_client_map_object(tw_client* client, uint32_t object_index, tw_drawn_object* out);
/* Copies up to `capacity` indices of the map objects whose state changes within the held history
   (ascending: the ones to redraw) into `out`; returns how many there are. */
size_t tw_client_changing_objects(const tw_client* client, uint32_t* out, size_t capacity);
/* Sends a game message (type >= TW_FIRST_GAME_MESSAGE_TYPE) to client `target` through the server. */
tw_result tw_client_send_to(tw_client* client, uint16_t target, uint16_t type, const uint8_t* payload, size_t payload_bytes,
                            bool reliable);
/* The oldest game message for this client (relayed from another client, or from the server: from 0)
   into `out`, or TW_ERR_EMPTY. */
tw_result tw_client_receive_message(tw_client* client, tw_game_message* out);
/* The client's figures now; the reason list is kept for tw_client_stats_reason. */
tw_result tw_client_stats_get(tw_client* client, tw_client_stats* out);
/* Reason `index` of the last tw_client_stats_get: "area.reason" (valid until the next one) and count. */
tw_result tw_client_stats_reason(const tw_client* client, uint32_t index, const char** name, uint64_t* count);

#ifdef __cplusplus
}
#endif

#endif /* TICKWIRE_TICKWIRE_C_H */

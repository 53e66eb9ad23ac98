/* c_game: the tiny dots game written in C11 against tickwire's C API. One process runs a server
 * and N clients over loopback UDP for --seconds (default 10): its vocabulary, its simulation as C
 * callbacks, its prediction as a C callback, a frame loop. It prints what each client sees once a
 * second and exits 0 when every client played (1 when one never got into the room). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>
#include <time.h>

#include "tickwire/tickwire_c.h"

#define MAX_CLIENTS 8   /* clients this example runs at most */
#define MAX_DOTS 16     /* dots the server keeps (one per client, with room to spare) */
#define MAX_DRAWN 64    /* remote entities a client copies per frame */
#define ADDRESS_BYTES 64
#define FRAME_SLEEP_NS 2000000L /* the loop's nap between frames: 2 ms */

enum { KIND_DOT = 1, FLAG_DASHING_BIT = 0, BUTTON_DASH_BIT = 0, VALUE_SPEED = 0 };
static const float kSpeedMps = 3.0f;

/* ---- the game both sides share: a dot slides where its input points, twice as fast dashing ---- */
static void step_dot(const tw_pawn_state* from, const tw_input* cmd, double dt_s, tw_pawn_state* to) {
  const int dashing = (cmd->buttons & (1u << BUTTON_DASH_BIT)) != 0;
  const float speed = dashing ? 2 * kSpeedMps : kSpeedMps;
  *to = *from;
  to->position.x = from->position.x + cmd->move_x * speed * (float)dt_s;
  to->position.z = from->position.z + cmd->move_y * speed * (float)dt_s;
  to->values[VALUE_SPEED] = speed;
  to->value_count = 1;
  to->flags = (uint8_t)(dashing ? 1u << FLAG_DASHING_BIT : 0u);
}

/* The vocabulary both ends register (each copies it when it opens), or NULL. */
static tw_vocabulary* dots_vocabulary(void) {
  tw_vocabulary* v = NULL;
  tw_kind_def dot;
  if (tw_vocabulary_create(&v) != TW_OK) return NULL;
  tw_kind_def_init(&dot);
  dot.id = KIND_DOT;
  dot.name = "dot";
  if (tw_vocabulary_add_kind(v, &dot) != TW_OK || tw_vocabulary_add_entity_flag(v, FLAG_DASHING_BIT, "dashing", true) != TW_OK ||
      tw_vocabulary_add_pawn_value(v, "speed") != TW_OK || tw_vocabulary_add_button(v, BUTTON_DASH_BIT, "dash", false) != TW_OK) {
    fprintf(stderr, "c_game: vocabulary: %s\n", tw_vocabulary_last_error(v));
    tw_vocabulary_destroy(v);
    return NULL;
  }
  return v;
}

/* ---- the server's simulation: a fixed table of dots by pawn ---- */
typedef struct dot {
  uint64_t pawn; /* 0: free */
  tw_pawn_state state;
} dot;

typedef struct dots {
  dot slots[MAX_DOTS];
} dots;

static dot* find_dot(dots* d, uint64_t pawn) {
  for (int i = 0; i < MAX_DOTS; ++i) {
    if (d->slots[i].pawn == pawn) return &d->slots[i];
  }
  return NULL;
}

static void spawn_pawn(void* user, uint64_t pawn, uint16_t owner, int64_t tick) {
  dot* slot = find_dot(user, 0);
  (void)tick;
  if (slot == NULL) return; /* more clients than dots: max_clients keeps this from happening */
  memset(slot, 0, sizeof *slot);
  slot->pawn = pawn;
  slot->state.position.x = (float)owner;
  slot->state.values[VALUE_SPEED] = kSpeedMps;
  slot->state.value_count = 1;
}

static void despawn_pawn(void* user, uint64_t pawn) {
  dot* slot = find_dot(user, pawn);
  if (slot != NULL) slot->pawn = 0;
}

static void step_pawn(void* user, uint64_t pawn, const tw_tick_input* input, int64_t tick, double dt_s) {
  dot* slot = find_dot(user, pawn);
  (void)tick;
  if (slot != NULL) step_dot(&slot->state, &input->cmd, dt_s, &slot->state);
}

static void pawn_detail(void* user, uint64_t pawn, tw_pawn_state* out) {
  const dot* slot = find_dot(user, pawn);
  if (slot != NULL) *out = slot->state;
}

static void write_records(void* user, int64_t tick, tw_records* out) {
  const dots* d = user;
  (void)tick;
  for (int i = 0; i < MAX_DOTS; ++i) {
    if (d->slots[i].pawn == 0) continue;
    tw_entity_record record;
    memset(&record, 0, sizeof record);
    record.id = tw_pawn_record_id(d->slots[i].pawn);
    record.kind = KIND_DOT;
    record.position_m = d->slots[i].state.position;
    record.flags = d->slots[i].state.flags;
    (void)tw_records_add_entity(out, &record, NULL); /* a refusal is counted in the server's stats */
  }
}

/* ---- a client's prediction and its player: walk in a circle, dash every other two seconds ---- */
static void predict(void* user, const tw_pawn_state* state, const tw_input* cmd, double dt_s, tw_pawn_state* next) {
  (void)user;
  step_dot(state, cmd, dt_s, next);
}

static void walk_in_a_circle(void* user, uint32_t sequence, tw_input* out) {
  const double phase = *(const double*)user;
  out->move_x = (float)cos(sequence * 0.02 + phase);
  out->move_y = (float)sin(sequence * 0.02 + phase);
  out->buttons = (sequence / 120) % 2 == 1 ? 1u << BUTTON_DASH_BIT : 0u;
}

static void print_view(int index, tw_client* client) {
  tw_drawn_entity drawn[MAX_DRAWN];
  tw_client_stats stats;
  const size_t others = tw_client_remote_entities(client, drawn, MAX_DRAWN);
  const tw_vec3 me = tw_client_own_position(client);
  (void)tw_client_stats_get(client, &stats);
  printf("client %d: me (%.2f, %.2f) speed %.1f, others %zu", index, me.x, me.z, tw_client_own_value(client, VALUE_SPEED),
         others);
  for (size_t i = 0; i < others && i < MAX_DRAWN; ++i) {
    printf(" [%u (%.2f, %.2f)%s]", drawn[i].entity_id, drawn[i].position_m.x, drawn[i].position_m.z,
           (drawn[i].flags & (1u << FLAG_DASHING_BIT)) != 0 ? " dashing" : "");
  }
  printf(", snapshots %llu, corrections %llu\n", (unsigned long long)stats.snapshots, (unsigned long long)stats.corrections);
}

static void print_server_stats(tw_server* server) {
  tw_server_stats stats;
  if (tw_server_stats_get(server, &stats) != TW_OK) return;
  printf("server: %u players, %llu ticks, %llu snapshots sent\n", stats.clients, (unsigned long long)stats.ticks_executed,
         (unsigned long long)stats.snapshots_sent);
  for (uint32_t i = 0; i < stats.reason_count; ++i) {
    const char* name = NULL;
    uint64_t count = 0;
    if (tw_server_stats_reason(server, i, &name, &count) == TW_OK) printf("  %s: %llu\n", name, (unsigned long long)count);
  }
}

static double arg_or(int argc, char** argv, const char* name, double fallback) {
  for (int i = 1; i + 1 < argc; ++i) {
    if (strcmp(argv[i], name) == 0) return atof(argv[i + 1]);
  }
  return fallback;
}

static void demo_key(uint8_t key[TW_KEY_BYTES]) { /* the example's shared secret (a backend keeps its own private) */
  for (int i = 0; i < TW_KEY_BYTES; ++i) key[i] = (uint8_t)(i * 13 + 7);
}

static tw_server* open_server(dots* game, int clients) {
  tw_server_config config;
  tw_simulation simulation;
  tw_vocabulary* vocabulary = dots_vocabulary();
  tw_server* server = NULL;
  tw_error error;
  if (vocabulary == NULL) return NULL;
  tw_server_config_init(&config);
  config.bind = "127.0.0.1:0"; /* any free port: the clients ask the server which */
  demo_key(config.private_key);
  config.max_clients = (uint32_t)clients;
  config.vocabulary = vocabulary;
  config.room_id = "c-room";
  config.game = "c-game";
  config.deployment = "local";
  config.content_version = "1";
  config.environment = "example";
  config.pawn_body = TW_PAWN_BODY_KINEMATIC_CONTROLLER; /* its clients predict their dot */
  config.movement_authority = TW_MOVEMENT_CLIENT_PREDICTED;
  memset(&simulation, 0, sizeof simulation);
  simulation.user = game;
  simulation.spawn_pawn = spawn_pawn;
  simulation.despawn_pawn = despawn_pawn;
  simulation.step_pawn = step_pawn;
  simulation.pawn_detail = pawn_detail;
  simulation.write_records = write_records;
  if (tw_server_open(&config, &simulation, &server, &error) != TW_OK) fprintf(stderr, "c_game: server: %s\n", error.message);
  tw_vocabulary_destroy(vocabulary); /* the server keeps its copy */
  return server;
}

static tw_client* open_client(const char* server_address, int index) {
  static const tw_prediction_model model = {NULL, predict};
  tw_client_config config;
  tw_vocabulary* vocabulary = dots_vocabulary();
  tw_client* client = NULL;
  tw_error error;
  if (vocabulary == NULL) return NULL;
  tw_client_config_init(&config);
  config.server_address = server_address;
  demo_key(config.dev_private_key);
  config.client_id = (uint64_t)(tw_wall_now_ns() % 1000000) * MAX_CLIENTS + (uint64_t)index + 1;
  config.vocabulary = vocabulary;
  config.model = model;
  if (tw_client_open(&config, tw_mono_now_ns(), tw_wall_now_ns(), &client, &error) != TW_OK) {
    fprintf(stderr, "c_game: client %d: %s\n", index, error.message);
  }
  tw_vocabulary_destroy(vocabulary);
  return client;
}

int main(int argc, char** argv) {
  const double seconds = arg_or(argc, argv, "--seconds", 10.0);
  const int clients = (int)arg_or(argc, argv, "--clients", 3);
  static dots game; /* zeroed: every slot free */
  tw_client* client[MAX_CLIENTS] = {NULL};
  double phase[MAX_CLIENTS];
  int played[MAX_CLIENTS] = {0};
  char address[ADDRESS_BYTES];
  const struct timespec nap = {0, FRAME_SLEEP_NS};
  int failed = 0;
  if (clients < 1 || clients > MAX_CLIENTS) return fprintf(stderr, "c_game: --clients is 1..%d\n", MAX_CLIENTS), 2;

  tw_server* server = open_server(&game, clients);
  if (server == NULL) return 2;
  snprintf(address, sizeof address, "%s", tw_server_local_address(server));
  printf("c_game: server on %s, contract %s, %d clients\n", address, tw_server_contract_hash(server), clients);
  for (int i = 0; i < clients; ++i) {
    phase[i] = i * 2.0;
    if ((client[i] = open_client(address, i)) == NULL) failed = 1;
  }

  const int64_t start = tw_mono_now_ns();
  int64_t next_print = start + 1000000000LL;
  for (int64_t now = start; !failed && now - start < (int64_t)(seconds * 1e9); now = tw_mono_now_ns()) {
    (void)tw_server_update(server, now, NULL);
    for (int i = 0; i < clients; ++i) {
      const char* reason = "";
      (void)tw_client_frame(client[i], now, walk_in_a_circle, &phase[i]);
      const tw_client_phase status = tw_client_status(client[i], &reason);
      if (status == TW_PHASE_REFUSED || status == TW_PHASE_DISCONNECTED) {
        printf("client %d: %s\n", i, reason);
        failed = 1;
      }
      played[i] |= status == TW_PHASE_PLAYING;
      if (now >= next_print) {
        if (status == TW_PHASE_PLAYING) print_view(i, client[i]);
        else printf("client %d: connecting...\n", i);
      }
    }
    if (now >= next_print) next_print += 1000000000LL;
    fflush(stdout);
    thrd_sleep(&nap, NULL);
  }

  int everyone_played = !failed;
  for (int i = 0; i < clients; ++i) {
    everyone_played &= played[i];
    if (client[i] == NULL) continue;
    if (tw_client_status(client[i], NULL) == TW_PHASE_PLAYING) print_view(i, client[i]); /* the last look */
    (void)tw_client_disconnect(client[i], tw_mono_now_ns());
    tw_client_destroy(client[i]);
  }
  print_server_stats(server);
  tw_server_destroy(server);
  printf("c_game: %s\n", everyone_played ? "every client played" : "a client never played");
  return everyone_played ? 0 : 1;
}

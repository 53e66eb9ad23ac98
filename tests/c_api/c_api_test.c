/* The C API as a C caller meets it, compiled as C11: every refusal a C game can provoke comes back
 * as a code and a named message (never an abort), and a real session over loopback UDP works end
 * to end (two clients welcomed, each drawing the other, a relayed message arriving once at the
 * right client, refused records counted by name in the server's reasons). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>
#include <time.h>

#include "tickwire/tickwire_c.h"

#define SESSION_SECONDS 10 /* the loopback session gives up after this long */
#define RELAY_TYPE 300
#define KIND_DOT 1
#define KIND_UNREGISTERED 9
#define COMPONENT_LAMP 1
#define LAMP_INDEX 7 /* the one map object the game replicates */

static int failures = 0;

#define CHECK(condition)                                                    \
  do {                                                                      \
    if (!(condition)) {                                                     \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #condition); \
      ++failures;                                                           \
    }                                                                       \
  } while (0)

#define CHECK_MESSAGE(text, fragment) CHECK(strstr((text), (fragment)) != NULL)

static tw_vocabulary* dots_vocabulary(void) {
  tw_vocabulary* v = NULL;
  tw_kind_def dot;
  if (tw_vocabulary_create(&v) != TW_OK) return NULL;
  tw_kind_def_init(&dot);
  dot.id = KIND_DOT;
  dot.name = "dot";
  CHECK(tw_vocabulary_add_kind(v, &dot) == TW_OK);
  CHECK(tw_vocabulary_add_button(v, 0, "dash", false) == TW_OK);
  CHECK(tw_vocabulary_add_component(v, COMPONENT_LAMP, "lamp", 1) == TW_OK);
  return v;
}

static void test_vocabulary_refusals(void) {
  tw_vocabulary* v = dots_vocabulary();
  tw_kind_def kind;
  CHECK(v != NULL);
  tw_kind_def_init(&kind);
  kind.id = KIND_DOT;
  kind.name = "again";
  CHECK(tw_vocabulary_add_kind(v, &kind) == TW_ERR_INVALID_ARGUMENT);
  CHECK_MESSAGE(tw_vocabulary_last_error(v), "kind_id_taken");
  kind.id = 0;
  CHECK(tw_vocabulary_add_kind(v, &kind) == TW_ERR_INVALID_ARGUMENT);
  CHECK_MESSAGE(tw_vocabulary_last_error(v), "kind_id_zero");
  kind.id = 2;
  kind.name = "dot";
  CHECK(tw_vocabulary_add_kind(v, &kind) == TW_ERR_INVALID_ARGUMENT);
  CHECK_MESSAGE(tw_vocabulary_last_error(v), "name_taken");
  kind.name = "a-name-of-thirty-three-bytes-long";
  CHECK(tw_vocabulary_add_kind(v, &kind) == TW_ERR_INVALID_ARGUMENT);
  CHECK_MESSAGE(tw_vocabulary_last_error(v), "name_invalid");
  kind.name = "coarse";
  kind.rotation_bits = 16;
  CHECK(tw_vocabulary_add_kind(v, &kind) == TW_ERR_INVALID_ARGUMENT);
  CHECK_MESSAGE(tw_vocabulary_last_error(v), "rotation_bits_out_of_range");
  kind.rotation_bits = 9;
  kind.position_quantum_m = NAN;
  CHECK(tw_vocabulary_add_kind(v, &kind) == TW_ERR_INVALID_ARGUMENT);
  CHECK_MESSAGE(tw_vocabulary_last_error(v), "position_quantum_invalid");
  CHECK(tw_vocabulary_add_entity_flag(v, 8, "ninth", false) == TW_ERR_INVALID_ARGUMENT);
  CHECK_MESSAGE(tw_vocabulary_last_error(v), "bit_out_of_range");
  CHECK(tw_vocabulary_add_button(v, 0, "jump", false) == TW_ERR_INVALID_ARGUMENT);
  CHECK_MESSAGE(tw_vocabulary_last_error(v), "bit_taken");
  CHECK(tw_vocabulary_add_entity_flag(v, 1, NULL, false) == TW_ERR_INVALID_ARGUMENT);
  CHECK(tw_vocabulary_add_component(v, 1, "light", 5) == TW_ERR_INVALID_ARGUMENT);
  CHECK_MESSAGE(tw_vocabulary_last_error(v), "channels_out_of_range");
  for (int i = 0; i < TW_MAX_PAWN_VALUES; ++i) {
    char name[8];
    snprintf(name, sizeof name, "v%d", i);
    CHECK(tw_vocabulary_add_pawn_value(v, name) == TW_OK);
  }
  CHECK(tw_vocabulary_add_pawn_value(v, "one-too-many") == TW_ERR_INVALID_ARGUMENT);
  CHECK_MESSAGE(tw_vocabulary_last_error(v), "pawn_values_full");
  CHECK(tw_vocabulary_add_button(v, 1, "crouch", true) == TW_OK);
  CHECK(strcmp(tw_vocabulary_last_error(v), "") == 0);
  CHECK(tw_vocabulary_add_kind(NULL, &kind) == TW_ERR_INVALID_ARGUMENT);
  tw_vocabulary_destroy(v);
}

/* ---- a game whose records include three a C caller could get wrong ---- */
typedef struct game {
  uint64_t pawns[4];
  tw_vec3 at[4];
} game;

static int slot_of(game* g, uint64_t pawn) {
  for (int i = 0; i < 4; ++i) {
    if (g->pawns[i] == pawn) return i;
  }
  return -1;
}

static void spawn_pawn(void* user, uint64_t pawn, uint16_t owner, int64_t tick) {
  game* g = user;
  const int i = slot_of(g, 0);
  (void)tick;
  if (i < 0) return;
  g->pawns[i] = pawn;
  g->at[i].x = (float)owner;
  g->at[i].y = 0;
  g->at[i].z = 0;
}

static void despawn_pawn(void* user, uint64_t pawn) {
  const int i = slot_of(user, pawn);
  if (i >= 0) ((game*)user)->pawns[i] = 0;
}

static void step_pawn(void* user, uint64_t pawn, const tw_tick_input* input, int64_t tick, double dt_s) {
  const int i = slot_of(user, pawn);
  (void)tick;
  if (i >= 0) ((game*)user)->at[i].x += input->cmd.move_x * (float)dt_s;
}

static void pawn_detail(void* user, uint64_t pawn, tw_pawn_state* out) {
  const int i = slot_of(user, pawn);
  if (i >= 0) out->position = ((game*)user)->at[i];
}

static void write_records(void* user, int64_t tick, tw_records* out) {
  game* g = user;
  tw_entity_record record;
  tw_object_record lamp;
  (void)tick;
  memset(&lamp, 0, sizeof lamp);
  lamp.id = 5000;
  lamp.object_index = LAMP_INDEX;
  lamp.section_count = 1;
  lamp.sections[0].wire_id = COMPONENT_LAMP;
  lamp.sections[0].channel_count = 1;
  lamp.sections[0].channels[0] = 0.5f;
  lamp.sections[0].bits = 1;
  CHECK(tw_records_add_object(out, &lamp) == TW_OK);
  for (int i = 0; i < 4; ++i) {
    if (g->pawns[i] == 0) continue;
    memset(&record, 0, sizeof record);
    record.id = tw_pawn_record_id(g->pawns[i]);
    record.kind = KIND_DOT;
    record.position_m = g->at[i];
    CHECK(tw_records_add_entity(out, &record, NULL) == TW_OK);
    CHECK(tw_records_add_entity(out, &record, NULL) == TW_ERR_INVALID_ARGUMENT); /* the same id again */
  }
  memset(&record, 0, sizeof record);
  record.id = 1000;
  record.kind = KIND_UNREGISTERED;
  CHECK(tw_records_add_entity(out, &record, NULL) == TW_ERR_INVALID_ARGUMENT);
  record.kind = KIND_DOT;
  record.position_m.x = NAN;
  CHECK(tw_records_add_entity(out, &record, NULL) == TW_ERR_INVALID_ARGUMENT);
}

static tw_simulation simulation_of(game* g) {
  tw_simulation s;
  memset(&s, 0, sizeof s);
  s.user = g;
  s.spawn_pawn = spawn_pawn;
  s.despawn_pawn = despawn_pawn;
  s.step_pawn = step_pawn;
  s.pawn_detail = pawn_detail;
  s.write_records = write_records;
  return s;
}

static void key(uint8_t out[TW_KEY_BYTES]) {
  for (int i = 0; i < TW_KEY_BYTES; ++i) out[i] = (uint8_t)(3 * i + 1);
}

static void server_config(tw_server_config* config, const tw_vocabulary* v) {
  tw_server_config_init(config);
  config->bind = "127.0.0.1:0";
  key(config->private_key);
  config->max_clients = 4;
  config->vocabulary = v;
  config->room_id = "c-api-test";
  config->game = "dots";
  config->deployment = "local";
  config->content_version = "1";
  config->environment = "test";
}

static void test_server_refusals(tw_vocabulary* v) {
  game g;
  tw_server_config config;
  tw_simulation simulation;
  tw_server* server = NULL;
  tw_error error;
  memset(&g, 0, sizeof g);
  server_config(&config, v);
  CHECK(tw_server_open(&config, NULL, &server, &error) == TW_ERR_INVALID_ARGUMENT);
  CHECK(server == NULL);
  simulation = simulation_of(&g);
  simulation.step_pawn = NULL;
  CHECK(tw_server_open(&config, &simulation, &server, &error) == TW_ERR_INVALID_ARGUMENT);
  CHECK_MESSAGE(error.message, "step_pawn is required");
  simulation = simulation_of(&g);
  config.forgiveness = 2.0;
  CHECK(tw_server_open(&config, &simulation, &server, &error) == TW_ERR_REFUSED);
  CHECK_MESSAGE(error.message, "forgiveness");
  config.forgiveness = 1.0;
  config.bind = "not an address";
  CHECK(tw_server_open(&config, &simulation, &server, &error) == TW_ERR_REFUSED);
  CHECK_MESSAGE(error.message, "bind");
  CHECK(server == NULL);
  CHECK(tw_server_update(NULL, 0, NULL) == TW_ERR_INVALID_ARGUMENT);
}

static void test_client_refusals(tw_vocabulary* v) {
  tw_client_config config;
  tw_client* client = NULL;
  tw_error error;
  const uint8_t short_token[16] = {0};
  tw_client_config_init(&config);
  config.vocabulary = v;
  CHECK(tw_client_open(&config, tw_mono_now_ns(), tw_wall_now_ns(), &client, &error) == TW_ERR_INVALID_ARGUMENT);
  CHECK_MESSAGE(error.message, "neither a connect token nor a server address");
  config.connect_token = short_token;
  config.connect_token_bytes = sizeof short_token;
  CHECK(tw_client_open(&config, tw_mono_now_ns(), tw_wall_now_ns(), &client, &error) == TW_ERR_INVALID_ARGUMENT);
  CHECK_MESSAGE(error.message, "connect_token");
  CHECK(client == NULL);
  CHECK(tw_client_status(NULL, NULL) == TW_PHASE_DISCONNECTED);
}

static void walk(void* user, uint32_t sequence, tw_input* out) {
  (void)user;
  out->move_x = (sequence / 60) % 2 == 0 ? 1.0f : -1.0f;
}

static uint64_t reason_count(tw_server* server, const char* wanted) {
  tw_server_stats stats;
  if (tw_server_stats_get(server, &stats) != TW_OK) return 0;
  for (uint32_t i = 0; i < stats.reason_count; ++i) {
    const char* name = NULL;
    uint64_t count = 0;
    if (tw_server_stats_reason(server, i, &name, &count) == TW_OK && strcmp(name, wanted) == 0) return count;
  }
  return 0;
}

static void test_session(tw_vocabulary* v) {
  static game g;
  tw_server_config config;
  tw_simulation simulation = simulation_of(&g);
  tw_server* server = NULL;
  tw_client* client[2] = {NULL, NULL};
  tw_error error;
  char address[64];
  const struct timespec nap = {0, 2000000L};
  const uint8_t hello[] = {'h', 'e', 'l', 'l', 'o'};
  int sent = 0, received = 0, drew_other = 0, drew_lamp = 0;
  server_config(&config, v);
  CHECK(tw_server_open(&config, &simulation, &server, &error) == TW_OK);
  if (server == NULL) return;
  snprintf(address, sizeof address, "%s", tw_server_local_address(server));
  CHECK(strncmp(address, "127.0.0.1:", 10) == 0);
  CHECK(strlen(tw_server_contract_hash(server)) == 32);
  for (int i = 0; i < 2; ++i) {
    tw_client_config c;
    tw_client_config_init(&c);
    c.server_address = address;
    key(c.dev_private_key);
    c.client_id = (uint64_t)(tw_wall_now_ns() % 1000000) * 2 + (uint64_t)i + 1;
    c.vocabulary = v;
    CHECK(tw_client_open(&c, tw_mono_now_ns(), tw_wall_now_ns(), &client[i], &error) == TW_OK);
  }
  if (client[0] == NULL || client[1] == NULL) return;
  CHECK(tw_client_send_to(client[0], 2, RELAY_TYPE, hello, sizeof hello, true) == TW_ERR_NOT_READY);

  const int64_t start = tw_mono_now_ns();
  while (tw_mono_now_ns() - start < SESSION_SECONDS * 1000000000LL && !(received && drew_other && drew_lamp)) {
    const int64_t now = tw_mono_now_ns();
    tw_game_message message;
    tw_drawn_entity drawn[4];
    CHECK(tw_server_update(server, now, NULL) == TW_OK);
    for (int i = 0; i < 2; ++i) CHECK(tw_client_frame(client[i], now, walk, NULL) == TW_OK);
    const int playing = tw_client_status(client[0], NULL) == TW_PHASE_PLAYING && tw_client_status(client[1], NULL) == TW_PHASE_PLAYING;
    if (playing && !sent) {
      const uint16_t self = tw_client_owner(client[0]);
      const uint16_t other = tw_client_owner(client[1]);
      CHECK(tw_client_send_to(client[0], self, RELAY_TYPE, hello, sizeof hello, true) == TW_ERR_INVALID_ARGUMENT);
      CHECK_MESSAGE(tw_client_last_error(client[0]), "to_sender");
      CHECK(tw_client_send_to(client[0], other, 5, hello, sizeof hello, true) == TW_ERR_INVALID_ARGUMENT);
      CHECK_MESSAGE(tw_client_last_error(client[0]), "not_game_type");
      CHECK(tw_client_send_to(client[0], other, RELAY_TYPE, hello, sizeof hello, true) == TW_OK);
      sent = 1;
    }
    if (tw_client_receive_message(client[1], &message) == TW_OK) {
      CHECK(message.from == tw_client_owner(client[0]));
      CHECK(message.type == RELAY_TYPE);
      CHECK(message.payload_bytes == sizeof hello && memcmp(message.payload, hello, sizeof hello) == 0);
      ++received;
    }
    CHECK(tw_client_receive_message(client[0], &message) == TW_ERR_EMPTY);
    if (tw_client_remote_entities(client[0], drawn, 4) == 1) drew_other = drawn[0].kind == KIND_DOT;
    {
      tw_drawn_object lamp;
      if (tw_client_map_object(client[1], LAMP_INDEX, &lamp) == TW_OK) {
        CHECK(lamp.object_index == LAMP_INDEX && !lamp.has_pose && lamp.section_count == 1);
        CHECK(lamp.sections[0].wire_id == COMPONENT_LAMP && lamp.sections[0].bits == 1);
        CHECK(lamp.sections[0].channel_count == 1 && fabsf(lamp.sections[0].channels[0] - 0.5f) < 1e-3f);
        CHECK(tw_client_changing_objects(client[1], NULL, 0) == 0); /* it rests */
        drew_lamp = 1;
      }
      CHECK(tw_client_map_object(client[1], LAMP_INDEX + 1, &lamp) == TW_ERR_EMPTY); /* never named */
      CHECK(tw_client_map_object(client[1], LAMP_INDEX, NULL) == TW_ERR_INVALID_ARGUMENT);
    }
    thrd_sleep(&nap, NULL);
  }
  CHECK(received == 1);
  CHECK(drew_other);
  CHECK(drew_lamp);
  CHECK(reason_count(server, "c_api.record.id_repeated") > 0);
  CHECK(reason_count(server, "c_api.record.kind_unregistered") > 0);
  CHECK(reason_count(server, "c_api.record.position_not_finite") > 0);
  {
    tw_client_stats stats;
    CHECK(tw_client_stats_get(client[0], &stats) == TW_OK);
    CHECK(stats.welcomed && stats.snapshots > 0);
  }
  for (int i = 0; i < 2; ++i) {
    CHECK(tw_client_disconnect(client[i], tw_mono_now_ns()) == TW_OK);
    tw_client_destroy(client[i]);
  }
  CHECK(tw_server_stop(server) == TW_OK);
  tw_server_destroy(server);
}

/* Server-time mode through the C API: a room in that mode, a client at 144 Hz logic against its
 * 60 Hz ticks: it plays, and sends more than two inputs per snapshot it draws. A mode the enum lacks,
 * or a deterministic one (not a server's), is refused by name. */
static void test_server_time(tw_vocabulary* v) {
  static game g;
  tw_server_config config;
  tw_simulation simulation = simulation_of(&g);
  tw_server* server = NULL;
  tw_client* client = NULL;
  tw_error error;
  tw_client_config c;
  tw_client_stats stats;
  char address[64];
  const struct timespec nap = {0, 1000000L};
  server_config(&config, v);
  CHECK(config.mode == TW_MODE_SNAPSHOT);
  config.mode = (tw_runtime_mode)7;
  CHECK(tw_server_open(&config, &simulation, &server, &error) == TW_ERR_REFUSED);
  CHECK_MESSAGE(error.message, "mode");
  config.mode = (tw_runtime_mode)2;
  CHECK(tw_server_open(&config, &simulation, &server, &error) == TW_ERR_REFUSED);
  CHECK_MESSAGE(error.message, "mode.mode");
  config.mode = TW_MODE_SERVER_TIME;
  CHECK(tw_server_open(&config, &simulation, &server, &error) == TW_OK);
  if (server == NULL) return;
  snprintf(address, sizeof address, "%s", tw_server_local_address(server));
  tw_client_config_init(&c);
  CHECK(c.logic_hz == 0);
  c.server_address = address;
  key(c.dev_private_key);
  c.client_id = (uint64_t)(tw_wall_now_ns() % 1000000) * 2 + 7;
  c.vocabulary = v;
  c.logic_hz = 144;
  CHECK(tw_client_open(&c, tw_mono_now_ns(), tw_wall_now_ns(), &client, &error) == TW_OK);
  if (client == NULL) return;
  const int64_t start = tw_mono_now_ns();
  memset(&stats, 0, sizeof stats);
  while (tw_mono_now_ns() - start < SESSION_SECONDS * 1000000000LL && stats.snapshots < 60) {
    const int64_t now = tw_mono_now_ns();
    CHECK(tw_server_update(server, now, NULL) == TW_OK);
    CHECK(tw_client_frame(client, now, walk, NULL) == TW_OK);
    CHECK(tw_client_stats_get(client, &stats) == TW_OK);
    thrd_sleep(&nap, NULL);
  }
  CHECK(stats.welcomed && stats.snapshots >= 60);
  CHECK(stats.inputs_sent > 2 * stats.snapshots);
  CHECK(tw_client_disconnect(client, tw_mono_now_ns()) == TW_OK);
  tw_client_destroy(client);
  CHECK(tw_server_stop(server) == TW_OK);
  tw_server_destroy(server);
}

int main(void) {
  tw_vocabulary* v = dots_vocabulary();
  CHECK(strcmp(tw_result_name(TW_OK), "ok") == 0);
  CHECK(strcmp(tw_result_name(TW_ERR_REFUSED), "refused") == 0);
  CHECK(tw_mono_now_ns() > 0 && tw_wall_now_ns() > 0);
  test_vocabulary_refusals();
  test_server_refusals(v);
  test_client_refusals(v);
  test_session(v);
  test_server_time(v);
  tw_vocabulary_destroy(v);
  if (failures != 0) {
    fprintf(stderr, "c_api_test: %d checks failed\n", failures);
    return 1;
  }
  printf("c_api_test: every check passed\n");
  return 0;
}

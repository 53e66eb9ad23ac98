// The C API's server: a tickwire::Server behind an opaque handle, opened from a plain config and a
// struct of C callbacks, run by the C game's loop, read through plain figures and an indexed
// reason list. Every entry point catches whatever the library throws and answers with a code.
#include <memory>
#include <string>
#include <vector>

#include "c_boundary.h"
#include "c_reasons.h"
#include "c_records.h"
#include "c_simulation.h"
#include "c_vocabulary.h"
#include "reason_list.h"
#include "tickwire/server.h"
#include "tickwire/server/room.h"

using tickwire::capi::ErrorText;
using tickwire::capi::fail;
using tickwire::capi::guarded;

struct tw_server {
  explicit tw_server(const tickwire::GameVocabulary& v, const tw_simulation& callbacks)
      : vocabulary(v), sink(vocabulary, refusals, error), simulation(callbacks, sink) {}

  ErrorText error;
  tickwire::GameVocabulary vocabulary;  // the room's, for checking records
  tickwire::capi::RecordRefusals refusals;
  tickwire::capi::RecordSink sink;
  tickwire::capi::CSimulation simulation;
  std::string local_address;
  std::string contract_hash;
  std::vector<tickwire::ReasonCount> reasons;  // the last tw_server_stats_get's
  std::unique_ptr<tickwire::Server> server;     // last: stopped before the simulation goes
};

namespace {

static_assert(TW_PAWN_BODY_NONE == static_cast<int>(tickwire::PawnBody::none) &&
              TW_PAWN_BODY_KINEMATIC_CONTROLLER == static_cast<int>(tickwire::PawnBody::kinematic_controller) &&
              TW_PAWN_BODY_DYNAMIC_RIGIDBODY == static_cast<int>(tickwire::PawnBody::dynamic_rigidbody));
static_assert(TW_MOVEMENT_SERVER_AUTHORITATIVE == static_cast<int>(tickwire::MovementAuthority::server_authoritative) &&
              TW_MOVEMENT_CLIENT_PREDICTED == static_cast<int>(tickwire::MovementAuthority::client_predicted));

std::string text_or_empty(const char* s) { return s != nullptr ? std::string(s) : std::string(); }

tickwire::ServerConfig to_engine(const tw_server_config& c) {
  tickwire::ServerConfig config;
  if (c.bind != nullptr) config.bind = c.bind;
  config.public_address = text_or_empty(c.public_address);
  std::copy(std::begin(c.private_key), std::end(c.private_key), config.private_key.begin());
  config.protocol_id = c.protocol_id;
  config.max_clients = c.max_clients;
  tickwire::RoomPolicy& policy = config.policy;
  policy.identity.room_id = text_or_empty(c.room_id);
  policy.identity.game = text_or_empty(c.game);
  policy.identity.deployment = text_or_empty(c.deployment);
  policy.identity.content_version = text_or_empty(c.content_version);
  policy.identity.environment = text_or_empty(c.environment);
  policy.cadence.tick_rate_hz = c.tick_rate_hz;
  policy.cadence.snapshot_rate_hz = c.snapshot_rate_hz;
  policy.input.forgiveness = c.forgiveness;
  policy.interest.radius_m = c.interest_radius_m;
  policy.budgets.snapshot_budget_bytes = c.snapshot_budget_bytes;
  // Cast as given: a value the enum lacks is refused by the policy's validation, by field name.
  policy.prediction.pawn_body = static_cast<tickwire::PawnBody>(c.pawn_body);
  policy.prediction.movement = static_cast<tickwire::MovementAuthority>(c.movement_authority);
  policy.mode.mode = static_cast<tickwire::RuntimeMode>(c.mode);
  if (c.vocabulary != nullptr) policy.vocabulary = c.vocabulary->vocabulary;
  return config;
}

tw_server_update_info to_c(const tickwire::ServerUpdate& update) { return {update.ticks_run, update.last_tick}; }

// Runs `body` on an open server, its error text cleared first.
template <class Body>
tw_result on_server(tw_server* server, Body&& body) {
  if (server == nullptr || server->server == nullptr) return TW_ERR_INVALID_ARGUMENT;
  server->error.clear();
  return guarded(server->error, [&] { return body(*server->server); });
}

}  // namespace

extern "C" {

void tw_server_config_init(tw_server_config* config) {
  if (config == nullptr) return;
  static const tickwire::ServerConfig defaults;  // its strings live as long as the program
  *config = tw_server_config{};
  config->bind = defaults.bind.c_str();
  config->protocol_id = defaults.protocol_id;
  config->max_clients = defaults.max_clients;
  config->tick_rate_hz = defaults.policy.cadence.tick_rate_hz;
  config->snapshot_rate_hz = defaults.policy.cadence.snapshot_rate_hz;
  config->forgiveness = defaults.policy.input.forgiveness;
  config->interest_radius_m = defaults.policy.interest.radius_m;
  config->snapshot_budget_bytes = defaults.policy.budgets.snapshot_budget_bytes;
  config->pawn_body = static_cast<tw_pawn_body>(defaults.policy.prediction.pawn_body);
  config->movement_authority = static_cast<tw_movement_authority>(defaults.policy.prediction.movement);
  config->mode = static_cast<tw_runtime_mode>(defaults.policy.mode.mode);
}

tw_result tw_server_open(const tw_server_config* config, const tw_simulation* simulation, tw_server** out, tw_error* error) {
  return tickwire::capi::open_handle(out, error, [&](ErrorText& text, std::unique_ptr<tw_server>& handle) -> tw_result {
    if (config == nullptr) return fail(text, TW_ERR_INVALID_ARGUMENT, "config: a null tw_server_config");
    if (simulation == nullptr) return fail(text, TW_ERR_INVALID_ARGUMENT, "simulation: a null tw_simulation");
    if (const char* missing = tickwire::capi::CSimulation::missing_callback(*simulation)) {
      return fail(text, TW_ERR_INVALID_ARGUMENT, missing);
    }
    const tickwire::ServerConfig engine = to_engine(*config);
    handle = std::make_unique<tw_server>(engine.policy.vocabulary, *simulation);
    tickwire::ServerOpen opened = tickwire::Server::open(engine, handle->simulation);
    if (!opened) return fail(text, TW_ERR_REFUSED, opened.error);
    handle->server = std::move(opened.server);
    return TW_OK;
  });
}

// The facade's destructor tells every client it stopped.
void tw_server_destroy(tw_server* server) { tickwire::capi::destroy_handle(server); }

const char* tw_server_last_error(const tw_server* server) { return server != nullptr ? server->error.c_str() : "null server"; }

tw_result tw_server_run_once(tw_server* server, tw_server_update_info* out) {
  return on_server(server, [&](tickwire::Server& s) {
    const tickwire::ServerUpdate update = s.run_once();
    if (out != nullptr) *out = to_c(update);
    return TW_OK;
  });
}

tw_result tw_server_update(tw_server* server, int64_t now_ns, tw_server_update_info* out) {
  return on_server(server, [&](tickwire::Server& s) {
    const tickwire::ServerUpdate update = s.update(tickwire::MonoTime::from_ns(now_ns));
    if (out != nullptr) *out = to_c(update);
    return TW_OK;
  });
}

int64_t tw_server_next_due_ns(const tw_server* server) {
  if (server == nullptr || server->server == nullptr) return 0;
  return server->server->room().next_due().ns();
}

tw_result tw_server_stop(tw_server* server) {
  return on_server(server, [&](tickwire::Server& s) {
    s.stop();
    return TW_OK;
  });
}

tw_result tw_server_set_world_settings(tw_server* server, const tw_world_settings* settings) {
  return on_server(server, [&](tickwire::Server& s) {
    if (settings == nullptr) return fail(server->error, TW_ERR_INVALID_ARGUMENT, "settings: null");
    if (!s.set_world_settings(tickwire::protocol::WorldSettings{settings->forgiveness, settings->time_scale})) {
      return fail(server->error, TW_ERR_INVALID_ARGUMENT, "world settings out of range (forgiveness 0..1, time scale 0..4)");
    }
    return TW_OK;
  });
}

tw_world_settings tw_server_world_settings(const tw_server* server) {
  if (server == nullptr || server->server == nullptr) return tw_world_settings{1.0f, 1.0f};
  const tickwire::protocol::WorldSettings& w = server->server->world_settings();
  return tw_world_settings{w.forgiveness, w.time_scale};
}

const char* tw_server_local_address(tw_server* server) {
  const tw_result result = on_server(server, [&](tickwire::Server& s) {
    server->local_address = s.local_address();
    return TW_OK;
  });
  return result == TW_OK ? server->local_address.c_str() : "";
}

const char* tw_server_contract_hash(tw_server* server) {
  const tw_result result = on_server(server, [&](tickwire::Server& s) {
    server->contract_hash = s.contract_hash_hex();
    return TW_OK;
  });
  return result == TW_OK ? server->contract_hash.c_str() : "";
}

tw_result tw_server_stats_get(tw_server* server, tw_server_stats* out) {
  return on_server(server, [&](tickwire::Server& s) {
    if (out == nullptr) return fail(server->error, TW_ERR_INVALID_ARGUMENT, "out: a null tw_server_stats");
    tickwire::ServerStats stats = s.stats();
    tickwire::append_reasons(stats.reasons, "c_api.record", server->refusals);
    server->reasons = std::move(stats.reasons);
    *out = tw_server_stats{};
    out->clients = stats.clients;
    out->sessions_admitted = stats.sessions_admitted;
    out->tick_rate_hz = stats.tick_rate_hz;
    out->ticks_executed = stats.ticks_executed;
    out->ticks_declared = stats.ticks_declared;
    out->last_tick = stats.last_tick;
    out->snapshots_sent = stats.snapshots_sent;
    out->bytes_sent = stats.bytes_sent;
    out->bytes_received = stats.bytes_received;
    out->relayed = stats.relayed;
    out->reason_count = static_cast<uint32_t>(server->reasons.size());
    return TW_OK;
  });
}

tw_result tw_server_stats_reason(const tw_server* server, uint32_t index, const char** name, uint64_t* count) {
  return server != nullptr ? tickwire::capi::reason_at(server->reasons, index, name, count) : TW_ERR_INVALID_ARGUMENT;
}

}  // extern "C"

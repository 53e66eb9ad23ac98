// The C API's client: a tickwire::Client behind an opaque handle, its PredictionModel a C
// callback, its inputs a C callback per client tick, what it draws copied into the caller's array,
// game messages held until the next call. Every entry point catches whatever the library throws.
#include <algorithm>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "c_boundary.h"
#include "c_reasons.h"
#include "c_values.h"
#include "c_vocabulary.h"
#include "tickwire/client.h"
#include "tickwire/server/relay_gate.h"

using tickwire::capi::ErrorText;
using tickwire::capi::fail;
using tickwire::capi::guarded;

namespace tickwire::capi {

// The game's step, called through its C callback (`next` starts as the state it steps from).
class CPredictionModel final : public PredictionModel {
 public:
  explicit CPredictionModel(const tw_prediction_model& model) : c_(model) {}
  PredictedState step(const PredictedState& state, const protocol::InputCmd& cmd, double dt_s) const override {
    const tw_pawn_state from = to_c(state);
    const tw_input in = to_c(cmd);
    tw_pawn_state next = from;
    c_.step(c_.user, &from, &in, dt_s, &next);
    return to_engine(next);
  }

 private:
  tw_prediction_model c_;
};

static_assert(TW_FIRST_GAME_MESSAGE_TYPE == kFirstGameMessageType);

}  // namespace tickwire::capi

struct tw_client {
  ErrorText error;
  std::optional<tickwire::capi::CPredictionModel> model;
  std::string reason;                          // the last tw_client_status's
  std::optional<tickwire::GameMessage> message;  // the last tw_client_receive_message's
  std::vector<tickwire::ReasonCount> reasons;  // the last tw_client_stats_get's
  std::unique_ptr<tickwire::Client> client;    // last: gone before the model it predicts with
};

namespace {

tw_client_phase to_c(tickwire::ClientPhase phase) {
  switch (phase) {
    case tickwire::ClientPhase::connecting: return TW_PHASE_CONNECTING;
    case tickwire::ClientPhase::playing: return TW_PHASE_PLAYING;
    case tickwire::ClientPhase::refused: return TW_PHASE_REFUSED;
    case tickwire::ClientPhase::disconnected: break;
  }
  return TW_PHASE_DISCONNECTED;
}

tw_drawn_entity to_c(const tickwire::DrawnEntity& d) {
  tw_drawn_entity out{};
  out.entity_id = d.entity_id;
  out.kind = d.kind;
  out.position_m = tickwire::capi::to_c(d.position_m);
  out.yaw_deg = d.yaw_deg;
  out.pitch_deg = d.pitch_deg;
  out.flags = d.flags;
  out.channel_count = static_cast<uint8_t>(std::min<std::size_t>(d.channel_count, TW_MAX_KIND_CHANNELS));
  std::copy_n(d.channels, out.channel_count, out.channels);
  out.bits = d.bits;
  out.extrapolated = d.extrapolated;
  return out;
}

tw_drawn_object to_c(const tickwire::ObjectSample& o) {
  tw_drawn_object out{};
  out.object_index = o.object_index;
  out.flags = o.flags;
  if (o.pose) {
    out.has_pose = true;
    out.position_m = tickwire::capi::to_c(o.pose->position);
    if (o.pose->rotation) {
      out.has_rotation = true;
      const tickwire::wire::Quat& q = *o.pose->rotation;
      out.rotation[0] = q.x, out.rotation[1] = q.y, out.rotation[2] = q.z, out.rotation[3] = q.w;
    }
    if (o.pose->scale) {
      out.has_scale = true;
      out.scale = tickwire::capi::to_c(*o.pose->scale);
    }
  }
  out.section_count = static_cast<uint8_t>(std::min<std::size_t>(o.section_count, TW_MAX_COMPONENT_SECTIONS));
  for (uint8_t k = 0; k < out.section_count; ++k) {
    const tickwire::SectionSample& in = o.sections[k];
    tw_component_section& section = out.sections[k];
    section.wire_id = in.wire_id;
    section.channel_count = static_cast<uint8_t>(std::min<std::size_t>(in.channel_count, TW_MAX_KIND_CHANNELS));
    std::copy_n(in.channels.begin(), section.channel_count, section.channels);
    section.bits = in.bits;
  }
  return out;
}

// The engine's config from the C one, or the refusal's text.
const char* to_engine(const tw_client_config& c, tickwire::ClientConfig& config) {
  if (c.connect_token != nullptr) {
    if (c.connect_token_bytes != TW_CONNECT_TOKEN_BYTES) return "connect_token: a token is TW_CONNECT_TOKEN_BYTES bytes";
    config.connect_token.assign(c.connect_token, c.connect_token + c.connect_token_bytes);
  } else if (c.server_address == nullptr) {
    return "config: neither a connect token nor a server address";
  }
  if (c.server_address != nullptr) config.server_address = c.server_address;
  std::copy(std::begin(c.dev_private_key), std::end(c.dev_private_key), config.dev_private_key.begin());
  config.client_id = c.client_id;
  config.protocol_id = c.protocol_id;
  config.token_expire_seconds = c.token_expire_seconds;
  config.logic_hz = c.logic_hz;
  if (c.vocabulary != nullptr) config.vocabulary = c.vocabulary->vocabulary;
  return nullptr;
}

// Runs `body` on an open client, its error text cleared first.
template <class Body>
tw_result on_client(tw_client* client, Body&& body) {
  if (client == nullptr || client->client == nullptr) return TW_ERR_INVALID_ARGUMENT;
  client->error.clear();
  return guarded(client->error, [&] { return body(*client->client); });
}

// Keeps the reasons of `stats` on the handle for tw_client_stats_reason.
void fill(tw_client& handle, tickwire::ClientStats& stats, tw_client_stats& out) {
  handle.reasons = std::move(stats.reasons);
  out = tw_client_stats{};
  out.welcomed = stats.welcomed;
  out.frames = stats.frames;
  out.inputs_sent = stats.inputs_sent;
  out.snapshots = stats.snapshots;
  out.snapshot_bytes = stats.snapshot_bytes;
  out.rtt_ms = stats.rtt_ms;
  out.bytes_sent = stats.bytes_sent;
  out.bytes_received = stats.bytes_received;
  out.corrections = stats.corrections;
  out.prediction_snaps = stats.prediction_snaps;
  out.held_frames = stats.held_frames;
  out.render_snaps = stats.render_snaps;
  out.messages_received = stats.game_messages_received;
  out.reason_count = static_cast<uint32_t>(handle.reasons.size());
}

}  // namespace

extern "C" {

void tw_client_config_init(tw_client_config* config) {
  if (config == nullptr) return;
  const tickwire::ClientConfig defaults;
  *config = tw_client_config{};
  config->client_id = defaults.client_id;
  config->protocol_id = defaults.protocol_id;
  config->token_expire_seconds = defaults.token_expire_seconds;
}

tw_result tw_client_open(const tw_client_config* config, int64_t now_ns, int64_t wall_now_ns, tw_client** out,
                         tw_error* error) {
  return tickwire::capi::open_handle(out, error, [&](ErrorText& text, std::unique_ptr<tw_client>& handle) -> tw_result {
    if (config == nullptr) return fail(text, TW_ERR_INVALID_ARGUMENT, "config: a null tw_client_config");
    tickwire::ClientConfig engine;
    if (const char* refusal = to_engine(*config, engine)) return fail(text, TW_ERR_INVALID_ARGUMENT, refusal);
    handle = std::make_unique<tw_client>();
    if (config->model.step != nullptr) engine.model = &handle->model.emplace(config->model);
    tickwire::ClientOpen opened = tickwire::Client::open(engine, tickwire::MonoTime::from_ns(now_ns),
                                                         tickwire::WallTime::from_ns(wall_now_ns));
    if (!opened) return fail(text, TW_ERR_REFUSED, opened.error);
    handle->client = std::move(opened.client);
    return TW_OK;
  });
}

void tw_client_destroy(tw_client* client) { tickwire::capi::destroy_handle(client); }

const char* tw_client_last_error(const tw_client* client) { return client != nullptr ? client->error.c_str() : "null client"; }

tw_result tw_client_frame(tw_client* client, int64_t now_ns, tw_input_fn input, void* user) {
  return on_client(client, [&](tickwire::Client& c) {
    c.frame(tickwire::MonoTime::from_ns(now_ns), [input, user](uint32_t sequence) {
      tw_input in{};
      if (input != nullptr) input(user, sequence, &in);
      return tickwire::capi::to_engine(in);
    });
    return TW_OK;
  });
}

tw_result tw_client_disconnect(tw_client* client, int64_t now_ns) {
  return on_client(client, [&](tickwire::Client& c) {
    c.disconnect(tickwire::MonoTime::from_ns(now_ns));
    return TW_OK;
  });
}

tw_client_phase tw_client_status(tw_client* client, const char** reason) {
  tickwire::ClientPhase phase = tickwire::ClientPhase::disconnected;
  const tw_result result = on_client(client, [&](tickwire::Client& c) {
    tickwire::ClientStatus status = c.status();
    phase = status.phase;
    client->reason = std::move(status.reason);
    return TW_OK;
  });
  if (reason != nullptr) *reason = result == TW_OK ? client->reason.c_str() : "no client";
  return to_c(phase);
}

uint16_t tw_client_owner(const tw_client* client) {
  return client != nullptr && client->client != nullptr ? client->client->owner() : 0;
}

tw_vec3 tw_client_own_position(const tw_client* client) {
  if (client == nullptr || client->client == nullptr) return tw_vec3{0, 0, 0};
  return tickwire::capi::to_c(client->client->own_position());
}

tw_world_settings tw_client_world_settings(const tw_client* client) {
  if (client == nullptr || client->client == nullptr) return tw_world_settings{1.0f, 1.0f};
  const tickwire::protocol::WorldSettings w = client->client->world_settings();
  return tw_world_settings{w.forgiveness, w.time_scale};
}

float tw_client_own_value(const tw_client* client, size_t index) {
  if (client == nullptr || client->client == nullptr) return 0.0f;
  return client->client->own_value(index);
}

size_t tw_client_remote_entities(const tw_client* client, tw_drawn_entity* out, size_t capacity) {
  if (client == nullptr || client->client == nullptr) return 0;
  const std::vector<tickwire::DrawnEntity>& drawn = client->client->remote_entities();
  if (out != nullptr) {
    const std::size_t n = std::min(capacity, drawn.size());
    for (std::size_t i = 0; i < n; ++i) out[i] = to_c(drawn[i]);
  }
  return drawn.size();
}

tw_result tw_client_map_object(tw_client* client, uint32_t object_index, tw_drawn_object* out) {
  return on_client(client, [&](tickwire::Client& c) -> tw_result {
    if (out == nullptr) return fail(client->error, TW_ERR_INVALID_ARGUMENT, "out: null");
    const std::optional<tickwire::ObjectSample> sample = c.map_object(object_index);
    if (!sample) return TW_ERR_EMPTY;
    *out = to_c(*sample);
    return TW_OK;
  });
}

size_t tw_client_changing_objects(const tw_client* client, uint32_t* out, size_t capacity) {
  if (client == nullptr || client->client == nullptr) return 0;
  const std::span<const uint32_t> changing = client->client->changing_objects();
  if (out != nullptr) std::copy_n(changing.begin(), std::min(capacity, changing.size()), out);
  return changing.size();
}

tw_result tw_client_send_to(tw_client* client, uint16_t target, uint16_t type, const uint8_t* payload, size_t payload_bytes,
                            bool reliable) {
  return on_client(client, [&](tickwire::Client& c) -> tw_result {
    if (payload == nullptr && payload_bytes != 0) return fail(client->error, TW_ERR_INVALID_ARGUMENT, "payload: null with a size");
    if (type < TW_FIRST_GAME_MESSAGE_TYPE) return fail(client->error, TW_ERR_INVALID_ARGUMENT, "not_game_type: types below 256 are the engine's");
    if (target == 0) return fail(client->error, TW_ERR_INVALID_ARGUMENT, "target_authority: relay addresses a client (1..255)");
    if (c.status().phase != tickwire::ClientPhase::playing) return fail(client->error, TW_ERR_NOT_READY, "not_playing: not welcomed yet");
    if (target == c.owner()) return fail(client->error, TW_ERR_INVALID_ARGUMENT, "to_sender: a client does not address itself");
    if (!c.send_to(target, type, std::span<const uint8_t>(payload, payload_bytes), reliable)) {
      return fail(client->error, TW_ERR_NOT_READY, "send_refused: the channel is full or the message too large");
    }
    return TW_OK;
  });
}

tw_result tw_client_receive_message(tw_client* client, tw_game_message* out) {
  return on_client(client, [&](tickwire::Client& c) -> tw_result {
    if (out == nullptr) return fail(client->error, TW_ERR_INVALID_ARGUMENT, "out: a null tw_game_message");
    client->message = c.receive_message();
    if (!client->message) return TW_ERR_EMPTY;
    *out = tw_game_message{client->message->from, client->message->type, client->message->payload.data(),
                           client->message->payload.size()};
    return TW_OK;
  });
}

tw_result tw_client_stats_get(tw_client* client, tw_client_stats* out) {
  return on_client(client, [&](tickwire::Client& c) -> tw_result {
    if (out == nullptr) return fail(client->error, TW_ERR_INVALID_ARGUMENT, "out: a null tw_client_stats");
    tickwire::ClientStats stats = c.stats();
    fill(*client, stats, *out);
    return TW_OK;
  });
}

tw_result tw_client_stats_reason(const tw_client* client, uint32_t index, const char** name, uint64_t* count) {
  return client != nullptr ? tickwire::capi::reason_at(client->reasons, index, name, count) : TW_ERR_INVALID_ARGUMENT;
}

}  // extern "C"

// The Client facade: the assembly a player's client needs (socket, netcode, reliability, schema
// cache, game client), its connect token, what it draws each frame, relay, and its figures.
#include "tickwire/client.h"

#include <cmath>

#include "dev_token.h"
#include "reason_list.h"
#include "token_socket.h"
#include "tickwire/client/game_client.h"
#include "tickwire/protocol/wire_messages.h"
#include "tickwire/transport/connect_token.h"
#include "tickwire/transport/udp_socket.h"

namespace tickwire {

struct Client::Parts {
  ClientConfig config;
  std::unique_ptr<DatagramSocket> own_socket;
  DatagramSocket* socket = nullptr;
  std::unique_ptr<NetcodeClient> netcode;
  std::unique_ptr<ReliableClient> reliable;
  std::unique_ptr<SchemaCache> schemas;
  std::unique_ptr<GameClient> game;
  bool disconnected = false;
};

namespace {

// The token the config gives, or one minted with the development key.
std::optional<std::string> token_bytes(const ClientConfig& config, WallTime wall_now, std::vector<uint8_t>& out) {
  if (!config.connect_token.empty()) {
    out = config.connect_token;
    return std::nullopt;
  }
  const auto server = Address::parse(config.server_address);
  if (!server || server->port() == 0) return "server address: not a numeric HOST:PORT: " + config.server_address;
  DevTokenTerms terms;
  terms.protocol_id = config.protocol_id;
  terms.client_id = config.client_id;
  terms.expire_seconds = config.token_expire_seconds;
  terms.user_data = config.dev_user_data;
  auto minted = mint_dev_token(terms, *server, config.dev_private_key, wall_now);
  if (!minted) return std::string("minting a development token failed");
  out = std::move(*minted);
  return std::nullopt;
}

// A socket for the token (the development address, if given, decides its family and scope).
std::optional<std::string> open_socket(Client::Parts& p, std::span<const uint8_t> token) {
  if (p.config.socket != nullptr) {
    p.socket = p.config.socket;
    return std::nullopt;
  }
  std::optional<Address> first;
  if (!p.config.server_address.empty()) first = Address::parse(p.config.server_address);
  if (auto error = open_token_socket(token, first, p.own_socket)) return error;
  p.socket = p.own_socket.get();
  return std::nullopt;
}

}  // namespace

ClientOpen Client::open(const ClientConfig& config, MonoTime now, WallTime wall_now) {
  auto p = std::make_unique<Parts>();
  p->config = config;
  std::vector<uint8_t> token;
  if (auto error = token_bytes(config, wall_now, token)) return {nullptr, *error};
  if (auto error = open_socket(*p, token)) return {nullptr, *error};
  p->netcode = std::make_unique<NetcodeClient>(*p->socket);
  p->reliable = std::make_unique<ReliableClient>(*p->netcode, session_endpoint_config());
  p->schemas = std::make_unique<SchemaCache>(protocol::protocol_messages().schema_text());
  SessionClientConfig session;
  session.build_name = config.build_name;
  session.vocabulary = config.vocabulary;
  session.logic_hz = config.logic_hz;
  p->game = std::make_unique<GameClient>(*p->reliable, *p->schemas, now, config.model, session);
  p->netcode->connect(std::span<const uint8_t>(token), now);
  return {std::unique_ptr<Client>(new Client(std::move(p))), {}};
}

Client::Client(std::unique_ptr<Parts> parts) : parts_(std::move(parts)) {}

Client::~Client() = default;

void Client::frame(MonoTime now, const InputSource& input) {
  if (parts_->disconnected) return;
  parts_->game->frame(now, input);
  draw();
}

void Client::disconnect(MonoTime now) {
  if (parts_->disconnected) return;
  parts_->disconnected = true;
  parts_->netcode->disconnect(now);
}

ClientStatus Client::status() const {
  const GameClient& game = *parts_->game;
  const ClientState netcode = parts_->netcode->state();
  if (game.session().refused()) {
    for (const ClientDrop drop : {ClientDrop::vocabulary_mismatch, ClientDrop::contract_invalid,
                                  ClientDrop::contract_hash_mismatch}) {
      if (game.session().drops()[drop] != 0) return {ClientPhase::refused, std::string(reason_name(drop))};
    }
    const PeerSchema* peer = game.session().peer();
    if (peer != nullptr && peer->failure()) return {ClientPhase::refused, std::string(reason_name(*peer->failure()))};
    return {ClientPhase::refused, "refused"};
  }
  if (is_error_state(netcode)) return {ClientPhase::disconnected, std::string(client_state_name(netcode))};
  if (parts_->disconnected || (netcode == ClientState::disconnected && parts_->reliable->connections() > 0)) {
    return {ClientPhase::disconnected, "disconnected"};
  }
  if (game.session().welcomed() && parts_->reliable->connected()) return {ClientPhase::playing, {}};
  return {ClientPhase::connecting, {}};
}

OwnerId Client::owner() const {
  const auto& welcome = parts_->game->session().welcome();
  return welcome ? welcome->owner_id : OwnerId{0};
}

const NetcodeContract* Client::contract() const {
  const auto& welcome = parts_->game->session().welcome();
  return welcome ? &welcome->contract : nullptr;
}

protocol::Vec3 Client::own_position() const { return parts_->game->drawn_position(); }
float Client::own_value(std::size_t index) const { return parts_->game->drawn_value(index); }

std::optional<ObjectSample> Client::map_object(uint32_t object_index) const { return parts_->game->object(object_index); }
std::span<const uint32_t> Client::changing_objects() const { return parts_->game->objects().changing(); }

namespace {

DrawnEntity drawn_entity(const EntitySample& sample) {
  DrawnEntity d;
  d.entity_id = sample.entity.raw();
  d.kind = sample.kind;
  d.position_m = sample.position_m;
  d.yaw_deg = sample.yaw_deg;
  d.pitch_deg = sample.pitch_deg;
  d.flags = sample.flags;
  d.channel_count = sample.channel_count;
  for (std::size_t i = 0; i < sample.channel_count && i < protocol::MaxKindChannels; ++i) d.channels[i] = sample.channels[i];
  d.bits = sample.bits;
  return d;
}

}  // namespace

// Every entity the standard render time's snapshot holds, each sampled at its kind's profile, but
// the own pawn (own_position() draws it, predicted or not).
void Client::draw() {
  drawn_.clear();
  const RemoteInterpolator* interpolator = parts_->game->interpolator();
  const NetcodeContract* room = contract();
  if (interpolator == nullptr || room == nullptr) return;
  const std::vector<EntitySample>* entities = interpolator->snapshot_at_render_time();
  if (entities == nullptr) return;
  const EntityNetHandle own = EntityRef::from_raw(parts_->game->session().welcome()->pawn_ref).handle();
  for (const EntitySample& entity : *entities) {
    if (entity.entity == own) continue;
    const KindDef* kind = room->vocabulary.find_kind(entity.kind);
    const InterpSample s = interpolator->sample(entity.entity, kind != nullptr ? kind->profile : InterpProfile::standard);
    if (s.state == SampleState::absent) continue;
    DrawnEntity d = drawn_entity(s.sample);
    d.extrapolated = s.state == SampleState::extrapolated || s.state == SampleState::halted;
    drawn_.push_back(d);
  }
}

bool Client::send_to(OwnerId target, MessageType type, std::span<const uint8_t> payload, bool reliable) {
  return parts_->game->session().send_to(target, type, payload, reliable);
}

std::optional<GameMessage> Client::receive_message() {
  GameMessage message;
  if (!parts_->game->session().pop_game_message(message)) return std::nullopt;
  return message;
}

bool Client::interact(uint64_t target_ref, uint8_t action) {
  return parts_->game->session().send_interact(target_ref, action);
}

bool Client::call_construct(uint32_t construct_handle, uint16_t method, std::span<const uint8_t> payload) {
  return parts_->game->session().send_construct_call(construct_handle, method, payload);
}

std::optional<protocol::EntityEvent> Client::receive_event() {
  protocol::EntityEvent event;
  if (!parts_->game->session().pop_entity_event(event)) return std::nullopt;
  return event;
}

std::optional<uint32_t> Client::fire(const protocol::Vec3& eye, const protocol::Vec3& aim) {
  const RemoteInterpolator* interpolator = parts_->game->interpolator();
  if (interpolator == nullptr) return std::nullopt;
  return parts_->game->session().send_fire(eye, aim, interpolator->render_tick());
}

std::optional<protocol::HitEvent> Client::receive_hit() {
  protocol::HitEvent hit;
  if (!parts_->game->session().pop_hit_event(hit)) return std::nullopt;
  return hit;
}

std::optional<uint32_t> Client::edit(const protocol::SceneEdit& gesture) { return parts_->game->session().send_edit(gesture); }

std::optional<protocol::SceneEditRefused> Client::receive_edit_refusal() {
  protocol::SceneEditRefused refused;
  if (!parts_->game->session().pop_edit_refusal(refused)) return std::nullopt;
  return refused;
}

const protocol::SceneNodeState* Client::scene_state() const { return parts_->game->session().scene_state(); }

const protocol::ResumeTicket* Client::resume_ticket() const {
  const auto& ticket = parts_->game->session().resume_ticket();
  return ticket ? &*ticket : nullptr;
}

protocol::WorldSettings Client::world_settings() const { return parts_->game->session().world_settings(); }
wire::Hash16 Client::map_identity() const { return parts_->game->session().deltas().rest_table().map_identity(); }

ClientStats Client::stats() const {
  const GameClient& game = *parts_->game;
  const SessionClient& session = game.session();
  ClientStats s;
  s.welcomed = session.welcomed();
  s.frames = game.counters().frames;
  s.inputs_sent = game.counters().inputs_sent;
  s.own_pawn_predicted = game.own_pawn_predicted();
  s.predicted_ticks = game.counters().predicted_ticks;
  s.snapshots = game.counters().snapshots;
  s.snapshot_bytes = game.counters().snapshot_bytes;
  s.fragments = session.fragments_received();
  s.claims_accepted = game.counters().claims_accepted;
  s.claims_corrected = game.counters().claims_corrected;
  s.game_messages_received = session.game_messages_received();
  if (const ReliableEndpoint* endpoint = parts_->reliable->endpoint()) {
    const ConnectionStats c = endpoint->stats();
    s.rtt_ms = c.rtt_ms;
    s.bytes_sent = c.bytes_sent;
    s.bytes_received = c.bytes_received;
    s.link_failed = c.failed;
    append_reasons(s.reasons, "transport", endpoint->counters());
  }
  if (const ClockRegulator* r = game.regulator()) {
    s.clock_rate = r->rate();
    s.clock_margin_ticks = r->margin_ticks();
    s.clock_holds = r->counters().holds;
  }
  if (const Predictor* p = game.predictor()) {
    s.corrections = p->stats().corrections;
    s.correction_p99_m = p->stats().correction_m.quantile_m(0.99);
    s.correction_max_m = p->stats().correction_m.max_m();
    s.prediction_snaps = p->stats().snaps.total();
  }
  if (const RemoteInterpolator* i = game.interpolator()) {
    s.held_frames = i->counters().held_frames;
    s.render_snaps = i->counters().snaps;
  }
  append_reasons(s.reasons, "session.drop", session.drops());
  append_reasons(s.reasons, "relay.refusal", session.relay_refusals());
  append_reasons(s.reasons, "link", parts_->reliable->counters());
  const ClientState netcode = parts_->netcode->state();
  if (is_error_state(netcode)) s.reasons.push_back(ReasonCount{"netcode." + std::string(client_state_name(netcode)), 1});
  return s;
}

std::optional<OwnPawnAnswer> Client::own_pawn_answer() const {
  const GameClient& game = *parts_->game;
  const auto position = game.server_pawn_position();
  if (!position) return std::nullopt;
  OwnPawnAnswer a;
  a.tick = game.server_pawn_tick();
  a.position_m = *position;
  a.correction_m = game.last_correction_m();
  if (const Predictor* p = game.predictor()) {
    const protocol::Vec3 offset = p->offset_m();
    a.easing_m = static_cast<float>(std::sqrt(double{offset.x} * offset.x + double{offset.y} * offset.y + double{offset.z} * offset.z));
  }
  return a;
}

std::optional<uint32_t> Client::newest_remote_entities(std::vector<DrawnEntity>& out) const {
  out.clear();
  const RemoteInterpolator* interpolator = parts_->game->interpolator();
  if (interpolator == nullptr || interpolator->timeline().empty()) return std::nullopt;
  const Tick newest = interpolator->timeline().newest();
  const std::vector<EntitySample>* entities = interpolator->timeline().at(newest);
  if (entities == nullptr) return std::nullopt;
  const EntityNetHandle own = EntityRef::from_raw(parts_->game->session().welcome()->pawn_ref).handle();
  for (const EntitySample& e : *entities) {
    if (e.entity != own) out.push_back(drawn_entity(e));
  }
  return static_cast<uint32_t>(newest.value());
}

GameClient& Client::game() { return *parts_->game; }
const GameClient& Client::game() const { return *parts_->game; }

}  // namespace tickwire

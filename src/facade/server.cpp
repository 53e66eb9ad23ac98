// The Server facade: the assembly a dedicated server needs, in the one order that works (socket,
// netcode, reliability, contract, room, schema cache, room server, paced loop), and its figures.
#include "tickwire/server.h"

#include <cmath>

#include <fmt/format.h>

#include "injected_or_own.h"
#include "reason_list.h"
#include "tickwire/clock/system_clock.h"
#include "tickwire/clock/system_host_timer.h"
#include "tickwire/protocol/wire_messages.h"
#include "tickwire/server/room_loop.h"
#include "tickwire/transport/udp_socket.h"

namespace tickwire {

struct Server::Parts {
  ServerConfig config;
  std::unique_ptr<UdpSocket> own_socket;
  DatagramSocket* socket = nullptr;
  std::unique_ptr<SystemHostTimer> own_timer;
  HostTimer* timer = nullptr;
  Address public_address;
  NetcodeContract contract;
  std::unique_ptr<NetcodeServer> netcode;
  std::unique_ptr<ReliableServer> reliable;
  std::unique_ptr<SchemaCache> schemas;
  Simulation* game = nullptr;  // the game's own reasons join the stats
  std::unique_ptr<Room> room;
  std::unique_ptr<RoomServer> room_server;
  std::unique_ptr<RoomLoop> loop;
  bool stopped = false;
};

namespace {

std::string contract_refusal(const ContractIssue& issue) {
  return "room policy refused: " + std::string(issue.field) + ": " + std::string(reason_name(issue.error));
}

// A save state the room starts from, loaded before anyone connects: its sessions have no connection
// here, so each is departed (its pawn held for its player, or gone with a zero hold). The error, or
// empty (nothing to load, or loaded).
std::string start_from_save(Room& room, const std::vector<uint8_t>& state) {
  if (state.empty()) return {};
  if (const auto refused = room.load_whole(state)) return "initial state refused: " + std::string(reason_name(*refused));
  std::vector<OwnerId> owners;
  room.for_each_session([&](const RoomSession& session) { owners.push_back(session.owner); });
  for (const OwnerId owner : owners) room.depart(owner);
  return {};
}

// The socket the config names, opened, or the error.
std::string open_socket(Server::Parts& p) {
  if (p.config.socket != nullptr) {
    p.socket = p.config.socket;
    return {};
  }
  const auto bind = Address::parse(p.config.bind);
  if (!bind) return "bind: not a numeric HOST:PORT: " + p.config.bind;
  UdpOpenResult opened = UdpSocket::open(*bind);
  if (!opened) return opened.message;
  p.own_socket = std::move(opened.socket);
  p.socket = p.own_socket.get();
  return {};
}

}  // namespace

ServerOpen Server::open(const ServerConfig& config, Simulation& game) {
  auto p = std::make_unique<Parts>();
  p->config = config;
  if (config.max_clients < 1 || config.max_clients > kRoomMaxSessions)
    return {nullptr, fmt::format("max_clients must be 1..{}", kRoomMaxSessions)};
  const ContractResolution resolved = resolve_netcode_contract(config.policy);
  if (!resolved.ok()) return {nullptr, contract_refusal(resolved.issue)};
  if (resolved.contract->mode.mode == RuntimeMode::deterministic) {
    return {nullptr, "room policy refused: mode.mode: a Server runs snapshot or server-time mode (a deterministic "
                     "match runs on a DeterministicHost)"};
  }
  p->contract = *resolved.contract;
  if (std::string error = open_socket(*p); !error.empty()) return {nullptr, error};
  if (config.public_address.empty()) {
    p->public_address = p->socket->local_address();
  } else if (const auto address = Address::parse(config.public_address)) {
    p->public_address = *address;
  } else {
    return {nullptr, "public address: not a numeric HOST:PORT: " + config.public_address};
  }
  p->timer = injected_or_own<HostTimer>(config.timer, p->own_timer);
  const MonoTime start = p->timer->now();
  const TimeAnchor anchor{start, config.timer != nullptr ? config.wall_at_start : wall_now()};

  NetcodeServerConfig netcode;
  netcode.protocol_id = config.protocol_id;
  netcode.private_key = config.private_key;
  netcode.public_address = p->public_address;
  netcode.max_clients = config.max_clients;
  netcode.max_connects_per_update = config.max_joins_per_update;
  p->netcode = std::make_unique<NetcodeServer>(*p->socket, netcode);
  p->reliable = std::make_unique<ReliableServer>(*p->netcode, session_endpoint_config());
  p->schemas = std::make_unique<SchemaCache>(protocol::protocol_messages().schema_text());
  p->game = &game;
  RoomConfig room{p->contract, start};
  room.pawn_hold_ticks = static_cast<uint32_t>(std::ceil(config.pawn_hold.seconds_f() * p->contract.cadence.tick_rate_hz));
  p->room = std::make_unique<Room>(room, game);
  if (std::string error = start_from_save(*p->room, config.initial_state); !error.empty()) return {nullptr, error};
  RoomServerConfig room_server;
  room_server.build_name = config.build_name;
  p->room_server = std::make_unique<RoomServer>(*p->reliable, *p->room, *p->schemas, room_server);
  p->loop = std::make_unique<RoomLoop>(*p->timer, *p->room_server, anchor);
  p->netcode->start(start);
  return {std::unique_ptr<Server>(new Server(std::move(p))), {}};
}

Server::Server(std::unique_ptr<Parts> parts) : parts_(std::move(parts)) {}

Server::~Server() { stop(); }

MonoTime Server::wait_for_next_tick() { return parts_->loop->wait_for_next_tick(); }

ServerUpdate Server::update(MonoTime now) {
  const RoomUpdate update = parts_->loop->iterate(now);
  return ServerUpdate{update.ticks_run, parts_->room->last_tick().value()};
}

std::optional<SaveStateRefusal> Server::save_state(std::vector<uint8_t>& out) { return parts_->room->save_whole(out); }

void Server::stop() {
  if (parts_ == nullptr || parts_->stopped) return;
  parts_->stopped = true;
  parts_->netcode->stop(parts_->timer->now());  // redundant disconnect packets to every client
}

bool Server::send(OwnerId owner, MessageType type, std::span<const uint8_t> payload) {
  return parts_->room_server->send_game_message(owner, type, payload);
}

MonoTime Server::now() const { return parts_->timer->now(); }
bool Server::set_world_settings(const protocol::WorldSettings& settings) {
  if (!protocol::valid_world_settings(settings)) return false;
  parts_->room->set_world_settings(settings);
  return true;
}
const protocol::WorldSettings& Server::world_settings() const { return parts_->room->world_settings(); }

const NetcodeContract& Server::contract() const { return parts_->contract; }
std::string Server::contract_hash_hex() const { return parts_->room->contract_hash().hex(); }
std::string Server::local_address() const { return parts_->socket->local_address().to_string(); }
std::string Server::public_address() const { return parts_->public_address.to_string(); }
RoomServer& Server::room_server() { return *parts_->room_server; }
const RoomServer& Server::room_server() const { return *parts_->room_server; }
Room& Server::room() { return *parts_->room; }
const Room& Server::room() const { return *parts_->room; }
NetcodeServer& Server::netcode() { return *parts_->netcode; }
const RoomLoop& Server::loop() const { return *parts_->loop; }
const SchemaCache& Server::schemas() const { return *parts_->schemas; }

ServerStats Server::stats() const {
  const Parts& p = *parts_;
  const RoomServer& rs = *p.room_server;
  ServerStats s;
  s.clients = p.room->session_count();
  s.sessions_admitted = rs.sessions_admitted();
  s.tick_rate_hz = p.loop->pacer().measured_hz();
  s.sleep_factor = p.loop->pacer().sleep_factor();
  s.ticks_executed = p.room->clock().executed_ticks();
  s.ticks_declared = p.room->clock().declared_ticks();
  s.last_tick = p.room->last_tick().value();
  s.snapshots_sent = rs.snapshots_sent();
  s.bytes_sent = p.netcode->bytes_sent();
  s.bytes_received = p.netcode->bytes_received();
  s.relayed = rs.relay().relayed();
  s.fires = p.room->fires_accepted();
  s.hits_sent = rs.hits_sent();
  s.edits = p.room->edits_accepted();
  s.scene_states_sent = rs.scene_states_sent();
  s.resumes = rs.resumes();
  s.superseded = rs.superseded();
  s.held_pawns = p.room->held_pawns().size();
  s.holds_expired = p.room->holds_expired();
  s.world_frames = rs.replication().world_frames();
  s.frame_states_copied = rs.replication().frame_states_copied();
  append_reasons(s.reasons, "netcode.reject", p.netcode->rejects());
  append_reasons(s.reasons, "link", p.reliable->counters());
  append_reasons(s.reasons, "transport", p.reliable->transport_counters());
  append_reasons(s.reasons, "session.drop", rs.drops());
  append_reasons(s.reasons, "offence", rs.offences());
  append_reasons(s.reasons, "kick", rs.kicks());
  append_reasons(s.reasons, "disconnect", rs.session_ends());
  append_reasons(s.reasons, "resume.refusal", rs.resume_refusals());
  append_reasons(s.reasons, "session.decode", rs.decode_errors());
  append_reasons(s.reasons, "connect.refusal", rs.refusals());
  append_reasons(s.reasons, "interact.refusal", p.room->interact_refusals());
  append_reasons(s.reasons, "construct.refusal", p.room->construct_refusals());
  append_reasons(s.reasons, "fire.refusal", p.room->fire_refusals());
  append_reasons(s.reasons, "fire.rewind", p.room->fire_rewinds());
  append_reasons(s.reasons, "edit.refusal", p.room->edit_refusals());
  append_reasons(s.reasons, "contract.prediction_demoted", p.room->prediction_demotions());
  append_reasons(s.reasons, "prediction.refusal", p.room->prediction_refusals());
  append_reasons(s.reasons, "relay.refusal", rs.relay().refusals());
  append_reasons(s.reasons, "game_message.refusal", rs.game_message_refusals());
  append_reasons(s.reasons, "interest.note", rs.replication().interest().note_refusals());
  append_reasons(s.reasons, "replication.world_frames", rs.replication().world_frame_events());
  p.game->visit_game_reasons(
      [&](std::string_view name, uint64_t count) { s.reasons.push_back(ReasonCount{"game." + std::string(name), count}); });
  return s;
}

void Server::inspect_snapshots(OwnerId owner, bool on) { parts_->room_server->inspect_records(owner, on); }

std::optional<SnapshotInspection> Server::snapshot_inspection(OwnerId owner) const {
  const auto* client = parts_->room_server->replication().replication(owner);
  if (client == nullptr || client->last.tick.value() == 0) return std::nullopt;
  const SnapshotDiagnostics& d = client->last;
  SnapshotInspection s;
  s.owner = owner;
  s.tick = d.tick.value();
  s.sent = d.sent;
  s.visible = d.visible;
  s.candidates = d.candidates;
  s.selected = d.selected;
  s.skipped = d.skipped;
  s.held = d.held;
  s.shared = d.shared;
  s.header_bits = d.header_bits;
  s.entity_bits = d.entity_bits;
  s.object_bits = d.object_bits;
  s.removal_bits = d.removal_bits;
  s.skip_bits = d.skip_bits;
  s.records_sent = d.records_sent;
  s.unchanged = d.unchanged;
  s.removed = d.removed;
  s.message_bytes = d.message_bytes;
  s.fragments = d.fragments;
  s.baseline_age_ticks = d.baseline_age_ticks;
  s.predict_age_ticks = d.predict_age_ticks;
  s.budget_bytes = d.record_budget_bytes;
  s.estimated_bytes = d.estimated_record_bytes;
  if (const RecordBitsLog* log = client->record_bits.get()) {
    s.records.reserve(log->records.size());
    for (const RecordBits& r : log->records) {
      s.records.push_back({r.id, r.kind, r.object_form, r.object_index, std::string(reason_name(r.coding)), r.bits});
    }
    s.records_past_cap = log->past_cap;
  }
  return s;
}

std::vector<ClientLink> Server::clients() const {
  const Parts& p = *parts_;
  std::vector<ClientLink> out;
  for (uint32_t slot = 0; slot < p.netcode->max_clients(); ++slot) {
    if (!p.netcode->client_connected(slot)) continue;
    ClientLink link;
    link.owner = RoomServer::owner_of_slot(slot);
    link.client_id = p.netcode->client_id(slot);
    link.address = p.netcode->client_address(slot).to_string();
    link.admitted = p.room_server->admitted(slot);
    if (const ReliableEndpoint* endpoint = p.reliable->endpoint(slot)) {
      const ConnectionStats c = endpoint->stats();
      link.rtt_ms = c.rtt_ms;
      link.packet_loss = c.loss_percent / 100.0;
      link.bytes_sent = c.bytes_sent;
      link.bytes_received = c.bytes_received;
      append_reasons(link.reasons, "transport", endpoint->counters());
    }
    if (const RoomSession* session = p.room->session(link.owner)) {
      link.admitted_tick = session->admitted_at.value();
      link.pawn_record_id = session->pawn.handle().raw();
      link.has_depth = session->inputs.prepared_tick().has_value();
      link.queue_depth = session->inputs.report().queue_depth;
      const InputQueueStats& queue = session->inputs.queue().stats();
      link.fresh_ticks = queue.fresh_ticks;
      link.repeated_ticks = queue.repeated_ticks;
      link.zeroed_ticks = queue.zeroed_ticks;
      link.awaiting_ticks = queue.awaiting_ticks;
      append_reasons(link.reasons, "input.drop", session->inputs.queue().drops());
    }
    if (const auto stats = p.room_server->stats(slot)) {
      link.inputs_received = stats->inputs_received;
      if (const ReplicationClientStats* r = stats->replication) {
        link.snapshots_sent = r->snapshots_sent;
        link.fragments_sent = r->fragments_sent;
        link.snapshot_bytes = r->snapshot_bytes;
        link.delta_snapshots = r->delta_snapshots;
        link.records_deferred = r->records_deferred;
        append_reasons(link.reasons, "snapshot.hold", r->holds);
      }
    }
    out.push_back(std::move(link));
  }
  return out;
}

}  // namespace tickwire

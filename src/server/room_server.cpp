// Sessions on the wire: connect sequence, admission, routing, and the per-tick snapshots.
#include "tickwire/server/room_server.h"

#include <spdlog/spdlog.h>

#include "tickwire/core/assert.h"
#include "tickwire/protocol/input_frame.h"
#include "tickwire/protocol/interact_request.h"
#include "tickwire/protocol/ping.h"
#include "tickwire/protocol/room_welcome.h"
#include "tickwire/wire/typed_channel.h"

namespace tickwire {

namespace {

ClientReplicationConfig replication_config(const RoomServerConfig& config, const SnapshotFragmentBudget& fragments) {
  ClientReplicationConfig c;
  c.max_entities = config.interest.max_entities;
  c.fragments = fragments;
  return c;
}

}  // namespace

RoomServer::Connection::Connection(ReliableEndpoint& endpoint, OwnerId owner_id, SchemaCache& cache,
                                   const RoomServerConfig& config, const SnapshotFragmentBudget& fragments)
    : owner(owner_id),
      net(endpoint, kAuthorityOwner, owner_id),
      peer(cache, wire::Direction::client_to_server, config.build_name, config.reliable_channel),
      replication(replication_config(config, fragments)) {}

RoomServer::RoomServer(ReliableServer& transport, Room& room, SchemaCache& cache, const RoomServerConfig& config)
    : transport_(transport),
      room_(room),
      cache_(cache),
      config_(config),
      interest_(config.interest),
      builder_(interest_.world(), config_.kinds, config.builder),
      slicer_(SnapshotFragmentBudget::for_channel(session_endpoint_config().channels[config.unreliable_channel])),
      rest_(config_.kinds) {
  const uint32_t max_clients = transport_.netcode().max_clients();
  TW_ASSERT(max_clients <= kRoomMaxSessions, "a room has at most 255 client owners");
  connections_.resize(max_clients);
  to_drop_.reserve(max_clients);
  snapshot_.records.reserve(protocol::MaxRecordsPerSnapshot);
  cut_snapshot_.records.reserve(protocol::MaxRecordsPerSnapshot);
  world_states_.reserve(protocol::MaxRecordsPerSnapshot);
  world_frame_.states.reserve(protocol::MaxRecordsPerSnapshot);
  world_entities_.reserve(protocol::MaxRecordsPerSnapshot);
  body_.reserve(protocol::MaxSnapshotBytes);
  encoded_.resize(1 + protocol::MaxSnapshotBytes);
}

bool RoomServer::admitted(uint32_t slot) const { return slot < connections_.size() && connections_[slot] && connections_[slot]->admitted; }

const PeerSchema* RoomServer::peer(uint32_t slot) const {
  return slot < connections_.size() && connections_[slot] ? &connections_[slot]->peer : nullptr;
}

const SessionStats* RoomServer::stats(uint32_t slot) const {
  return slot < connections_.size() && connections_[slot] ? &connections_[slot]->stats : nullptr;
}

NetChannel* RoomServer::channel(uint32_t slot) {
  return slot < connections_.size() && connections_[slot] ? &connections_[slot]->net : nullptr;
}

ReasonCounters<PeerRefusal> RoomServer::refusals() const {
  ReasonCounters<PeerRefusal> total = closed_refusals_;
  for (const auto& c : connections_) {
    if (c) total.merge(c->peer.refusals());
  }
  return total;
}

RoomUpdate RoomServer::update(MonoTime now, WallTime wall_now) {
  now_ = now;
  transport_.receive(now, wall_now);
  take_events();
  receive_all(now);
  const RoomUpdate update = room_.update(now, *this);
  transport_.send(now);
  return update;
}

void RoomServer::take_events() {
  ReliableServerEvent event;
  while (transport_.poll_event(event)) {
    const uint32_t slot = event.netcode.client_index;
    if (slot >= connections_.size()) continue;
    if (event.netcode.type == ServerEvent::Type::client_connected) {
      ReliableEndpoint* endpoint = transport_.endpoint(slot);
      if (endpoint == nullptr) continue;  // already gone again within this update
      connections_[slot] = std::make_unique<Connection>(*endpoint, owner_of_slot(slot), cache_, config_, slicer_.budget());
      connections_[slot]->peer.start(connections_[slot]->net);
    } else if (connections_[slot]) {
      if (connections_[slot]->admitted) room_.leave(connections_[slot]->owner);
      closed_refusals_.merge(connections_[slot]->peer.refusals());
      connections_[slot].reset();
    }
  }
}

void RoomServer::receive_all(MonoTime now) {
  to_drop_.clear();
  for (uint32_t slot = 0; slot < connections_.size(); ++slot) {
    if (!connections_[slot]) continue;
    receive_channel(slot, config_.reliable_channel, true);
    receive_channel(slot, config_.unreliable_channel, false);
    if (!connections_[slot] || connections_[slot]->peer.failure()) continue;
    connections_[slot]->peer.poll(connections_[slot]->net);
    after_message(slot);
  }
  for (uint32_t slot : to_drop_) drop_client(slot, now);
}

void RoomServer::receive_channel(uint32_t slot, uint8_t channel, bool reliable) {
  Connection& c = *connections_[slot];
  while (auto message = c.net.receive(channel)) {
    if (auto ours = c.peer.receive(c.net, *message, reliable)) dispatch(c, *ours);
    after_message(slot);
    if (c.peer.failure() || !connections_[slot]) return;
  }
}

void RoomServer::after_message(uint32_t slot) {
  Connection& c = *connections_[slot];
  if (c.peer.failure()) {
    to_drop_.push_back(slot);
    return;
  }
  if (!c.peer.ready() || c.admitted) return;
  admit(slot);
  if (!c.admitted) return;
  while (auto held = c.peer.next_held()) dispatch(c, *held);
}

void RoomServer::admit(uint32_t slot) {
  Connection& c = *connections_[slot];
  auto pawn = room_.admit(c.owner);
  if (!pawn) {
    drops_.add(SessionDrop::admit_refused);
    to_drop_.push_back(slot);
    return;
  }
  c.admitted = true;
  c.takes_deltas = c.peer.peer_lists(protocol::SnapshotDelta::message_name);
  c.takes_rest = c.takes_deltas && c.peer.peer_lists(protocol::RestTableChunk::message_name);
  ++sessions_admitted_;
  protocol::RoomWelcome welcome;
  welcome.owner_id = c.owner;
  welcome.pawn_ref = pawn->raw();
  welcome.server_tick = room_.last_tick().wire_u32();
  welcome.contract_hash.bytes = room_.contract_hash().bytes();
  welcome.contract = room_.contract();
  (void)wire::send_message(c.net, config_.reliable_channel, welcome);
}

void RoomServer::dispatch(Connection& c, const PeerMessage& message) {
  if (!c.admitted) {
    drops_.add(SessionDrop::unexpected);
    return;
  }
  switch (message.id) {
    case protocol::InputFrame::wire_id: {
      protocol::InputFrame frame;
      if (!wire::decode_counted(message.body, frame, decode_errors_).ok()) break;
      c.stats.inputs_received += frame.inputs.size();
      if (frame.held) {
        (void)c.replication.history.on_held(*frame.held);
        c.rest_held = frame.held->rest_revision;
      }
      (void)room_.receive_input(c.owner, frame);
      return;
    }
    case protocol::InteractRequest::wire_id: {
      protocol::InteractRequest request;
      if (!wire::decode_counted(message.body, request, decode_errors_).ok()) break;
      (void)room_.receive_interact(c.owner, request);
      return;
    }
    case protocol::Ping::wire_id: {
      protocol::Ping ping;
      if (!wire::decode_counted(message.body, ping, decode_errors_).ok() || ping.is_reply) break;
      ping.is_reply = true;
      (void)wire::send_message(c.net, config_.unreliable_channel, ping);
      return;
    }
    default:
      drops_.add(SessionDrop::unexpected);
      return;
  }
  drops_.add(SessionDrop::undecodable);
}

void RoomServer::drop_client(uint32_t slot, MonoTime now) {
  if (!connections_[slot]) return;
  if (connections_[slot]->admitted) room_.leave(connections_[slot]->owner);
  closed_refusals_.merge(connections_[slot]->peer.refusals());
  connections_[slot].reset();
  transport_.netcode().disconnect_client(slot, now);
}

void RoomServer::on_tick_completed(Tick tick) {
  if (!room_.snapshot_tick(tick)) return;
  snapshot_.tick = tick.wire_u32();
  snapshot_.contract_hash.bytes = room_.contract_hash().bytes();
  snapshot_.records.clear();
  room_.simulation().write_records(tick, snapshot_.records);
  snapshot_.record_count = static_cast<uint16_t>(snapshot_.records.size());
  refresh_rest_table();
  bool delta_tick = false;
  for (std::size_t slot = 0; slot < connections_.size(); ++slot) {
    const std::unique_ptr<Connection>& c = connections_[slot];
    if (!c || !c->admitted) continue;
    const RoomSession* session = room_.session(c->owner);
    TW_ASSERT(session != nullptr, "an admitted connection has a room session");
    const OwnerInputReport& report = session->inputs.report();
    protocol::OwnerDetail owner;
    if (report.ack_sequence) owner.ack = protocol::InputAck{*report.ack_sequence};
    owner.queue_depth = report.queue_depth;
    owner.pawn = room_.simulation().pawn_detail(session->pawn);
    owner.claim = room_.simulation().claim_outcome(session->pawn);
    snapshot_.owner = owner;
    if (c->takes_rest && rest_.taken() && c->rest_sent != rest_.revision()) send_rest_table(*c);
    if (c->takes_deltas && !delta_tick) {
      begin_delta_tick(tick);
      delta_tick = true;
    }
    if (c->takes_deltas) prefetch_next_delta_client(slot);
    if (!(c->takes_deltas ? send_delta_snapshot(*c, tick) : send_snapshot(*c, tick))) continue;
    if (c->stats.snapshots_sent == 0) c->stats.first_snapshot_tick = tick;
    c->stats.last_snapshot_tick = tick;
    ++c->stats.snapshots_sent;
    ++snapshots_sent_;
  }
}

// The next delta client's reference frames start loading while this one is served.
void RoomServer::prefetch_next_delta_client(std::size_t slot) const {
  for (std::size_t next = slot + 1; next < connections_.size(); ++next) {
    const std::unique_ptr<Connection>& c = connections_[next];
    if (c && c->admitted && c->takes_deltas) {
      builder_.prefetch(c->replication);
      return;
    }
  }
}

// Retakes the rest table when the game installed its map objects anew, or when an entity the
// table names is no longer collected (so a despawned object never lingers as a ghost).
void RoomServer::refresh_rest_table() {
  Simulation& game = room_.simulation();
  const bool reinstalled = game.map_generation() != rest_generation_;
  if (!reinstalled && !(rest_.taken() && rest_.needs_retake(std::span<const protocol::Record>(snapshot_.records)))) {
    return;
  }
  rest_generation_ = game.map_generation();
  rest_records_.clear();
  game.write_rest_records(rest_records_);
  if (!rest_records_.empty() || rest_.taken()) rest_.take(rest_records_, revisions_);
}

// The whole table on the reliable channel, ahead of the first snapshot that falls back on it.
void RoomServer::send_rest_table(Connection& c) {
  for (std::size_t i = 0; i < rest_.chunk_count(); ++i) {
    rest_.write_chunk(i, rest_chunk_);
    (void)wire::send_message(c.net, config_.reliable_channel, rest_chunk_);  // a refusal fails the endpoint
  }
  c.rest_sent = rest_.revision();
}

// A full snapshot, for a client whose build does not take deltas: the entity records within the
// interest radius of its pawn and every map object, the cut a delta client's frame starts from.
bool RoomServer::send_snapshot(Connection& c, Tick tick) {
  cut_snapshot_.tick = snapshot_.tick;
  cut_snapshot_.contract_hash = snapshot_.contract_hash;
  cut_snapshot_.owner = snapshot_.owner;
  cut_snapshot_.records.clear();
  const protocol::Vec3& centre = snapshot_.owner->pawn.position;
  const float radius_m = config_.interest.radius_m;
  for (const protocol::Record& record : snapshot_.records) {
    if (const auto* entity = std::get_if<protocol::EntityRecord>(&record.body)) {
      const float dx = entity->position.x - centre.x, dz = entity->position.z - centre.z;
      if (dx * dx + dz * dz > radius_m * radius_m) continue;
    }
    cut_snapshot_.records.push_back(record);
  }
  cut_snapshot_.record_count = static_cast<uint16_t>(cut_snapshot_.records.size());
  auto written = wire::encode_message(cut_snapshot_, std::span<uint8_t>(encoded_));
  if (!written.ok()) {
    drops_.add(SessionDrop::snapshot_over_ceiling);
    return false;
  }
  return send_encoded(c, tick, *written);
}

// The tick's frame, quantized once; the entity records filed by position and each delta client's
// pawn marked, so the builder can cut every client's frame from it.
void RoomServer::begin_delta_tick(Tick tick) {
  quantize_records(snapshot_.records, config_.kinds, world_states_);
  world_frame_.tick = tick.wire_u32();
  interest_.update(world_states_, config_.kinds, world_frame_, world_entities_);
  for (auto& c : connections_) {
    if (!c || !c->admitted || !c->takes_deltas) continue;
    const RoomSession* session = room_.session(c->owner);
    c->pawn_index = interest_.index_of(session->pawn.handle().raw());
    if (c->pawn_index != kNoEntity) interest_.mark_pawn(c->pawn_index, c->owner);
  }
  builder_.begin_tick(WorldTickFrame{tick, &world_frame_, world_entities_, &interest_.world()});
}

// The client's frame (interest, budget) coded against the newest frame it holds, else the rest
// table it holds; the frame is kept as a reference for later ticks only once the client reports
// holding it.
bool RoomServer::send_delta_snapshot(Connection& c, Tick tick) {
  const uint32_t wire_tick = tick.wire_u32();
  const protocol::Vec3& centre = snapshot_.owner->pawn.position;
  ClientView view{c.owner, c.pawn_index, centre.x, centre.z, config_.interest.radius_m, config_.snapshot_budget_bytes,
                  snapshot_.owner, nullptr};
  if (rest_.taken() && c.takes_rest) {
    if (c.rest_held == rest_.revision()) {
      view.fallback = &rest_.frame();  // coded against only when the client holds no snapshot
    } else if (c.replication.history.references(tick, builder_.config().max_baseline_age_ticks).baseline == nullptr) {
      // Nothing to code against but the rest table: wait until the client holds it (one round trip
      // after the welcome or a retake) rather than send the whole map every tick, which on a narrow
      // link never completes a fragment set, so the client never holds anything to code against.
      ++c.stats.snapshots_awaiting_rest_table;
      return false;
    }
  }
  const uint64_t lines_before = c.replication.budget_log.diagnostics_lines();
  auto built = builder_.build(view, now_, c.replication, body_);
  if (!built.ok()) {
    drops_.add(SessionDrop::snapshot_over_ceiling);
    return false;
  }
  log_diagnostics(c, tick, lines_before);
  const ClientSnapshot& snapshot = *built;
  c.stats.records_deferred += snapshot.diagnostics->skipped;
  delta_.tick = wire_tick;
  delta_.contract_tag = room_.contract_hash().tag();
  delta_.rest_revision = snapshot.on_fallback ? rest_.revision() : 0;
  delta_.baseline_age = snapshot.baseline_age;
  delta_.predict_age = snapshot.predict_age;
  delta_.body.resize(body_.size());
  for (std::size_t i = 0; i < body_.size(); ++i) delta_.body[i].value = body_[i];
  auto written = wire::encode_message(delta_, std::span<uint8_t>(encoded_));
  const bool unreferenced = snapshot.baseline_age == 0 && !snapshot.on_fallback;
  if (written.ok() && unreferenced && *written > slicer_.budget().whole_max_bytes()) {
    // A whole state past one message and nothing held to code against: on a narrow link such a
    // set may never complete while the next one crowds it, so send one per kUnreferencedEveryTicks.
    if (c.last_unreferenced_tick != 0 && wire_tick - c.last_unreferenced_tick < kUnreferencedEveryTicks) {
      ++c.stats.snapshots_unreferenced_skipped;
      c.replication.history.discard_last();
      return false;
    }
    c.last_unreferenced_tick = wire_tick;
  }
  if (!written.ok() || !send_encoded(c, tick, *written)) {
    if (!written.ok()) drops_.add(SessionDrop::snapshot_over_ceiling);
    c.replication.history.discard_last();
    return false;
  }
  if (delta_.baseline_age != 0) {
    ++c.stats.delta_snapshots;
    c.stats.baseline_age_ticks += delta_.baseline_age;
  }
  return true;
}

// When the budget log wrote its periodic line for this client, the window's detail follows it.
void RoomServer::log_diagnostics(Connection& c, Tick tick, uint64_t lines_before) {
  if (c.replication.budget_log.diagnostics_lines() == lines_before) return;
  spdlog::info("{}", format_snapshot_diagnostics(c.owner, tick, c.replication.window));
  c.replication.window.reset();
}

// Sends the encoded message (encoded_[0, bytes)) whole, or sliced into fragments keyed by tick.
bool RoomServer::send_encoded(Connection& c, Tick tick, std::size_t bytes) {
  const std::span<const uint8_t> whole(encoded_.data(), bytes);
  const SliceResult sliced = slicer_.slice(tick, whole);
  if (sliced.outcome == SliceOutcome::over_ceiling) {
    drops_.add(SessionDrop::snapshot_over_ceiling);
    return false;
  }
  if (sliced.outcome == SliceOutcome::whole) {
    if (!c.net.send(config_.unreliable_channel, whole[0], whole.subspan(1)).ok()) {
      drops_.add(SessionDrop::snapshot_unsent);
      return false;
    }
  } else {
    for (std::size_t i = 0; i < sliced.fragment_count; ++i) {
      const std::span<const uint8_t> fragment = slicer_.fragment(i);
      if (!c.net.send(config_.unreliable_channel, fragment[0], fragment.subspan(1)).ok()) {
        drops_.add(SessionDrop::snapshot_unsent);
        return false;
      }
    }
    c.stats.fragments_sent += sliced.fragment_count;
  }
  c.stats.snapshot_bytes += whole.size();
  return true;
}

}  // namespace tickwire

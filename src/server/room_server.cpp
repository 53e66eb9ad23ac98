// Sessions on the wire: connect sequence, admission, routing and relay, and each tick's messages.
#include "tickwire/server/room_server.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>
#include <string>

#include "tickwire/core/assert.h"
#include "tickwire/protocol/fire_request.h"
#include "tickwire/protocol/hit_event.h"
#include "tickwire/protocol/input_frame.h"
#include "tickwire/protocol/interact_request.h"
#include "tickwire/protocol/ping.h"
#include "tickwire/protocol/relay_refused.h"
#include "tickwire/protocol/room_welcome.h"
#include "tickwire/protocol/scene_edit.h"
#include "tickwire/server/admission_grants.h"
#include "tickwire/wire/typed_channel.h"

namespace tickwire {

namespace {

ReplicationServerConfig replication_config(const RoomServerConfig& config) {
  ReplicationServerConfig c = config.replication;
  c.fragments = SnapshotFragmentBudget::for_channel(session_endpoint_config().channels[config.unreliable_channel]);
  return c;
}

SessionEnd session_end_of(DisconnectCause cause) {
  switch (cause) {
    case DisconnectCause::timed_out: return SessionEnd::timed_out;
    case DisconnectCause::server_disconnected: return SessionEnd::server_disconnected;
    case DisconnectCause::server_stopped: return SessionEnd::server_stopped;
    case DisconnectCause::sequence_exhausted: return SessionEnd::sequence_exhausted;
    case DisconnectCause::none:
    case DisconnectCause::client_disconnected: break;
  }
  return SessionEnd::client_disconnected;
}

// Which reasons is_hostile names, as one mask made at compile time: every connection's counters
// are summed every tick, without a branch per reason.
constexpr auto kHostileMask = [] {
  std::array<uint64_t, TransportCounters::size()> mask{};
  for (std::size_t i = 0; i < mask.size(); ++i) mask[i] = is_hostile(static_cast<TransportReason>(i)) ? 1 : 0;
  return mask;
}();

// Packets of a link that only a broken or hostile peer sends (see is_hostile).
uint64_t hostile_total(const TransportCounters& counters) {
  uint64_t total = 0;
  for (std::size_t i = 0; i < kHostileMask.size(); ++i) {
    total += kHostileMask[i] * counters[static_cast<TransportReason>(i)];
  }
  return total;
}

}  // namespace

RoomServer::Connection::Connection(ReliableEndpoint& endpoint, OwnerId owner_id, SchemaCache& cache,
                                   const RoomServerConfig& config)
    : owner(owner_id),
      net(endpoint, kAuthorityOwner, owner_id),
      peer(cache, wire::Direction::client_to_server, config.build_name, config.reliable_channel) {}

RoomServer::RoomServer(ReliableServer& transport, Room& room, SchemaCache& cache, const RoomServerConfig& config)
    : transport_(transport),
      room_(room),
      cache_(cache),
      config_(config),
      replication_(room.contract(), replication_config(config)),
      relay_(room.contract().limits.relays_per_second) {
  const uint32_t max_clients = transport_.netcode().max_clients();
  TW_ASSERT(max_clients <= kRoomMaxSessions, "a room has at most kRoomMaxSessions client owners");
  connections_.resize(max_clients);
  to_drop_.reserve(max_clients);
  records_.records.reserve(protocol::MaxRecordsPerSnapshot);
}

bool RoomServer::admitted(uint32_t slot) const { return slot < connections_.size() && connections_[slot] && connections_[slot]->admitted; }

const PeerSchema* RoomServer::peer(uint32_t slot) const {
  return slot < connections_.size() && connections_[slot] ? &connections_[slot]->peer : nullptr;
}

std::optional<SessionStats> RoomServer::stats(uint32_t slot) const {
  if (slot >= connections_.size() || !connections_[slot]) return std::nullopt;
  const Connection& c = *connections_[slot];
  return SessionStats{c.inputs_received, replication_.stats(c.owner)};
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
  wall_now_ = wall_now;
  transport_.receive(now, wall_now);
  take_events();
  receive_all(now);
  const RoomUpdate update = room_.update(now, *this);
  if (gate_ != nullptr) {
    gate_->take_facts(room_, ++update_number_, room_.last_tick());
    durable_update_ = gate_->durable_through();  // what this update's sends may acknowledge
  }
  send_entity_events();
  send_hits();
  send_edit_refusals();
  send_scene_state();
  send_game_messages();
  send_tickets();
  for (const auto& c : connections_) {
    if (c && c->admitted && !c->outbox.empty()) c->outbox.flush(c->net, config_.reliable_channel);
  }
  transport_.send(now);
  return update;
}

// The game's entity events of this update (its answers to this update's interactions included),
// each to its session or to every session, reliable; what cannot go is counted by reason.
void RoomServer::send_entity_events() {
  events_.clear();
  room_.simulation().take_events(events_);
  if (gate_ != nullptr) drops_.add(SessionDrop::held_past_cap, held_events_.pass(events_, update_number_, durable_update_));
  const auto send_one = [&](Connection& c, const protocol::EntityEvent& event) {
    if (!wire::send_message(c.net, config_.reliable_channel, event).ok()) drops_.add(SessionDrop::event_unsent);
  };
  for (const GameEvent& e : events_) {
    if (e.to != kAuthorityOwner) {
      Connection* c = admitted_connection(e.to);
      if (c == nullptr) {
        drops_.add(SessionDrop::event_no_client);
      } else {
        send_one(*c, e.event);
      }
      continue;
    }
    for (const auto& c : connections_) {
      if (c && c->admitted) send_one(*c, e.event);
    }
  }
}

// The game's hit events of this update, reliable, to every session whose build knows hitEvent (an
// older build is sent none: it would refuse the message as unknown).
void RoomServer::send_hits() {
  hits_.clear();
  room_.simulation().take_hits(hits_);
  for (const protocol::HitEvent& hit : hits_) {
    for (const auto& c : connections_) {
      if (!c || !c->admitted || !c->peer.peer_lists(protocol::HitEvent::message_name)) continue;
      if (wire::send_message(c->net, config_.reliable_channel, hit).ok()) {
        ++hits_sent_;
      } else {
        drops_.add(SessionDrop::hit_unsent);
      }
    }
  }
}

// The game's own messages of this update, each into its session's outbox (or every session's),
// refused by reason (send_game_message) where it cannot go.
void RoomServer::send_game_messages() {
  game_messages_.clear();
  room_.simulation().take_messages(game_messages_);
  if (gate_ != nullptr) {
    drops_.add(SessionDrop::held_past_cap, held_messages_.pass(game_messages_, update_number_, durable_update_));
  }
  for (const GameMessageOut& m : game_messages_) {
    if (m.to != kAuthorityOwner) {
      (void)send_game_message(m.to, m.type, m.payload);
      continue;
    }
    for (const auto& c : connections_)
      if (c && c->admitted) (void)send_game_message(c->owner, m.type, m.payload);
  }
}

void RoomServer::set_admissions_open(bool open) {
  admissions_open_ = open;
  if (open) {
    transport_.netcode().set_request_filter(nullptr);
    return;
  }
  transport_.netcode().set_request_filter([](uint64_t, const netcode::UserData& user_data) {
    return !read_admission_grants(user_data).resume_token.empty();  // a resume is not a newcomer
  });
}

void RoomServer::hold_acknowledgements(DurabilityGate& gate) {
  TW_ASSERT(update_number_ == 0 && gate_ == nullptr, "a server holds for one gate, from its first update");
  gate_ = &gate;
  room_.keep_facts(true);  // the room's own facts (pawns joined and gone) and its game's
}

std::size_t RoomServer::held_acknowledgements() const {
  return held_events_.size() + held_messages_.size() + held_scene_.size() + held_tickets_.size();
}

void RoomServer::take_events() {
  ReliableServerEvent event;
  while (transport_.poll_event(event)) {
    const uint32_t slot = event.netcode.client_index;
    if (slot >= connections_.size()) continue;
    if (event.netcode.type == ServerEvent::Type::client_connected) {
      ReliableEndpoint* endpoint = transport_.endpoint(slot);
      if (endpoint == nullptr) continue;  // already gone again within this update
      connections_[slot] = std::make_unique<Connection>(*endpoint, owner_of_slot(slot), cache_, config_);
      connections_[slot]->serial = next_serial_++;
      connections_[slot]->client_id = event.netcode.client_id;
      connections_[slot]->peer.start(connections_[slot]->net);
    } else if (connections_[slot]) {
      Connection& c = *connections_[slot];
      if (!c.end) {
        c.end = event.failure ? SessionEnd::link_failed : session_end_of(event.netcode.cause);
        if (event.failure) c.end_detail = reason_name(*event.failure);
      }
      close(slot);
    }
  }
}

void RoomServer::receive_all(MonoTime now) {
  to_drop_.clear();
  for (uint32_t slot = 0; slot < connections_.size(); ++slot) {
    if (!connections_[slot] || connections_[slot]->superseded) continue;  // a superseded one is dropped below
    receive_channel(slot, config_.reliable_channel, true, now);
    receive_channel(slot, config_.unreliable_channel, false, now);
    if (!connections_[slot] || connections_[slot]->peer.failure()) continue;
    note_malformed_packets(slot);
    connections_[slot]->peer.poll(connections_[slot]->net);
    after_message(slot);
  }
  for (uint32_t slot : to_drop_) drop_client(slot, now);
}

void RoomServer::receive_channel(uint32_t slot, uint8_t channel, bool reliable, MonoTime now) {
  Connection& c = *connections_[slot];
  while (auto message = c.net.receive(channel)) {
    if (message->addressed && message->to != kAuthorityOwner) {
      relay(c, channel, *message, now);  // never decoded, never rewritten
    } else if (auto ours = c.peer.receive(c.net, *message, reliable)) {
      dispatch(c, *ours);
    }
    after_message(slot);
    if (c.peer.failure() || c.kicked || c.superseded || !connections_[slot]) return;
  }
}

// An addressed message from an admitted client to another one: forwarded on the same channel with
// its payload untouched, or refused by name (counted, and the sender told).
void RoomServer::relay(Connection& from, uint8_t channel, const NetMessage& message, MonoTime now) {
  if (!from.admitted) {
    drops_.add(SessionDrop::unexpected);
    return;
  }
  const uint32_t target_slot = static_cast<uint32_t>(message.to) - 1;
  Connection* target = admitted(target_slot) ? connections_[target_slot].get() : nullptr;
  auto refusal = relay_.admit(from.owner, message.to, message.type, target != nullptr, now);
  if (!refusal && !target->net.relay(channel, message).ok()) {
    relay_.target_full();
    refusal = protocol::RelayRefusal::target_full;
  }
  if (!refusal) return;
  if (*refusal == protocol::RelayRefusal::rate_limited || *refusal == protocol::RelayRefusal::to_sender ||
      *refusal == protocol::RelayRefusal::not_game_type)
    offend(from, Offence::relay_refused);
  protocol::RelayRefused refused;
  refused.target = message.to;
  refused.message_type = message.type;
  refused.reason = *refusal;
  (void)wire::send_message(from.net, config_.reliable_channel, refused);
}

void RoomServer::after_message(uint32_t slot) {
  Connection& c = *connections_[slot];
  if (c.superseded) return;  // dropped at the end of this pass already
  note_conduct(c);
  if (const auto failure = c.peer.failure()) {
    end_session(slot, SessionEnd::peer_failed, reason_name(*failure));
    return;
  }
  if (c.kicked) {
    end_session(slot, SessionEnd::kicked, reason_name(*c.kicked));
    return;
  }
  if (!c.peer.ready() || c.admitted) return;
  admit(slot);
  if (!c.admitted) return;
  while (auto held = c.peer.next_held()) dispatch(c, *held);
}

void RoomServer::admit(uint32_t slot) {
  Connection& c = *connections_[slot];
  // What its connect token granted (world authority), sealed in the token's user data.
  const uint32_t netcode_slot = static_cast<uint32_t>(c.owner) - 1;
  const AdmissionGrants grants = read_admission_grants(transport_.netcode().client_user_data(netcode_slot));
  if (!admissions_open_ && grants.resume_token.empty()) {  // shed by the load ladder: new players only
    drops_.add(SessionDrop::admissions_closed);
    end_session(slot, SessionEnd::admissions_closed);
    return;
  }
  // The player is who the connect token was issued to (its client id); a resumed session plays on
  // for the player its token names.
  auto pawn = seat(c, grants, fmt::format("{}", transport_.netcode().client_id(netcode_slot)));
  if (!pawn) {
    drops_.add(SessionDrop::admit_refused);
    end_session(slot, SessionEnd::admit_refused);
    return;
  }
  c.admitted = true;
  // A session's sequences advance one per client tick: the room's tick rate, or in server-time
  // mode the client's own logic rate, at most the contract's.
  const NetcodeContract& contract = room_.contract();
  const double input_rate = contract.mode.mode == RuntimeMode::server_time ? contract.mode.server_time.max_logic_hz
                                                                           : contract.cadence.tick_rate_hz;
  c.input_sequences = TokenBucket(input_rate * kInputRateSlack, input_rate * kInputBurstSeconds);
  ReplicationFormat format;
  format.deltas = c.peer.peer_lists(protocol::SnapshotDelta::message_name);
  format.rest_table = format.deltas && c.peer.peer_lists(protocol::RestTableChunk::message_name);
  replication_.add_client(c.owner, pawn->handle().raw(), format);
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
      c.inputs_received += frame.inputs.size();
      // A late frame's inputs still go to the queue, which judges each by its sequence (applied,
      // waiting or new); only its held report is stale, older than one already taken.
      const bool newest = note_input_rate(c, frame.first_sequence, frame.inputs.size());
      if (frame.held && newest) replication_.on_held(c.owner, *frame.held);
      (void)room_.receive_input(c.owner, frame);
      return;
    }
    case protocol::TimedInputFrame::wire_id: {
      if (room_.contract().mode.mode != RuntimeMode::server_time) {  // a tick-numbered room takes none
        drops_.add(SessionDrop::unexpected);
        offend(c, Offence::unexpected);
        return;
      }
      protocol::TimedInputFrame frame;
      if (!wire::decode_counted(message.body, frame, decode_errors_).ok() || !protocol::timed_input_frame_valid(frame)) break;
      c.inputs_received += frame.inputs.size();
      const bool newest = note_input_rate(c, frame.first_sequence, frame.inputs.size());
      if (frame.held && newest) replication_.on_held(c.owner, *frame.held);
      (void)room_.receive_timed_input(c.owner, frame);
      return;
    }
    case protocol::InteractRequest::wire_id: {
      protocol::InteractRequest request;
      if (!wire::decode_counted(message.body, request, decode_errors_).ok()) break;
      (void)room_.receive_interact(c.owner, request, now_);
      return;
    }
    case protocol::ConstructCall::wire_id: {
      protocol::ConstructCall call;
      if (!wire::decode_counted(message.body, call, decode_errors_).ok()) break;
      (void)room_.receive_construct_call(c.owner, call, now_);
      return;
    }
    case protocol::FireRequest::wire_id: {
      protocol::FireRequest request;
      if (!wire::decode_counted(message.body, request, decode_errors_).ok()) break;
      (void)room_.receive_fire(c.owner, request, now_);
      return;
    }
    case protocol::SceneEdit::wire_id: {
      protocol::SceneEdit gesture;
      if (!wire::decode_counted(message.body, gesture, decode_errors_).ok()) break;
      receive_edit(c, gesture);
      return;
    }
    case protocol::Ping::wire_id: {
      protocol::Ping ping;
      if (!wire::decode_counted(message.body, ping, decode_errors_).ok() || ping.is_reply) break;
      if (!room_.receive_ping(c.owner, now_)) return;  // past its rate: an offence, unanswered
      ping.is_reply = true;
      (void)wire::send_message(c.net, config_.unreliable_channel, ping);
      return;
    }
    default:
      drops_.add(SessionDrop::unexpected);
      offend(c, Offence::unexpected);
      return;
  }
  drops_.add(SessionDrop::undecodable);
  offend(c, Offence::undecodable);
}

// An input frame's new sequences (past the newest seen) spend the connection's sequence bucket;
// a frame that outruns it is one offence. Overflowing the queue is not: an honest client on a link
// that stalls overflows it (its inputs are counted by the queue, never an offence).
bool RoomServer::note_input_rate(Connection& c, uint32_t first_sequence, std::size_t count) {
  if (count == 0) return true;
  const uint32_t last = first_sequence + static_cast<uint32_t>(count - 1);
  if (c.newest_input && static_cast<int32_t>(last - *c.newest_input) <= 0) return last == *c.newest_input;
  const uint32_t fresh = c.newest_input ? last - *c.newest_input : static_cast<uint32_t>(count);
  c.newest_input = last;
  if (!c.input_sequences.take(now_, static_cast<double>(fresh))) offend(c, Offence::input_rate);
  return true;
}

void RoomServer::offend(Connection& c, Offence offence, uint64_t count) {
  (void)room_.offend(c.owner, offence, count, now_);
}

ReasonCounters<Offence> RoomServer::offences() const {
  ReasonCounters<Offence> total = closed_offences_;
  for (const auto& c : connections_) {
    if (!c || !c->admitted) continue;
    if (const RoomSession* session = room_.session(c->owner)) total.merge(session->conduct.offences());
  }
  return total;
}

// After every message: offences are counted where they are seen (the room's refusals, the relay gate,
// this dispatch), and the session's conduct says whether they have ended it. A kick is noted once.
void RoomServer::note_conduct(Connection& c) {
  const RoomSession* session = room_.session(c.owner);
  if (c.kicked || session == nullptr || !session->conduct.kick()) return;
  c.kicked = *session->conduct.kick();
  kicks_.add(*c.kicked);
  std::string counted;
  visit_nonzero(session->conduct.offences(), [&](Offence o, uint64_t n) {
    counted.append(counted.empty() ? "" : ", ").append(reason_name(o)).append(" ").append(std::to_string(n));
  });
  spdlog::warn("owner {} kicked ({}): its offences emptied the contract's bucket ({})", c.owner, reason_name(*c.kicked), counted);
}

void RoomServer::end_session(uint32_t slot, SessionEnd end, std::string_view detail) {
  Connection& c = *connections_[slot];
  if (c.end) return;  // already on its way out, for the reason found first
  c.end = end;
  c.end_detail = detail;
  to_drop_.push_back(slot);
}

void RoomServer::note_malformed_packets(uint32_t slot) {
  Connection& c = *connections_[slot];
  const ReliableEndpoint* endpoint = transport_.endpoint(slot);
  if (endpoint == nullptr) return;
  const uint64_t seen = hostile_total(endpoint->counters()) + hostile_total(c.net.counters());
  if (seen <= c.hostile_seen) return;
  if (c.admitted) offend(c, Offence::malformed_packet, seen - c.hostile_seen);
  c.hostile_seen = seen;  // (after_message, next in the pass, ends the session its offences emptied)
}

// The session is gone (it disconnected or was dropped): its pawn, its replication, its relay rate,
// and a line saying why.
void RoomServer::close(uint32_t slot) {
  Connection& c = *connections_[slot];
  const SessionEnd end = c.end.value_or(SessionEnd::client_disconnected);
  session_ends_.add(end);
  spdlog::info("owner {} (client {}) left: {}{}", c.owner, c.client_id, reason_name(end),
               c.end_detail.empty() ? std::string() : fmt::format(" ({})", c.end_detail));
  if (c.admitted) {
    if (const RoomSession* session = room_.session(c.owner)) closed_offences_.merge(session->conduct.offences());
    if (c.kicked) {
      room_.leave(c.owner);
    } else {
      room_.depart(c.owner);  // held for its player when the room holds pawns
    }
    replication_.remove_client(c.owner);
  }
  relay_.forget(c.owner);
  closed_refusals_.merge(c.peer.refusals());
  connections_[slot].reset();
}

void RoomServer::drop_client(uint32_t slot, MonoTime now) {
  if (!connections_[slot]) return;
  close(slot);
  transport_.netcode().disconnect_client(slot, now);
}

// The owning client's truth this tick: the honest ack and depth byte captured when the tick took
// its input, the pawn as simulated, the claim's outcome.
std::optional<protocol::OwnerDetail> RoomServer::owner_detail(OwnerId owner) const {
  const RoomSession* session = room_.session(owner);
  TW_ASSERT(session != nullptr, "an admitted connection has a room session");
  const OwnerInputReport& report = session->inputs.report();
  protocol::OwnerDetail detail;
  if (report.ack_sequence) detail.ack = protocol::InputAck{*report.ack_sequence};
  detail.queue_depth = report.queue_depth;
  detail.pawn = room_.simulation().pawn_detail(session->pawn);
  detail.claim = room_.simulation().claim_outcome(session->pawn);
  return detail;
}

void RoomServer::on_tick_completed(Tick tick) {
  records_.clear();
  room_.simulation().write_records(tick, records_);
  replication_.set_world_settings(room_.world_settings());  // what the tick ran under
  replication_.begin_tick(tick, records_, room_.simulation());
  for (uint32_t slot = 0; slot < connections_.size(); ++slot) {
    const std::unique_ptr<Connection>& c = connections_[slot];
    if (!c || !c->admitted) continue;
    follow_link(slot, *c);
    send(*c, replication_.build(c->owner, owner_detail(c->owner), now_));
  }
}

// A client's snapshot budget follows what its link carries this tick (the transport's estimate,
// less the share reliable data waiting takes, less the messages' own overheads), never below what
// carries an owner detail and a few records; the contract's budget stays the ceiling.
void RoomServer::follow_link(uint32_t slot, const Connection& c) {
  constexpr std::size_t kMessageOverheadBytes = 64;  // envelopes, entries and packet headers of a snapshot
  constexpr std::size_t kMinLinkBudgetBytes = 128;
  const auto allowance = transport_.send_allowance(slot, Duration::from_seconds(room_.seconds_per_tick()));
  if (!allowance || allowance->link_bytes_per_second <= 0) return;
  const std::size_t room = allowance->unreliable_bytes > kMessageOverheadBytes ? allowance->unreliable_bytes - kMessageOverheadBytes : 0;
  replication_.set_budget_cap(c.owner, static_cast<uint32_t>(std::min<std::size_t>(std::max(room, kMinLinkBudgetBytes), UINT32_MAX)));
}

RoomServer::Connection* RoomServer::admitted_connection(OwnerId owner) const {
  const uint32_t slot = static_cast<uint32_t>(owner) - 1;
  return owner != kAuthorityOwner && admitted(slot) ? connections_[slot].get() : nullptr;
}

bool RoomServer::send_game_message(OwnerId owner, MessageType type, std::span<const uint8_t> payload) {
  std::optional<GameMessageRefusal> refusal;
  Connection* c = admitted_connection(owner);
  if (type < kFirstGameMessageType) {
    refusal = GameMessageRefusal::not_game_type;
  } else if (payload.size() > kSessionMaxGameMessageBytes) {
    refusal = GameMessageRefusal::too_large;
  } else if (c == nullptr) {
    refusal = GameMessageRefusal::no_client;
  } else if (!c->outbox.push(type, payload)) {
    refusal = GameMessageRefusal::outbox_full;
  }
  if (refusal) game_message_refusals_.add(*refusal);
  return !refusal;
}

std::size_t RoomServer::outbox_bytes(OwnerId owner) const {
  const Connection* c = admitted_connection(owner);
  return c != nullptr ? c->outbox.bytes() : 0;
}

void RoomServer::send(Connection& c, const ClientMessages& messages) {
  std::size_t taken = 0;  // the rest table streams: what the send queue refuses goes next tick
  for (std::span<const uint8_t> message : messages.reliable) {
    if (!c.net.send(config_.reliable_channel, message[0], message.subspan(1)).ok()) break;
    ++taken;
  }
  replication_.reliable_taken(c.owner, taken);
  if (!messages.snapshot) return;
  for (std::span<const uint8_t> message : messages.unreliable) {
    if (!c.net.send(config_.unreliable_channel, message[0], message.subspan(1)).ok()) {
      drops_.add(SessionDrop::snapshot_unsent);
      replication_.unsent(c.owner);
      return;
    }
  }
  ++snapshots_sent_;
}

}  // namespace tickwire

// The client's session: connect sequence, welcome and contract, guarded snapshots, inputs.
#include "tickwire/client/session_client.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "tickwire/core/assert.h"
#include "tickwire/protocol/construct_call.h"
#include "tickwire/wire/typed_channel.h"

namespace tickwire {

SessionClient::SessionClient(ReliableClient& transport, SchemaCache& cache, const SessionClientConfig& config)
    : transport_(transport),
      cache_(cache),
      config_(config),
      inputs_(0, config.max_inputs_per_frame),
      delta_(ReplicaKinds::from(config.vocabulary)),
      reassembler_(SnapshotReassemblerConfig{
          SnapshotFragmentBudget::for_channel(session_endpoint_config().channels[config.unreliable_channel])}) {}

void SessionClient::on_connection() {
  // A new connection starts from nothing: no state of the previous one may leak into it.
  connection_ = transport_.connections();
  net_.emplace(*transport_.endpoint(), /*local=*/OwnerId{1}, kAuthorityOwner);
  peer_.emplace(cache_, wire::Direction::server_to_client, config_.build_name, config_.reliable_channel);
  welcome_.reset();
  guard_.reset();
  refused_ = false;
  inputs_ = InputSender(0, config_.max_inputs_per_frame);
  newest_.reset();
  queue_.clear();
  game_messages_.clear();
  entity_events_.clear();
  hit_events_.clear();
  edit_refusals_.clear();
  scene_state_.reset();
  delta_.reset();
  reassembler_ = SnapshotReassembler(reassembler_.config());
  peer_->start(*net_);
}

void SessionClient::receive(MonoTime now) {
  transport_.receive(now);
  if (!transport_.connected()) {
    net_.reset();
    peer_.reset();
    return;
  }
  if (transport_.connections() != connection_ || !net_) on_connection();
  receive_channel(config_.reliable_channel, true);
  receive_channel(config_.unreliable_channel, false);
  if (refused_) return;
  peer_->poll(*net_);
  if (peer_->ready()) {
    while (auto held = peer_->next_held()) dispatch(*held);
  }
}

void SessionClient::receive_channel(uint8_t channel, bool reliable) {
  while (auto message = net_->receive(channel)) {
    if (refused_) continue;
    if (message->type >= kFirstGameMessageType) {
      on_game_message(*message);  // the game's own (relayed or the server's): never decoded, never rewritten
      continue;
    }
    if (auto ours = peer_->receive(*net_, *message, reliable)) dispatch(*ours);
    if (peer_->failure()) {
      refused_ = true;
      continue;
    }
    if (peer_->ready()) {
      while (auto held = peer_->next_held()) dispatch(*held);
    }
  }
}

void SessionClient::dispatch(const PeerMessage& message) {
  switch (message.id) {
    case protocol::RoomWelcome::wire_id: on_welcome(message.body); return;
    case protocol::Snapshot::wire_id: on_snapshot(message.body, 1 + message.body.size()); return;
    case protocol::SnapshotDelta::wire_id: on_snapshot_delta(message.body, 1 + message.body.size()); return;
    case protocol::RestTableChunk::wire_id: on_rest_chunk(message.body); return;
    case protocol::SnapshotFragment::wire_id: on_fragment(message.body); return;
    case protocol::RelayRefused::wire_id: on_relay_refused(message.body); return;
    case protocol::ResumeTicket::wire_id: on_resume_ticket(message.body); return;
    case protocol::EntityEvent::wire_id: on_entity_event(message.body); return;
    case protocol::HitEvent::wire_id: on_hit_event(message.body); return;
    case protocol::SceneNodeState::wire_id: on_scene_state(message.body); return;
    case protocol::SceneEditRefused::wire_id:
      queue_decoded(message.body, edit_refusals_, ClientDrop::edit_refusal_overflow, edit_refusals_received_);
      return;
    default: drops_.add(ClientDrop::unexpected); return;
  }
}

void SessionClient::on_welcome(std::span<const uint8_t> body) {
  protocol::RoomWelcome welcome;
  if (!wire::decode_counted(body, welcome, decode_errors_).ok()) {
    drops_.add(ClientDrop::undecodable);
    return;
  }
  if (welcome.owner_id == kAuthorityOwner || welcome.owner_id > kMaxClientOwner) {
    drops_.add(ClientDrop::owner_id_invalid);
    refused_ = true;
    return;
  }
  if (!validate_netcode_contract(welcome.contract).ok()) {
    drops_.add(ClientDrop::contract_invalid);
    refused_ = true;
    return;
  }
  const ContractHash ours = contract_hash(welcome.contract);
  if (ours.bytes() != welcome.contract_hash.bytes) {
    drops_.add(ClientDrop::contract_hash_mismatch);
    refused_ = true;
    return;
  }
  if (!(welcome.contract.vocabulary == config_.vocabulary)) {
    drops_.add(ClientDrop::vocabulary_mismatch);
    refused_ = true;
    return;
  }
  guard_.emplace(ours);
  delta_.set_contract_hash(ours);
  net_.emplace(*transport_.endpoint(), welcome.owner_id, kAuthorityOwner);
  welcome_ = std::move(welcome);
}

void SessionClient::on_fragment(std::span<const uint8_t> body) {
  if (!wire::decode_counted(body, fragment_, decode_errors_).ok()) {
    drops_.add(ClientDrop::undecodable);
    return;
  }
  ++fragments_received_;
  const FragmentVerdict verdict = reassembler_.accept(fragment_);
  if (verdict.outcome != FragmentOutcome::completed || verdict.snapshot.empty()) return;
  // The joined bytes are a whole message of the server's build: rewrite it like any other.
  auto ours = peer_->rewrite(verdict.snapshot[0], verdict.snapshot.subspan(1));
  if (ours && ours->id == protocol::Snapshot::wire_id) return on_snapshot(ours->body, verdict.snapshot.size());
  if (ours && ours->id == protocol::SnapshotDelta::wire_id) {
    return on_snapshot_delta(ours->body, verdict.snapshot.size());
  }
  drops_.add(ClientDrop::undecodable);
}

void SessionClient::on_snapshot(std::span<const uint8_t> body, std::size_t wire_bytes) {
  if (!guard_) {
    drops_.add(ClientDrop::before_welcome);
    return;
  }
  decoded_.world = protocol::WorldSettings{};  // a snapshot ending at its tail names none: the defaults
  if (!wire::decode_counted(body, decoded_, decode_errors_).ok()) {
    drops_.add(ClientDrop::undecodable);
    return;
  }
  if (!admissible(guard_->check(std::span<const uint8_t>(decoded_.contract_hash.bytes)), decoded_.tick)) return;
  // Records of kinds the vocabulary lacks are left out, as the delta reader does.
  const ReplicaKinds& kinds = delta_.kinds();
  std::erase_if(decoded_.records, [&](const protocol::Record& record) {
    const auto* entity = std::get_if<protocol::EntityRecord>(&record.body);
    return entity != nullptr && !kinds.registered(entity->kind);
  });
  decoded_.record_count = static_cast<uint16_t>(decoded_.records.size());
  accept(wire_bytes);
}

void SessionClient::on_snapshot_delta(std::span<const uint8_t> body, std::size_t wire_bytes) {
  if (!guard_) {
    drops_.add(ClientDrop::before_welcome);
    return;
  }
  if (!wire::decode_counted(body, delta_message_, decode_errors_).ok()) {
    drops_.add(ClientDrop::undecodable);
    return;
  }
  if (!admissible(guard_->check_tag(delta_message_.contract_tag), delta_message_.tick)) return;
  if (!delta_.read(delta_message_, decoded_)) {
    drops_.add(ClientDrop::delta_unresolved);
    return;
  }
  accept(wire_bytes);
}

void SessionClient::on_rest_chunk(std::span<const uint8_t> body) {
  if (!wire::decode_counted(body, rest_chunk_, decode_errors_).ok()) {
    drops_.add(ClientDrop::undecodable);
    return;
  }
  if (!delta_.accept_rest_chunk(rest_chunk_) || !guard_) return;
  // A snapshot set aside for this table: usable now if it is still the newest.
  if (delta_.read_set_aside(decoded_) && (!newest_ || decoded_.tick > newest_->tick)) accept(0);
}

// The contract guard and the order rule every authority frame passes before it is used.
bool SessionClient::admissible(ContractVerdict verdict, uint32_t tick) {
  if (verdict != ContractVerdict::accept) {
    drops_.add(ClientDrop::frame_refused);
    return false;
  }
  if (newest_ && tick <= newest_->tick) {
    drops_.add(ClientDrop::stale_snapshot);
    return false;
  }
  return true;
}

protocol::WorldSettings SessionClient::world_settings() const {
  if (newest_) return newest_->world;
  return welcome_ ? initial_world_settings(welcome_->contract) : protocol::WorldSettings{};
}

void SessionClient::accept(std::size_t wire_bytes) {
  if (!protocol::valid_world_settings(decoded_.world)) {
    drops_.add(ClientDrop::world_malformed);
    return;
  }
  if (decoded_.owner && decoded_.owner->pawn.values.size() != config_.vocabulary.pawn_values.size()) {
    drops_.add(ClientDrop::owner_malformed);
    return;
  }
  if (decoded_.owner && decoded_.owner->ack) inputs_.ack(decoded_.owner->ack->sequence);
  if (queue_.full()) {
    (void)queue_.pop();
    drops_.add(ClientDrop::queue_overflow);
  }
  if (!newest_) newest_.emplace();
  newest_->tick = decoded_.tick;
  newest_->world = decoded_.world;
  newest_->owner = decoded_.owner;  // assigned over the last: its pawn values keep their capacity
  (void)queue_.push(Queued{std::move(decoded_), wire_bytes});
  decoded_ = std::move(spare_);  // the next snapshot decodes into a buffer the game gave back
  ++snapshots_accepted_;
}

bool SessionClient::pop_snapshot(protocol::Snapshot& out, std::size_t* wire_bytes) {
  if (queue_.empty()) return false;
  Queued queued = queue_.pop();
  std::swap(out, queued.snapshot);
  spare_ = std::move(queued.snapshot);  // what `out` held: the buffer the next snapshot decodes into
  if (wire_bytes != nullptr) *wire_bytes = queued.wire_bytes;
  return true;
}

void SessionClient::resend_inputs() {
  if (!welcome_ || refused_ || !net_) return;
  if (inputs_.build_frame(frame_)) {
    frame_.held = delta_.report();
    (void)wire::send_message(*net_, config_.unreliable_channel, frame_);
  }
}

void SessionClient::on_game_message(const NetMessage& message) {
  if (!welcome_) {
    drops_.add(ClientDrop::before_welcome);
    return;
  }
  if (game_messages_.full()) {
    (void)game_messages_.pop();
    drops_.add(ClientDrop::game_message_overflow);
  }
  const OwnerId from = message.addressed ? message.from : kAuthorityOwner;
  (void)game_messages_.push(GameMessage{from, message.type, {message.payload.begin(), message.payload.end()}});
  ++game_messages_received_;
}

void SessionClient::on_relay_refused(std::span<const uint8_t> body) {
  protocol::RelayRefused refused;
  if (!wire::decode_counted(body, refused, decode_errors_).ok()) {
    drops_.add(ClientDrop::undecodable);
    return;
  }
  relay_refusals_.add(refused.reason);
}

void SessionClient::on_resume_ticket(std::span<const uint8_t> body) {
  protocol::ResumeTicket ticket;
  if (!wire::decode_counted(body, ticket, decode_errors_).ok()) {
    drops_.add(ClientDrop::undecodable);
    return;
  }
  resume_ticket_ = std::move(ticket);
}

// A server message for the game's inbox: decoded, or dropped by reason; the oldest waiting one
// goes when the game has not drained the inbox.
template <class Message, std::size_t N>
void SessionClient::queue_decoded(std::span<const uint8_t> body, RingBuffer<Message, N>& inbox, ClientDrop overflow,
                                  uint64_t& received) {
  Message message;
  if (!wire::decode_counted(body, message, decode_errors_).ok()) {
    drops_.add(ClientDrop::undecodable);
    return;
  }
  if (inbox.full()) {
    (void)inbox.pop();
    drops_.add(overflow);
  }
  (void)inbox.push(std::move(message));
  ++received;
}

void SessionClient::on_entity_event(std::span<const uint8_t> body) {
  queue_decoded(body, entity_events_, ClientDrop::entity_event_overflow, entity_events_received_);
}

void SessionClient::on_hit_event(std::span<const uint8_t> body) {
  queue_decoded(body, hit_events_, ClientDrop::hit_event_overflow, hit_events_received_);
}

std::optional<uint32_t> SessionClient::send_fire(const protocol::Vec3& eye, const protocol::Vec3& aim, double render_tick) {
  if (!welcome_ || refused_ || !net_ || !peer_ || !peer_->peer_lists(protocol::FireRequest::message_name)) return std::nullopt;
  protocol::FireRequest request;
  request.shot = next_shot_;
  request.eye = eye;
  request.aim = aim;
  const double at = std::max(render_tick, 0.0);
  const double whole = std::floor(at);
  request.render_tick = static_cast<uint32_t>(static_cast<int64_t>(whole));
  request.render_fraction = static_cast<uint16_t>(std::min((at - whole) * 65536.0, 65535.0));
  // The eye it claims is its prediction's after the last input it made: the server traces the shot
  // once it has simulated that input, and re-checks the eye against its own pawn's after it.
  request.after_input = inputs_.next_sequence() > 0;
  request.input_sequence = request.after_input ? inputs_.next_sequence() - 1 : 0;
  if (!wire::send_message(*net_, config_.reliable_channel, request).ok()) return std::nullopt;
  return next_shot_++;
}

void SessionClient::on_scene_state(std::span<const uint8_t> body) {
  protocol::SceneNodeState state;
  if (!wire::decode_counted(body, state, decode_errors_).ok()) {
    drops_.add(ClientDrop::undecodable);
    return;
  }
  for (std::size_t i = 1; i < state.objects.size(); ++i) {
    if (state.objects[i - 1].object >= state.objects[i].object) {
      drops_.add(ClientDrop::scene_state_unordered);  // every reader of the state looks objects up by index
      return;
    }
  }
  if (scene_state_ && state.revision <= scene_state_->revision) {
    drops_.add(ClientDrop::stale_scene_state);
    return;
  }
  scene_state_ = std::move(state);
  ++scene_states_received_;
}

std::optional<uint32_t> SessionClient::send_edit(protocol::SceneEdit gesture) {
  if (!welcome_ || refused_ || !net_ || !peer_ || !peer_->peer_lists(protocol::SceneEdit::message_name)) return std::nullopt;
  gesture.gesture = next_gesture_;
  if (!wire::send_message(*net_, config_.reliable_channel, gesture).ok()) return std::nullopt;
  return next_gesture_++;
}

bool SessionClient::pop_edit_refusal(protocol::SceneEditRefused& out) {
  if (edit_refusals_.empty()) return false;
  out = edit_refusals_.pop();
  return true;
}

bool SessionClient::pop_hit_event(protocol::HitEvent& out) {
  if (hit_events_.empty()) return false;
  out = hit_events_.pop();
  return true;
}

bool SessionClient::send_interact(uint64_t target_ref, uint8_t action) {
  if (!welcome_ || refused_ || !net_) return false;
  protocol::InteractRequest request;
  request.target_ref = target_ref;
  request.action = action;
  return wire::send_message(*net_, config_.reliable_channel, request).ok();
}

bool SessionClient::send_construct_call(uint32_t target, uint16_t method, std::span<const uint8_t> payload) {
  if (!welcome_ || refused_ || !net_ || payload.size() > protocol::MaxConstructCallPayloadBytes) return false;
  protocol::ConstructCall call;
  call.target = target;
  call.method = method;
  for (uint8_t b : payload) call.payload.push_back(protocol::SliceByte{b});
  return wire::send_message(*net_, config_.reliable_channel, call).ok();
}

bool SessionClient::pop_entity_event(protocol::EntityEvent& out) {
  if (entity_events_.empty()) return false;
  out = entity_events_.pop();
  return true;
}

bool SessionClient::send_to(OwnerId target, MessageType type, std::span<const uint8_t> payload, bool reliable) {
  if (!welcome_ || refused_ || !net_) return false;
  return net_->send_to(target, reliable ? config_.reliable_channel : config_.unreliable_channel, type, payload).ok();
}

bool SessionClient::pop_game_message(GameMessage& out) {
  if (game_messages_.empty()) return false;
  out = game_messages_.pop();
  return true;
}

std::optional<uint32_t> SessionClient::send_input(const protocol::InputCmd& cmd,
                                                  const std::optional<protocol::Claim>& claim) {
  if (!welcome_ || refused_ || !net_) return std::nullopt;
  const uint32_t sequence = inputs_.push(cmd);
  if (inputs_.build_frame(frame_)) {
    frame_.claim = claim;
    frame_.held = delta_.report();
    (void)wire::send_message(*net_, config_.unreliable_channel, frame_);
  }
  return sequence;
}

std::optional<uint32_t> SessionClient::send_timed_input(const protocol::InputCmd& cmd, uint64_t stamp_us,
                                                        uint32_t step_us) {
  if (!welcome_ || refused_ || !net_) return std::nullopt;
  const uint32_t sequence = inputs_.push(cmd);
  if (inputs_.build_frame(frame_)) {
    timed_frame_.first_sequence = frame_.first_sequence;
    timed_frame_.inputs.swap(frame_.inputs);
    timed_frame_.newest_stamp_us = stamp_us;
    timed_frame_.step_us = step_us;
    timed_frame_.held = delta_.report();
    (void)wire::send_message(*net_, config_.unreliable_channel, timed_frame_);
  }
  return sequence;
}

}  // namespace tickwire

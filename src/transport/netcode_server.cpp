// NetcodeServer: lifecycle, the receive loop and dispatch by source address, connected-slot
// traffic (keep-alive, payload, disconnect), keep-alives when idle, timeouts and events. The
// handshake (connection request and response processing) lives in server_handshake.cpp.
#include "tickwire/transport/netcode_server.h"

#include "tickwire/core/assert.h"

namespace tickwire {

using netcode::PacketType;
using netcode::Reject;

struct NetcodeServer::Slot {
  bool connected = false;
  bool confirmed = false;  // the client has shown it knows its index (sent a keep-alive or payload)
  Address address;
  uint64_t client_id = 0;
  netcode::Key client_to_server_key{};
  netcode::Key server_to_client_key{};
  netcode::UserData user_data{};
  int32_t timeout_seconds = 0;
  MonoTime last_receive;
  MonoTime last_send;
  netcode::ReplayProtection replay;
  netcode::SendSequence sequence;
};

namespace {
std::size_t or_default(std::size_t value, std::size_t fallback) { return value != 0 ? value : fallback; }
}  // namespace

NetcodeServer::NetcodeServer(DatagramSocket& socket, const NetcodeServerConfig& config)
    : socket_(socket),
      config_(config),
      slots_(config.max_clients),
      slot_by_address_(config.max_clients),
      pending_(or_default(config.max_pending_handshakes, 16u * config.max_clients)),
      token_uses_(or_default(config.max_token_records, 64u * config.max_clients)),
      receive_buffer_(64),
      received_(config.receive_queue_packets) {
  TW_ASSERT(config.max_clients >= 1 && config.max_clients <= netcode::kMaxClientsLimit, "max_clients in [1, kMaxClientsLimit]");
  TW_ASSERT(config.receive_queue_packets > 0, "the payload queue needs room");
  TW_ASSERT(config.disconnect_packets >= 1, "send at least one disconnect packet");
  if (!config_.public_address.valid()) config_.public_address = socket_.local_address();
  netcode::ensure_crypto_ready();
}

NetcodeServer::~NetcodeServer() {
  netcode::wipe(challenge_key_);
  for (Slot& s : slots_) {
    netcode::wipe(s.client_to_server_key);
    netcode::wipe(s.server_to_client_key);
  }
}

netcode::SequenceStreams& NetcodeServer::streams() {
  return config_.sequence_streams != nullptr ? *config_.sequence_streams : netcode::SequenceStreams::process();
}

void NetcodeServer::start(MonoTime now) {
  if (running_) stop(now);
  challenge_key_ = netcode::random_key();
  challenge_sequence_ = 0;
  handshake_sequence_ = streams().open_stream();
  running_ = true;
}

void NetcodeServer::stop(MonoTime now) {
  if (!running_) return;
  for (uint32_t i = 0; i < slots_.size(); ++i) {
    if (!slots_[i].connected) continue;
    for (int k = 0; k < config_.disconnect_packets && slots_[i].connected; ++k) {
      send_to_slot(i, PacketType::disconnect, {}, now);
    }
    if (slots_[i].connected) reset_slot(i, DisconnectCause::server_stopped);
  }
  flush();
  pending_.clear();
  deferred_.clear();
  token_uses_.clear();
  received_.clear();
  netcode::wipe(challenge_key_);
  running_ = false;
}

void NetcodeServer::update(MonoTime now, WallTime wall_now) {
  if (!running_) return;
  const uint64_t now_unix = netcode::unix_seconds(wall_now);
  connects_this_update_ = 0;
  connect_deferred(now);
  std::size_t handled = 0;
  while (handled < config_.max_datagrams_per_update) {
    const std::size_t room = std::min(receive_buffer_.size(), config_.max_datagrams_per_update - handled);
    const std::size_t n = socket_.receive_batch(std::span<Datagram>(receive_buffer_.data(), room));
    for (std::size_t i = 0; i < n; ++i) process_datagram(receive_buffer_[i], now, now_unix);
    handled += n;
    if (n < room) break;
  }
  check_timeouts(now);
  send_keep_alives(now);
  pending_.expire(now);
  flush();
}

void NetcodeServer::process_datagram(const Datagram& datagram, MonoTime now, uint64_t now_unix) {
  bytes_received_ += datagram.size;
  const std::span<const uint8_t> bytes(datagram.data, datagram.size);
  if (bytes.empty()) {
    rejects_.add(Reject::packet_too_small);
    return;
  }
  if (bytes[0] == static_cast<uint8_t>(PacketType::connection_request)) {
    process_request(datagram, now, now_unix);
    return;
  }
  netcode::EncryptedHeader header;
  if (const Reject r = netcode::read_encrypted_header(bytes, netcode::kServerAccepts, header); r != Reject::ok) {
    rejects_.add(r);
    return;
  }
  if (const auto slot = slot_by_address_.find(datagram.address)) {
    process_from_slot(*slot, datagram, header, now);
    return;
  }
  if (header.type != PacketType::connection_response) {
    rejects_.add(Reject::no_key_for_address);
    return;
  }
  netcode::PendingHandshake* pending = pending_.find(datagram.address, now);
  if (pending == nullptr) {
    rejects_.add(Reject::no_key_for_address);
    return;
  }
  if (pending->awaiting_connect) {
    rejects_.add(Reject::response_deferred);  // a resend: its first copy waits in the queue
    return;
  }
  netcode::DecodedPacket packet;
  const Reject r = netcode::open_encrypted_packet(bytes, header, config_.protocol_id, pending->client_to_server_key,
                                                  nullptr, packet);
  if (r != Reject::ok) {
    rejects_.add(r);
    return;
  }
  process_response(datagram, packet, *pending, now);
}

void NetcodeServer::process_from_slot(uint32_t index, const Datagram& datagram, const netcode::EncryptedHeader& header,
                                      MonoTime now) {
  Slot& slot = slots_[index];
  netcode::DecodedPacket packet;
  const std::span<const uint8_t> bytes(datagram.data, datagram.size);
  const Reject r = netcode::open_encrypted_packet(bytes, header, config_.protocol_id, slot.client_to_server_key,
                                                  &slot.replay, packet);
  if (r != Reject::ok) {
    rejects_.add(r);
    return;
  }
  switch (packet.type) {
    case PacketType::connection_response: {
      // The standard's order: the challenge token must open before "already connected" applies.
      netcode::ChallengeToken token;
      const bool opened =
          netcode::open_challenge_token(packet.challenge.token, packet.challenge.token_sequence, challenge_key_, token);
      rejects_.add(opened ? Reject::response_address_connected : Reject::response_challenge_invalid);
      return;
    }
    case PacketType::keep_alive:
      slot.last_receive = now;
      slot.confirmed = true;
      return;
    case PacketType::payload: {
      slot.last_receive = now;
      slot.confirmed = true;
      netcode::ReceivedPayload* out = received_.push_slot();
      if (out == nullptr) {
        rejects_.add(Reject::receive_queue_full);
        return;
      }
      out->client_index = index;
      out->sequence = packet.sequence;
      out->size = packet.payload_bytes;
      std::copy_n(packet.payload.begin(), packet.payload_bytes, out->bytes.begin());
      return;
    }
    case PacketType::disconnect:
      reset_slot(index, DisconnectCause::client_disconnected);
      return;
    default:
      rejects_.add(Reject::unexpected_in_state);
      return;
  }
}

bool NetcodeServer::send_to_slot(uint32_t index, PacketType type, std::span<const uint8_t> body, MonoTime now) {
  Slot& slot = slots_[index];
  TW_ASSERT(slot.connected, "sending to a free slot");
  if (slot.sequence.exhausted()) {
    rejects_.add(Reject::sequence_exhausted);
    reset_slot(index, DisconnectCause::sequence_exhausted);
    return false;
  }
  auto buffer = batch_.buffer();
  const std::size_t size = netcode::write_encrypted_packet(type, slot.sequence.take(), body, config_.protocol_id,
                                                           slot.server_to_client_key, buffer);
  TW_ASSERT(size > 0, "a packet buffer always holds the largest packet");
  batch_.commit(socket_, slot.address, size);
  slot.last_send = now;
  return true;
}

bool NetcodeServer::send_keep_alive(uint32_t index, MonoTime now) {
  std::array<uint8_t, netcode::kKeepAliveBodyBytes> body;
  ByteWriter w(body);
  w.u32(index);
  w.u32(config_.max_clients);
  return send_to_slot(index, PacketType::keep_alive, body, now);
}

bool NetcodeServer::send_payload(uint32_t client_index, std::span<const uint8_t> payload, MonoTime now) {
  if (!running_ || !client_connected(client_index)) return false;
  TW_ASSERT(!payload.empty() && payload.size() <= netcode::kMaxPayloadBytes, "payload must be 1..1200 bytes");
  // Until the client confirms, every payload is preceded by a keep-alive carrying its index.
  if (!slots_[client_index].confirmed && !send_keep_alive(client_index, now)) return false;
  return send_to_slot(client_index, PacketType::payload, payload, now);
}

void NetcodeServer::disconnect_client(uint32_t client_index, MonoTime now) {
  if (!client_connected(client_index)) return;
  for (int k = 0; k < config_.disconnect_packets && slots_[client_index].connected; ++k) {
    send_to_slot(client_index, PacketType::disconnect, {}, now);
  }
  if (slots_[client_index].connected) reset_slot(client_index, DisconnectCause::server_disconnected);
}

void NetcodeServer::flush() { batch_.flush(socket_); }

void NetcodeServer::send_keep_alives(MonoTime now) {
  for (uint32_t i = 0; i < slots_.size(); ++i) {
    if (slots_[i].connected && now - slots_[i].last_send >= config_.keep_alive_interval) send_keep_alive(i, now);
  }
}

void NetcodeServer::check_timeouts(MonoTime now) {
  for (uint32_t i = 0; i < slots_.size(); ++i) {
    const Slot& s = slots_[i];
    if (s.connected && s.timeout_seconds > 0 && now - s.last_receive > Duration::seconds(s.timeout_seconds)) {
      reset_slot(i, DisconnectCause::timed_out);
    }
  }
}

void NetcodeServer::connect_slot(uint32_t index, const Address& from, const netcode::PendingHandshake& keys,
                                 const netcode::ChallengeToken& token, MonoTime now) {
  Slot& slot = slots_[index];
  TW_ASSERT(!slot.connected, "connecting an occupied slot");
  slot.connected = true;
  slot.confirmed = false;
  slot.address = from;
  slot.client_id = token.client_id;
  slot.client_to_server_key = keys.client_to_server_key;
  slot.server_to_client_key = keys.server_to_client_key;
  slot.user_data = token.user_data;
  slot.timeout_seconds = keys.timeout_seconds;
  slot.last_receive = now;
  slot.last_send = now;
  slot.replay.reset();
  slot.sequence = streams().open_stream();
  const bool indexed = slot_by_address_.insert(from, index);
  TW_ASSERT(indexed, "the address index holds max_clients entries");
  ++connected_count_;
  push_event(ServerEvent{ServerEvent::Type::client_connected, index, token.client_id, DisconnectCause::none});
}

void NetcodeServer::reset_slot(uint32_t index, DisconnectCause cause) {
  Slot& slot = slots_[index];
  TW_ASSERT(slot.connected, "resetting a free slot");
  slot_by_address_.erase(slot.address);
  netcode::wipe(slot.client_to_server_key);
  netcode::wipe(slot.server_to_client_key);
  slot.connected = false;
  slot.confirmed = false;
  received_.discard_client(index);
  --connected_count_;
  push_event(ServerEvent{ServerEvent::Type::client_disconnected, index, slot.client_id, cause});
}

int NetcodeServer::find_free_slot() const {
  for (uint32_t i = 0; i < slots_.size(); ++i) {
    if (!slots_[i].connected) return static_cast<int>(i);
  }
  return -1;
}

bool NetcodeServer::client_id_connected(uint64_t client_id) const {
  for (const Slot& s : slots_) {
    if (s.connected && s.client_id == client_id) return true;
  }
  return false;
}

void NetcodeServer::push_event(const ServerEvent& event) {
  if (!events_.push(event)) ++events_dropped_;
}

bool NetcodeServer::poll_event(ServerEvent& out) {
  if (events_.empty()) return false;
  out = events_.pop();
  return true;
}

bool NetcodeServer::client_connected(uint32_t client_index) const {
  return client_index < slots_.size() && slots_[client_index].connected;
}

uint64_t NetcodeServer::client_id(uint32_t client_index) const {
  TW_ASSERT(client_index < slots_.size(), "client index out of range");
  return slots_[client_index].client_id;
}

const Address& NetcodeServer::client_address(uint32_t client_index) const {
  TW_ASSERT(client_index < slots_.size(), "client index out of range");
  return slots_[client_index].address;
}

const netcode::UserData& NetcodeServer::client_user_data(uint32_t client_index) const {
  TW_ASSERT(client_index < slots_.size(), "client index out of range");
  return slots_[client_index].user_data;
}

}  // namespace tickwire

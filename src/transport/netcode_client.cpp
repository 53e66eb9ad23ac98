// NetcodeClient: the standard's client state machine. Failures while connecting move on to the
// token's next server address before settling in an error state; the token's lifetime (expire -
// create) bounds the whole attempt on the client's own monotonic clock.
#include "tickwire/transport/netcode_client.h"

#include <algorithm>

#include "tickwire/core/assert.h"

namespace tickwire {

using netcode::PacketType;
using netcode::Reject;

std::string_view client_state_name(ClientState state) noexcept {
  switch (state) {
    case ClientState::connect_token_expired: return "connect token expired";
    case ClientState::invalid_connect_token: return "invalid connect token";
    case ClientState::connection_timed_out: return "connection timed out";
    case ClientState::connection_response_timed_out: return "connection response timed out";
    case ClientState::connection_request_timed_out: return "connection request timed out";
    case ClientState::connection_denied: return "connection denied";
    case ClientState::disconnected: return "disconnected";
    case ClientState::sending_connection_request: return "sending connection request";
    case ClientState::sending_connection_response: return "sending connection response";
    case ClientState::connected: return "connected";
  }
  return "unknown";
}

NetcodeClient::NetcodeClient(DatagramSocket& socket, const NetcodeClientConfig& config)
    : socket_(socket), config_(config), receive_buffer_(64), received_(config.receive_queue_packets) {
  TW_ASSERT(config.receive_queue_packets > 0, "the payload queue needs room");
  TW_ASSERT(config.disconnect_packets >= 1, "send at least one disconnect packet");
  netcode::ensure_crypto_ready();
}

NetcodeClient::~NetcodeClient() { forget_token(); }

void NetcodeClient::forget_token() {
  netcode::wipe(token_.client_to_server_key);
  netcode::wipe(token_.server_to_client_key);
}

Address NetcodeClient::server_address() const {
  return server_index_ < token_.server_addresses.size() ? token_.server_addresses[server_index_] : Address{};
}

void NetcodeClient::connect(std::span<const uint8_t> token_bytes, MonoTime now) {
  netcode::ConnectToken token;
  if (!netcode::read_connect_token(token_bytes, token).ok()) {
    if (state_ == ClientState::connected) disconnect(now);
    enter(ClientState::invalid_connect_token);
    return;
  }
  connect(token, now);
}

void NetcodeClient::connect(const netcode::ConnectToken& token, MonoTime now) {
  if (state_ == ClientState::connected) disconnect(now);
  if (token.server_addresses.empty() || token.create_timestamp > token.expire_timestamp) {
    enter(ClientState::invalid_connect_token);
    return;
  }
  token_ = token;
  connect_start_ = now;
  received_.clear();
  netcode::SequenceStreams& streams =
      config_.sequence_streams != nullptr ? *config_.sequence_streams : netcode::SequenceStreams::process();
  sequence_ = streams.open_stream();  // a fresh nonce range for this use of the token's keys
  begin_server(0, now);
}

void NetcodeClient::begin_server(uint32_t index, MonoTime now) {
  server_index_ = index;
  replay_.reset();
  last_receive_ = now;
  last_send_ = now - config_.send_interval;  // the first request goes out on the next update
  client_index_ = 0;
  max_clients_ = 0;
  enter(ClientState::sending_connection_request);
}

void NetcodeClient::fail_over(ClientState error, MonoTime now) {
  if (server_index_ + 1 < token_.server_addresses.size()) {
    begin_server(server_index_ + 1, now);
  } else {
    enter(error);
  }
}

void NetcodeClient::enter(ClientState state) {
  state_ = state;
  if (state != ClientState::sending_connection_request && state != ClientState::sending_connection_response &&
      state != ClientState::connected) {
    forget_token();
  }
}

void NetcodeClient::update(MonoTime now) {
  const bool active = static_cast<int8_t>(state_) > 0;
  if (!active) return;
  std::size_t handled = 0;
  while (handled < config_.max_datagrams_per_update && static_cast<int8_t>(state_) > 0) {
    const std::size_t room = std::min(receive_buffer_.size(), config_.max_datagrams_per_update - handled);
    const std::size_t n = socket_.receive_batch(std::span<Datagram>(receive_buffer_.data(), room));
    for (std::size_t i = 0; i < n && static_cast<int8_t>(state_) > 0; ++i) process_datagram(receive_buffer_[i], now);
    handled += n;
    if (n < room) break;
  }
  check_timeouts(now);
  send_due_packets(now);
  flush();
}

void NetcodeClient::process_datagram(const Datagram& datagram, MonoTime now) {
  // A dual-stack socket reports an IPv4 server as its IPv4-mapped address: the same peer.
  const Address server = server_address();
  if (datagram.address != server &&
      !(server.family() == Address::Family::ipv4 && datagram.address == Address::ipv4_mapped(server))) {
    rejects_.add(Reject::from_unknown_address);
    return;
  }
  const std::span<const uint8_t> bytes(datagram.data, datagram.size);
  netcode::EncryptedHeader header;
  if (const Reject r = netcode::read_encrypted_header(bytes, netcode::kClientAccepts, header); r != Reject::ok) {
    rejects_.add(r);
    return;
  }
  netcode::DecodedPacket packet;
  const Reject r = netcode::open_encrypted_packet(bytes, header, token_.protocol_id, token_.server_to_client_key,
                                                  &replay_, packet);
  if (r != Reject::ok) {
    rejects_.add(r);
    return;
  }
  process_packet(packet, now);
}

void NetcodeClient::process_packet(const netcode::DecodedPacket& packet, MonoTime now) {
  const PacketType type = packet.type;
  if (state_ == ClientState::sending_connection_request && type == PacketType::connection_challenge) {
    challenge_ = packet.challenge;
    last_receive_ = now;
    last_send_ = now - config_.send_interval;  // answer on this update
    enter(ClientState::sending_connection_response);
  } else if (state_ == ClientState::sending_connection_response && type == PacketType::keep_alive) {
    client_index_ = packet.keep_alive.client_index;
    max_clients_ = packet.keep_alive.max_clients;
    last_receive_ = now;
    enter(ClientState::connected);
  } else if (state_ != ClientState::connected && type == PacketType::connection_denied) {
    fail_over(ClientState::connection_denied, now);
  } else if (state_ == ClientState::connected && type == PacketType::keep_alive) {
    last_receive_ = now;
  } else if (state_ == ClientState::connected && type == PacketType::payload) {
    last_receive_ = now;
    netcode::ReceivedPayload* out = received_.push_slot();
    if (out == nullptr) {
      rejects_.add(Reject::receive_queue_full);
      return;
    }
    out->client_index = client_index_;
    out->sequence = packet.sequence;
    out->size = packet.payload_bytes;
    std::copy_n(packet.payload.begin(), packet.payload_bytes, out->bytes.begin());
  } else if (state_ == ClientState::connected && type == PacketType::disconnect) {
    enter(ClientState::disconnected);
  } else {
    rejects_.add(Reject::unexpected_in_state);  // e.g. payloads before connected are discarded
  }
}

void NetcodeClient::check_timeouts(MonoTime now) {
  const bool connecting = state_ == ClientState::sending_connection_request ||
                          state_ == ClientState::sending_connection_response;
  if (connecting) {
    const auto lifetime_s = static_cast<int64_t>(std::min<uint64_t>(
        token_.expire_timestamp - token_.create_timestamp, static_cast<uint64_t>(INT32_MAX)));
    if (now - connect_start_ >= Duration::seconds(lifetime_s)) {
      enter(ClientState::connect_token_expired);
      return;
    }
  }
  if (token_.timeout_seconds <= 0 || now - last_receive_ <= Duration::seconds(token_.timeout_seconds)) return;
  switch (state_) {
    case ClientState::sending_connection_request: fail_over(ClientState::connection_request_timed_out, now); break;
    case ClientState::sending_connection_response: fail_over(ClientState::connection_response_timed_out, now); break;
    case ClientState::connected: enter(ClientState::connection_timed_out); break;
    default: break;
  }
}

void NetcodeClient::send_due_packets(MonoTime now) {
  if (now - last_send_ < config_.send_interval) return;
  switch (state_) {
    case ClientState::sending_connection_request:
      send_request(now);
      break;
    case ClientState::sending_connection_response: {
      std::array<uint8_t, netcode::kChallengeBodyBytes> body;
      ByteWriter w(body);
      w.u64(challenge_.token_sequence);
      w.bytes(challenge_.token);
      send_encrypted(PacketType::connection_response, body, now);
      break;
    }
    case ClientState::connected: {
      std::array<uint8_t, netcode::kKeepAliveBodyBytes> body;
      ByteWriter w(body);
      w.u32(client_index_);
      w.u32(max_clients_);
      send_encrypted(PacketType::keep_alive, body, now);
      break;
    }
    default:
      break;
  }
}

void NetcodeClient::send_request(MonoTime now) {
  netcode::ConnectionRequest request;
  request.protocol_id = token_.protocol_id;
  request.expire_timestamp = token_.expire_timestamp;
  request.nonce = token_.nonce;
  request.private_data = token_.private_data;
  auto buffer = batch_.buffer();
  const std::size_t size = netcode::write_connection_request(request, buffer);
  batch_.commit(socket_, server_address(), size);
  last_send_ = now;
}

bool NetcodeClient::send_encrypted(PacketType type, std::span<const uint8_t> body, MonoTime now) {
  if (sequence_.exhausted()) {
    rejects_.add(Reject::sequence_exhausted);
    enter(ClientState::disconnected);
    return false;
  }
  auto buffer = batch_.buffer();
  const std::size_t size = netcode::write_encrypted_packet(type, sequence_.take(), body, token_.protocol_id,
                                                           token_.client_to_server_key, buffer);
  TW_ASSERT(size > 0, "a packet buffer always holds the largest packet");
  batch_.commit(socket_, server_address(), size);
  last_send_ = now;
  return true;
}

bool NetcodeClient::send_payload(std::span<const uint8_t> payload, MonoTime now) {
  if (state_ != ClientState::connected) return false;
  TW_ASSERT(!payload.empty() && payload.size() <= netcode::kMaxPayloadBytes, "payload must be 1..1200 bytes");
  return send_encrypted(PacketType::payload, payload, now);
}

void NetcodeClient::disconnect(MonoTime now) {
  if (state_ == ClientState::connected) {
    for (int k = 0; k < config_.disconnect_packets && state_ == ClientState::connected; ++k) {
      send_encrypted(PacketType::disconnect, {}, now);
    }
    flush();
  }
  enter(ClientState::disconnected);
}

void NetcodeClient::flush() { batch_.flush(socket_); }

}  // namespace tickwire

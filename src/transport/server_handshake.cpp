// The server's half of the handshake, step for step in the standard's order: connection requests
// (cheap checks, token decryption, address/id/token-reuse checks, the server's filter or full ->
// denied, encryption
// mapping, challenge) and connection responses (challenge token, id check, full -> denied, slot,
// keep-alive). Replies go only to the requesting address, are always smaller than the request
// that caused them, and nothing is sent on a request's behalf later: no amplification.
#include <algorithm>

#include "tickwire/core/assert.h"
#include "tickwire/transport/netcode_server.h"

namespace tickwire {

using netcode::PacketType;
using netcode::Reject;

void NetcodeServer::process_request(const Datagram& datagram, MonoTime now, uint64_t now_unix) {
  const std::span<const uint8_t> bytes(datagram.data, datagram.size);
  netcode::ConnectionRequest request;
  if (const Reject r = netcode::read_connection_request(bytes, config_.protocol_id, now_unix, request); r != Reject::ok) {
    rejects_.add(r);
    return;
  }
  netcode::ConnectTokenPrivate token;
  if (const Reject r = netcode::open_private_token(request.private_data, request.protocol_id,
                                                   request.expire_timestamp, request.nonce, config_.private_key, token);
      r != Reject::ok) {
    rejects_.add(r);
    return;
  }
  // From here on the token is authentic; wipe its keys on every way out.
  struct Wipe {
    netcode::ConnectTokenPrivate& t;
    ~Wipe() {
      netcode::wipe(t.client_to_server_key);
      netcode::wipe(t.server_to_client_key);
    }
  } wipe_token{token};

  if (!token.server_addresses.contains(config_.public_address)) {
    rejects_.add(Reject::request_server_not_in_token);
    return;
  }
  if (slot_by_address_.find(datagram.address)) {
    rejects_.add(Reject::request_address_connected);
    return;
  }
  if (client_id_connected(token.client_id)) {
    rejects_.add(Reject::request_client_id_connected);
    return;
  }
  const netcode::Mac mac = netcode::sealed_token_mac(request.private_data);
  if (!token_uses_.check_and_record(mac, datagram.address, request.expire_timestamp, now_unix)) {
    rejects_.add(Reject::request_token_used_elsewhere);
    return;
  }
  if (request_filter_ && !request_filter_(token.client_id, token.user_data)) {
    rejects_.add(Reject::request_denied_by_server);
    send_denied(datagram.address, token.server_to_client_key, datagram.size);
    return;
  }
  if (connected_count_ >= config_.max_clients) {
    rejects_.add(Reject::request_denied_server_full);
    send_denied(datagram.address, token.server_to_client_key, datagram.size);
    return;
  }
  netcode::PendingHandshake mapping;
  mapping.address = datagram.address;
  mapping.client_to_server_key = token.client_to_server_key;
  mapping.server_to_client_key = token.server_to_client_key;
  mapping.token_mac = mac;
  mapping.timeout_seconds = token.timeout_seconds;
  const Duration token_timeout = Duration::seconds(token.timeout_seconds);
  const Duration lifetime = token.timeout_seconds > 0 ? std::min(token_timeout, config_.max_handshake_time)
                                                      : config_.max_handshake_time;
  mapping.expire_at = now + lifetime;
  pending_.upsert(mapping, now);
  netcode::wipe(mapping.client_to_server_key);
  netcode::wipe(mapping.server_to_client_key);

  netcode::ChallengeToken challenge;
  challenge.client_id = token.client_id;
  challenge.user_data = token.user_data;
  send_challenge(datagram.address, token.server_to_client_key, challenge, datagram.size);
}

void NetcodeServer::process_response(const Datagram& datagram, const netcode::DecodedPacket& packet,
                                     netcode::PendingHandshake& pending, MonoTime now) {
  netcode::ChallengeToken token;
  if (!netcode::open_challenge_token(packet.challenge.token, packet.challenge.token_sequence, challenge_key_, token)) {
    rejects_.add(Reject::response_challenge_invalid);
    return;
  }
  if (config_.max_connects_per_update == 0 || connects_this_update_ < config_.max_connects_per_update) {
    connect_response(datagram.address, pending, token, now);
    return;
  }
  rejects_.add(Reject::response_deferred);
  if (deferred_.size() < config_.max_clients) {  // else its next resend tries again
    deferred_.push_back(DeferredConnect{datagram.address, pending.token_mac, token});
    pending.awaiting_connect = true;
  }
}

// A denied reply is never larger than the response it answers (no amplification): a response is
// at least this long.
constexpr std::size_t kResponseBytes = netcode::kMinEncryptedPacketBytes + netcode::kChallengeBodyBytes;

void NetcodeServer::connect_response(const Address& from, netcode::PendingHandshake& pending,
                                     const netcode::ChallengeToken& token, MonoTime now) {
  // "Already connected from this address" is decided by the caller: connected addresses never
  // reach here (their packets are read with the slot's key).
  if (client_id_connected(token.client_id)) {
    pending.awaiting_connect = false;
    rejects_.add(Reject::response_client_id_connected);
    return;
  }
  const int free_slot = find_free_slot();
  if (free_slot < 0) {
    rejects_.add(Reject::response_denied_server_full);
    send_denied(from, pending.server_to_client_key, kResponseBytes);
    return;
  }
  const auto index = static_cast<uint32_t>(free_slot);
  const netcode::PendingHandshake keys = pending;  // copy: the mapping is removed next
  pending_.remove(from);
  connect_slot(index, from, keys, token, now);
  ++connects_this_update_;
  send_keep_alive(index, now);
}

// The responses a capped update left, first come first served. One whose handshake expired
// meanwhile, or was replaced by another token's, is dropped (the client starts again).
void NetcodeServer::connect_deferred(MonoTime now) {
  while (!deferred_.empty() && connects_this_update_ < config_.max_connects_per_update) {
    const DeferredConnect d = std::move(deferred_.front());
    deferred_.pop_front();
    netcode::PendingHandshake* pending = pending_.find(d.address, now);
    if (pending != nullptr && pending->awaiting_connect && pending->token_mac == d.token_mac) {
      connect_response(d.address, *pending, d.token, now);
    }
  }
}

uint64_t NetcodeServer::take_handshake_sequence() {
  if (handshake_sequence_.exhausted()) handshake_sequence_ = streams().open_stream();
  return handshake_sequence_.take();
}

void NetcodeServer::send_denied(const Address& to, const netcode::Key& key, std::size_t reply_budget_bytes) {
  auto buffer = batch_.buffer();
  const std::size_t size = netcode::write_encrypted_packet(PacketType::connection_denied, take_handshake_sequence(),
                                                           {}, config_.protocol_id, key, buffer);
  if (size == 0 || size > reply_budget_bytes) {
    rejects_.add(Reject::send_refused);
    return;
  }
  batch_.commit(socket_, to, size);
}

void NetcodeServer::send_challenge(const Address& to, const netcode::Key& key, const netcode::ChallengeToken& token,
                                   std::size_t reply_budget_bytes) {
  netcode::ChallengeBody body;
  body.token_sequence = challenge_sequence_++;
  netcode::seal_challenge_token(token, body.token_sequence, challenge_key_, body.token);
  auto buffer = batch_.buffer();
  const std::size_t size = netcode::write_challenge_packet(PacketType::connection_challenge, body,
                                                           take_handshake_sequence(), config_.protocol_id, key, buffer);
  if (size == 0 || size > reply_budget_bytes) {
    rejects_.add(Reject::send_refused);
    return;
  }
  batch_.commit(socket_, to, size);
}

}  // namespace tickwire

// Writing and reading the seven netcode packets. Reading follows the standard's step order so the
// cheapest refusals come first and nothing is decrypted that a size or type check could refuse.
#include "tickwire/transport/netcode_packet.h"

#include <cstring>

#include "tickwire/core/assert.h"
#include "tickwire/core/bytes.h"

namespace tickwire::netcode {
namespace {

// Expected plaintext body size for a type, or the payload range.
bool body_size_ok(PacketType type, std::size_t bytes) {
  switch (type) {
    case PacketType::connection_denied:
    case PacketType::disconnect:
      return bytes == 0;
    case PacketType::connection_challenge:
    case PacketType::connection_response:
      return bytes == kChallengeBodyBytes;
    case PacketType::keep_alive:
      return bytes == kKeepAliveBodyBytes;
    case PacketType::payload:
      return bytes >= 1 && bytes <= kMaxPayloadBytes;
    case PacketType::connection_request:
      return false;
  }
  return false;
}

void decode_body(PacketType type, std::span<const uint8_t> body, DecodedPacket& out) {
  ByteReader r(body);
  switch (type) {
    case PacketType::connection_challenge:
    case PacketType::connection_response:
      out.challenge.token_sequence = r.u64();
      r.bytes(out.challenge.token);
      break;
    case PacketType::keep_alive:
      out.keep_alive.client_index = r.u32();
      out.keep_alive.max_clients = r.u32();
      break;
    case PacketType::payload:
      out.payload_bytes = body.size();
      break;  // decrypted in place into out.payload already
    default:
      break;
  }
  TW_ASSERT(r.ok(), "body sizes were checked before decoding");
}

}  // namespace

std::size_t write_connection_request(const ConnectionRequest& request, std::span<uint8_t> out) {
  if (out.size() < kConnectionRequestBytes) return 0;
  ByteWriter w(out.first(kConnectionRequestBytes));
  w.u8(static_cast<uint8_t>(PacketType::connection_request));
  w.bytes(kVersionInfo);
  w.u64(request.protocol_id);
  w.u64(request.expire_timestamp);
  w.bytes(request.nonce);
  w.bytes(request.private_data);
  TW_ASSERT(w.ok() && w.position() == kConnectionRequestBytes, "request layout is 1078 bytes");
  return kConnectionRequestBytes;
}

Reject read_connection_request(std::span<const uint8_t> packet, uint64_t protocol_id, uint64_t now_unix,
                               ConnectionRequest& out) {
  if (packet.size() != kConnectionRequestBytes) return Reject::request_wrong_size;
  ByteReader r(packet);
  if (r.u8() != static_cast<uint8_t>(PacketType::connection_request)) return Reject::packet_type_invalid;
  std::array<uint8_t, kVersionInfoBytes> version{};
  r.bytes(version);
  if (version != kVersionInfo) return Reject::request_wrong_version;
  out.protocol_id = r.u64();
  if (out.protocol_id != protocol_id) return Reject::request_wrong_protocol;
  out.expire_timestamp = r.u64();
  if (out.expire_timestamp <= now_unix) return Reject::request_token_expired;
  r.bytes(out.nonce);
  r.bytes(out.private_data);
  TW_ASSERT(r.ok() && r.remaining() == 0, "request size was checked");
  return Reject::ok;
}

uint8_t sequence_bytes_needed(uint64_t sequence) {
  uint8_t n = 1;
  while (n < 8 && (sequence >> (8 * n)) != 0) ++n;
  return n;
}

PacketAdditionalData packet_additional_data(uint64_t protocol_id, uint8_t prefix) {
  PacketAdditionalData ad{};
  std::memcpy(ad.data(), kVersionInfo.data(), kVersionInfoBytes);
  store_le<uint64_t>(ad.data() + kVersionInfoBytes, protocol_id);
  ad[kVersionInfoBytes + 8] = prefix;
  return ad;
}

std::size_t write_encrypted_packet(PacketType type, uint64_t sequence, std::span<const uint8_t> body,
                                   uint64_t protocol_id, const Key& key, std::span<uint8_t> out) {
  if (type == PacketType::connection_request) return 0;
  TW_ASSERT(body_size_ok(type, body.size()), "body size does not match the packet type");
  const uint8_t sequence_bytes = sequence_bytes_needed(sequence);
  const std::size_t header = 1u + sequence_bytes;
  const std::size_t total = header + body.size() + kMacBytes;
  if (out.size() < total) return 0;
  const uint8_t prefix = make_prefix(type, sequence_bytes);
  out[0] = prefix;
  for (uint8_t i = 0; i < sequence_bytes; ++i) out[1 + i] = static_cast<uint8_t>(sequence >> (8 * i));
  const auto ad = packet_additional_data(protocol_id, prefix);
  if (!aead_encrypt(out.subspan(header, body.size() + kMacBytes), body, ad, sequence, key)) return 0;
  return total;
}

std::size_t write_challenge_packet(PacketType type, const ChallengeBody& body, uint64_t sequence,
                                   uint64_t protocol_id, const Key& key, std::span<uint8_t> out) {
  TW_ASSERT(type == PacketType::connection_challenge || type == PacketType::connection_response,
            "challenge bodies travel in challenge and response packets only");
  std::array<uint8_t, kChallengeBodyBytes> plain;
  ByteWriter w(plain);
  w.u64(body.token_sequence);
  w.bytes(body.token);
  return write_encrypted_packet(type, sequence, plain, protocol_id, key, out);
}

std::size_t write_keep_alive_packet(const KeepAliveBody& body, uint64_t sequence, uint64_t protocol_id,
                                    const Key& key, std::span<uint8_t> out) {
  std::array<uint8_t, kKeepAliveBodyBytes> plain;
  ByteWriter w(plain);
  w.u32(body.client_index);
  w.u32(body.max_clients);
  return write_encrypted_packet(PacketType::keep_alive, sequence, plain, protocol_id, key, out);
}

Reject read_encrypted_header(std::span<const uint8_t> packet, PacketTypeSet allowed, EncryptedHeader& out) {
  if (packet.size() > kMaxPacketBytes) return Reject::packet_too_large;
  if (packet.size() < kMinEncryptedPacketBytes) return Reject::packet_too_small;
  const uint8_t prefix = packet[0];
  const uint8_t type = prefix & 0x0f;
  const uint8_t sequence_bytes = prefix >> 4;
  if (type >= kPacketTypeCount) return Reject::packet_type_invalid;
  out.type = static_cast<PacketType>(type);
  if (!allowed.contains(out.type)) return Reject::packet_type_not_allowed;
  // A request is exactly prefix 0 and has its own reader; type 0 with sequence bits is malformed.
  if (out.type == PacketType::connection_request) return Reject::packet_type_invalid;
  if (sequence_bytes < 1 || sequence_bytes > 8) return Reject::sequence_bytes_invalid;
  out.header_bytes = 1u + sequence_bytes;
  if (packet.size() < out.header_bytes + kMacBytes) return Reject::packet_too_small;
  out.ciphertext_bytes = packet.size() - out.header_bytes - kMacBytes;
  if (!body_size_ok(out.type, out.ciphertext_bytes)) return Reject::body_size_wrong;
  out.sequence = 0;
  for (uint8_t i = 0; i < sequence_bytes; ++i) out.sequence |= uint64_t{packet[1 + i]} << (8 * i);
  return Reject::ok;
}

Reject open_encrypted_packet(std::span<const uint8_t> packet, const EncryptedHeader& header, uint64_t protocol_id,
                             const Key& key, ReplayProtection* replay, DecodedPacket& out) {
  TW_ASSERT(header.header_bytes + header.ciphertext_bytes + kMacBytes == packet.size(),
            "header does not describe this packet");
  const bool protect = replay != nullptr && is_replay_protected(header.type);
  if (protect && replay->already_received(header.sequence)) return Reject::replayed;

  const auto ad = packet_additional_data(protocol_id, packet[0]);
  const auto sealed = packet.subspan(header.header_bytes);
  std::array<uint8_t, kChallengeBodyBytes> small{};
  const bool is_payload = header.type == PacketType::payload;
  std::span<uint8_t> plain = is_payload ? std::span<uint8_t>(out.payload) : std::span<uint8_t>(small);
  if (!aead_decrypt(plain, sealed, ad, header.sequence, key)) return Reject::decrypt_failed;

  out.type = header.type;
  out.sequence = header.sequence;
  decode_body(header.type, plain.first(header.ciphertext_bytes), out);
  if (protect) replay->advance(header.sequence);
  return Reject::ok;
}

}  // namespace tickwire::netcode

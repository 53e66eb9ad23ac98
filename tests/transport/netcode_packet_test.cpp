// The seven packets: every type round trips through write + read, the prefix and sequence
// encoding match the standard's example, the nonce and additional data are the standard's (checked
// against libsodium directly), and the pre-decryption reader refuses each malformed shape by name.
#include <gtest/gtest.h>
#include <sodium.h>

#include <cstring>

#include "netcode_test_support.h"
#include "tickwire/transport/netcode_packet.h"

namespace tickwire::netcode {
namespace {

using test::fixed_key;

constexpr uint64_t kProtocol = 0x1122334455667788ull;

Reject read_back(std::span<const uint8_t> packet, PacketTypeSet allowed, const Key& key, ReplayProtection* replay,
                 DecodedPacket& out) {
  EncryptedHeader header;
  const Reject r = read_encrypted_header(packet, allowed, header);
  if (r != Reject::ok) return r;
  return open_encrypted_packet(packet, header, kProtocol, key, replay, out);
}

TEST(NetcodePacket, SequenceEncodingFollowsTheStandardsExample) {
  EXPECT_EQ(sequence_bytes_needed(0), 1);
  EXPECT_EQ(sequence_bytes_needed(255), 1);
  EXPECT_EQ(sequence_bytes_needed(256), 2);
  EXPECT_EQ(sequence_bytes_needed(1000), 2);
  EXPECT_EQ(sequence_bytes_needed(uint64_t{1} << 56), 8);
  EXPECT_EQ(sequence_bytes_needed(UINT64_MAX), 8);

  std::array<uint8_t, kMaxPacketBytes> out;
  const Key key = fixed_key(1);
  const std::size_t n = write_encrypted_packet(PacketType::disconnect, 1000, {}, kProtocol, key, out);
  ASSERT_EQ(n, 1u + 2 + 16);
  EXPECT_EQ(out[0], (2 << 4) | 6);
  EXPECT_EQ(out[1], 0xE8);
  EXPECT_EQ(out[2], 0x03);
}

TEST(NetcodePacket, CiphertextIsTheStandardsAeadConstruction) {
  // Payload packet: encrypt by hand with libsodium, nonce [0 0 0 0][seq LE], AD version+protocol+prefix.
  const Key key = fixed_key(2);
  const uint64_t sequence = 0x0102030405ull;
  const std::array<uint8_t, 5> body = {10, 20, 30, 40, 50};
  std::array<uint8_t, kMaxPacketBytes> ours;
  const std::size_t n = write_encrypted_packet(PacketType::payload, sequence, body, kProtocol, key, ours);
  ASSERT_EQ(n, 1u + 5 + 5 + 16);

  const uint8_t prefix = (5 << 4) | 5;
  uint8_t ad[13 + 8 + 1];
  std::memcpy(ad, "NETCODE 1.02", 13);
  for (int i = 0; i < 8; ++i) ad[13 + i] = static_cast<uint8_t>(kProtocol >> (8 * i));
  ad[21] = prefix;
  uint8_t nonce[12] = {0, 0, 0, 0};
  for (int i = 0; i < 8; ++i) nonce[4 + i] = static_cast<uint8_t>(sequence >> (8 * i));
  uint8_t expected[5 + 16];
  unsigned long long len = 0;
  crypto_aead_chacha20poly1305_ietf_encrypt(expected, &len, body.data(), body.size(), ad, sizeof(ad), nullptr, nonce,
                                            key.data());
  ASSERT_EQ(len, sizeof(expected));
  EXPECT_EQ(ours[0], prefix);
  EXPECT_EQ(0, std::memcmp(ours.data() + 6, expected, sizeof(expected)));
}

TEST(NetcodePacket, EveryTypeRoundTrips) {
  const Key key = fixed_key(3);
  std::array<uint8_t, kMaxPacketBytes> buf;
  DecodedPacket out;

  // connection request (plaintext)
  ConnectionRequest request;
  request.protocol_id = kProtocol;
  request.expire_timestamp = 777;
  for (std::size_t i = 0; i < request.nonce.size(); ++i) request.nonce[i] = static_cast<uint8_t>(i);
  for (std::size_t i = 0; i < request.private_data.size(); ++i) request.private_data[i] = static_cast<uint8_t>(i * 3);
  ASSERT_EQ(write_connection_request(request, buf), 1078u);
  ConnectionRequest read_request;
  ASSERT_EQ(read_connection_request(std::span<const uint8_t>(buf).first(1078), kProtocol, 776, read_request), Reject::ok);
  EXPECT_EQ(read_request.expire_timestamp, 777u);
  EXPECT_EQ(read_request.nonce, request.nonce);
  EXPECT_EQ(read_request.private_data, request.private_data);

  // denied and disconnect (empty bodies)
  for (PacketType t : {PacketType::connection_denied, PacketType::disconnect}) {
    const std::size_t n = write_encrypted_packet(t, 42, {}, kProtocol, key, buf);
    ASSERT_EQ(read_back(std::span<const uint8_t>(buf).first(n), kClientAccepts, key, nullptr, out), Reject::ok);
    EXPECT_EQ(out.type, t);
    EXPECT_EQ(out.sequence, 42u);
  }
  // challenge and response
  ChallengeBody body;
  body.token_sequence = 0xdeadbeefcafeull;
  for (std::size_t i = 0; i < body.token.size(); ++i) body.token[i] = static_cast<uint8_t>(i ^ 0x5a);
  for (PacketType t : {PacketType::connection_challenge, PacketType::connection_response}) {
    const std::size_t n = write_challenge_packet(t, body, 7, kProtocol, key, buf);
    ASSERT_EQ(n, 1u + 1 + 308 + 16);
    const PacketTypeSet allowed = t == PacketType::connection_challenge ? kClientAccepts : kServerAccepts;
    ASSERT_EQ(read_back(std::span<const uint8_t>(buf).first(n), allowed, key, nullptr, out), Reject::ok);
    EXPECT_EQ(out.type, t);
    EXPECT_EQ(out.challenge.token_sequence, body.token_sequence);
    EXPECT_EQ(out.challenge.token, body.token);
  }
  // keep-alive
  const std::size_t ka = write_keep_alive_packet(KeepAliveBody{17, 64}, uint64_t{1} << 62, kProtocol, key, buf);
  ASSERT_EQ(ka, 1u + 8 + 8 + 16);
  ASSERT_EQ(read_back(std::span<const uint8_t>(buf).first(ka), kClientAccepts, key, nullptr, out), Reject::ok);
  EXPECT_EQ(out.keep_alive.client_index, 17u);
  EXPECT_EQ(out.keep_alive.max_clients, 64u);
  EXPECT_EQ(out.sequence, uint64_t{1} << 62);
  // payloads of 1 and 1200 bytes
  for (std::size_t size : {std::size_t{1}, std::size_t{1200}}) {
    std::vector<uint8_t> payload(size);
    for (std::size_t i = 0; i < size; ++i) payload[i] = static_cast<uint8_t>(i * 13 + size);
    const std::size_t n = write_encrypted_packet(PacketType::payload, 9, payload, kProtocol, key, buf);
    ASSERT_EQ(read_back(std::span<const uint8_t>(buf).first(n), kServerAccepts, key, nullptr, out), Reject::ok);
    ASSERT_EQ(out.payload_bytes, size);
    EXPECT_EQ(0, std::memcmp(out.payload.data(), payload.data(), size));
  }
}

TEST(NetcodePacket, HeaderReaderRefusesEachMalformedShape) {
  const Key key = fixed_key(4);
  std::array<uint8_t, kMaxPacketBytes + 8> buf{};
  EncryptedHeader h;
  auto header_of = [&](std::size_t n, PacketTypeSet allowed) {
    return read_encrypted_header(std::span<const uint8_t>(buf).first(n), allowed, h);
  };
  EXPECT_EQ(header_of(kMaxPacketBytes + 1, kServerAccepts), Reject::packet_too_large);
  EXPECT_EQ(header_of(17, kServerAccepts), Reject::packet_too_small);
  buf[0] = 0x17;  // type 7
  EXPECT_EQ(header_of(40, kServerAccepts), Reject::packet_type_invalid);
  buf[0] = 0x1f;
  EXPECT_EQ(header_of(40, kServerAccepts), Reject::packet_type_invalid);
  buf[0] = 0x12;  // challenge at the server
  EXPECT_EQ(header_of(40, kServerAccepts), Reject::packet_type_not_allowed);
  buf[0] = 0x13;  // response at the client
  EXPECT_EQ(header_of(40, kClientAccepts), Reject::packet_type_not_allowed);
  buf[0] = 0x10;  // type 0 with sequence bits: not a request
  EXPECT_EQ(header_of(40, kServerAccepts), Reject::packet_type_invalid);
  buf[0] = 0x06;  // disconnect with zero sequence bytes
  EXPECT_EQ(header_of(40, kServerAccepts), Reject::sequence_bytes_invalid);
  buf[0] = 0x96;  // nine sequence bytes
  EXPECT_EQ(header_of(40, kServerAccepts), Reject::sequence_bytes_invalid);
  buf[0] = 0x86;  // eight sequence bytes but only 20 bytes: no room for the MAC
  EXPECT_EQ(header_of(20, kServerAccepts), Reject::packet_too_small);
  buf[0] = 0x16;  // disconnect with a 1-byte body
  EXPECT_EQ(header_of(1 + 1 + 1 + 16, kServerAccepts), Reject::body_size_wrong);
  buf[0] = 0x14;  // keep-alive with 7 bytes
  EXPECT_EQ(header_of(1 + 1 + 7 + 16, kServerAccepts), Reject::body_size_wrong);
  buf[0] = 0x13;  // response with 307 bytes
  EXPECT_EQ(header_of(1 + 1 + 307 + 16, kServerAccepts), Reject::body_size_wrong);
  buf[0] = 0x15;  // empty payload
  EXPECT_EQ(header_of(1 + 1 + 0 + 16, kServerAccepts), Reject::body_size_wrong);

  // A well-formed header whose ciphertext or AD was changed fails to decrypt.
  const std::size_t n = write_keep_alive_packet(KeepAliveBody{1, 2}, 5, kProtocol, key, buf);
  DecodedPacket out;
  for (std::size_t i = 1; i < n; ++i) {
    auto bad = buf;
    bad[i] ^= 0x40;
    const Reject r = read_back(std::span<const uint8_t>(bad).first(n), kServerAccepts, key, nullptr, out);
    EXPECT_EQ(r, Reject::decrypt_failed) << "byte " << i;
  }
  EXPECT_EQ(read_back(std::span<const uint8_t>(buf).first(n), kServerAccepts, fixed_key(5), nullptr, out),
            Reject::decrypt_failed);
  // The prefix is authenticated: turning the keep-alive into a payload of the same size fails.
  auto retyped = buf;
  retyped[0] = 0x15;
  EXPECT_EQ(read_back(std::span<const uint8_t>(retyped).first(n), kServerAccepts, key, nullptr, out),
            Reject::decrypt_failed);
}

TEST(NetcodePacket, RequestReaderChecksInTheStandardsOrder) {
  ConnectionRequest request;
  request.protocol_id = kProtocol;
  request.expire_timestamp = 1000;
  std::array<uint8_t, kConnectionRequestBytes + 1> buf{};
  write_connection_request(request, buf);
  ConnectionRequest out;
  EXPECT_EQ(read_connection_request(std::span<const uint8_t>(buf).first(1077), kProtocol, 1, out),
            Reject::request_wrong_size);
  EXPECT_EQ(read_connection_request(buf, kProtocol, 1, out), Reject::request_wrong_size);
  auto v = buf;
  v[12] = '3';
  EXPECT_EQ(read_connection_request(std::span<const uint8_t>(v).first(1078), kProtocol, 1, out),
            Reject::request_wrong_version);
  EXPECT_EQ(read_connection_request(std::span<const uint8_t>(buf).first(1078), kProtocol + 1, 1, out),
            Reject::request_wrong_protocol);
  EXPECT_EQ(read_connection_request(std::span<const uint8_t>(buf).first(1078), kProtocol, 1000, out),
            Reject::request_token_expired);
  EXPECT_EQ(read_connection_request(std::span<const uint8_t>(buf).first(1078), kProtocol, 999, out), Reject::ok);
}

TEST(NetcodePacket, ReplayProtectedTypesAreCheckedBeforeDecryption) {
  const Key key = fixed_key(6);
  std::array<uint8_t, kMaxPacketBytes> buf;
  ReplayProtection replay;
  DecodedPacket out;
  const std::array<uint8_t, 3> body = {1, 2, 3};
  const std::size_t n = write_encrypted_packet(PacketType::payload, 300, body, kProtocol, key, buf);
  const auto packet = std::span<const uint8_t>(buf).first(n);
  EXPECT_EQ(read_back(packet, kServerAccepts, key, &replay, out), Reject::ok);
  EXPECT_EQ(read_back(packet, kServerAccepts, key, &replay, out), Reject::replayed);
  // A packet that fails to decrypt does not advance the window.
  const std::size_t m = write_encrypted_packet(PacketType::payload, 5000, body, kProtocol, fixed_key(7), buf);
  EXPECT_EQ(read_back(std::span<const uint8_t>(buf).first(m), kServerAccepts, key, &replay, out),
            Reject::decrypt_failed);
  EXPECT_EQ(replay.most_recent(), 300u);
  // Challenge/response packets are not replay protected (the standard's list).
  ChallengeBody cb;
  const std::size_t c = write_challenge_packet(PacketType::connection_challenge, cb, 1, kProtocol, key, buf);
  EXPECT_EQ(read_back(std::span<const uint8_t>(buf).first(c), kClientAccepts, key, &replay, out), Reject::ok);
  EXPECT_EQ(read_back(std::span<const uint8_t>(buf).first(c), kClientAccepts, key, &replay, out), Reject::ok);
}

}  // namespace
}  // namespace tickwire::netcode

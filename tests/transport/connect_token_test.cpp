// Connect tokens: public and private parts round trip byte for byte, every tampered byte or
// changed associated-data field fails to open, expiry and malformed lists are refused.
#include <gtest/gtest.h>

#include "netcode_test_support.h"
#include "tickwire/transport/connect_token.h"

namespace tickwire::netcode {
namespace {

using test::fixed_key;
using test::kAnchor;

ServerAddressList mixed_addresses() {
  ServerAddressList list;
  EXPECT_TRUE(list.add(Address::ipv4(127, 0, 0, 1, 40000)));
  EXPECT_TRUE(list.add(Address::ipv6({0x2001, 0xdb8, 0, 0, 0, 0, 0x8a2e, 0x7334}, 65535)));
  EXPECT_TRUE(list.add(Address::ipv4(10, 20, 30, 40, 1)));
  return list;
}

ConnectToken sample_token(const Key& key) {
  ConnectTokenParams params;
  params.client_id = 0x0123456789abcdefull;
  params.server_addresses = mixed_addresses();
  params.timeout_seconds = -1;
  params.expire_seconds = 45;
  for (std::size_t i = 0; i < params.user_data.size(); ++i) params.user_data[i] = static_cast<uint8_t>(255 - i);
  auto token = generate_connect_token(params, key, kAnchor.wall);
  EXPECT_TRUE(token.ok());
  return token.value();
}

TEST(ConnectToken, PublicPartRoundTripsThroughItsBytes) {
  const Key key = fixed_key(1);
  const ConnectToken token = sample_token(key);
  EXPECT_EQ(token.expire_timestamp - token.create_timestamp, 45u);
  EXPECT_EQ(token.create_timestamp, unix_seconds(kAnchor.wall));

  ConnectTokenBytes bytes;
  write_connect_token(token, bytes);
  ConnectToken read;
  ASSERT_TRUE(read_connect_token(bytes, read).ok());
  EXPECT_EQ(read.protocol_id, token.protocol_id);
  EXPECT_EQ(read.create_timestamp, token.create_timestamp);
  EXPECT_EQ(read.expire_timestamp, token.expire_timestamp);
  EXPECT_EQ(read.nonce, token.nonce);
  EXPECT_EQ(read.private_data, token.private_data);
  EXPECT_EQ(read.timeout_seconds, -1);
  EXPECT_EQ(read.server_addresses, token.server_addresses);
  EXPECT_EQ(read.client_to_server_key, token.client_to_server_key);
  EXPECT_EQ(read.server_to_client_key, token.server_to_client_key);
  ConnectTokenBytes again;
  write_connect_token(read, again);
  EXPECT_EQ(again, bytes);
}

TEST(ConnectToken, LayoutMatchesTheStandard) {
  const ConnectToken token = sample_token(fixed_key(2));
  ConnectTokenBytes b;
  write_connect_token(token, b);
  EXPECT_EQ(0, std::memcmp(b.data(), "NETCODE 1.02\0", 13));
  EXPECT_EQ(load_le<uint64_t>(b.data() + 13), token.protocol_id);
  EXPECT_EQ(load_le<uint64_t>(b.data() + 21), token.create_timestamp);
  EXPECT_EQ(load_le<uint64_t>(b.data() + 29), token.expire_timestamp);
  EXPECT_EQ(0, std::memcmp(b.data() + 37, token.nonce.data(), 24));
  EXPECT_EQ(0, std::memcmp(b.data() + 61, token.private_data.data(), 1024));
  const uint8_t* p = b.data() + 61 + 1024;
  EXPECT_EQ(load_le<int32_t>(p), -1);
  EXPECT_EQ(load_le<uint32_t>(p + 4), 3u);
  // First address: IPv4 127.0.0.1:40000.
  EXPECT_EQ(p[8], 1);
  EXPECT_EQ(p[9], 127);
  EXPECT_EQ(p[12], 1);
  EXPECT_EQ(load_le<uint16_t>(p + 13), 40000);
  // Second: IPv6 2001:db8::8a2e:7334 port 65535, groups as little-endian uint16.
  EXPECT_EQ(p[15], 2);
  EXPECT_EQ(load_le<uint16_t>(p + 16), 0x2001);
  EXPECT_EQ(load_le<uint16_t>(p + 18), 0x0db8);
  EXPECT_EQ(load_le<uint16_t>(p + 30), 0x7334);
  EXPECT_EQ(load_le<uint16_t>(p + 32), 65535);
  // Everything after the keys is zero padding.
  const std::size_t end = 61 + 1024 + 8 + 7 + 19 + 7 + 64;
  for (std::size_t i = end; i < b.size(); ++i) ASSERT_EQ(b[i], 0) << i;
}

TEST(ConnectToken, PrivatePartOpensWithTheKeyAndRoundTrips) {
  const Key key = fixed_key(3);
  const ConnectToken token = sample_token(key);
  ConnectTokenPrivate secret;
  ASSERT_EQ(open_private_token(token.private_data, token.protocol_id, token.expire_timestamp, token.nonce, key, secret),
            Reject::ok);
  EXPECT_EQ(secret.client_id, 0x0123456789abcdefull);
  EXPECT_EQ(secret.timeout_seconds, -1);
  EXPECT_EQ(secret.server_addresses, token.server_addresses);
  EXPECT_EQ(secret.client_to_server_key, token.client_to_server_key);
  EXPECT_EQ(secret.server_to_client_key, token.server_to_client_key);
  EXPECT_EQ(secret.user_data[0], 255);
  EXPECT_EQ(secret.user_data[255], 0);

  // Sealing the opened token again under the same nonce gives the same bytes.
  SealedPrivateToken resealed;
  seal_private_token(secret, token.protocol_id, token.expire_timestamp, token.nonce, key, resealed);
  EXPECT_EQ(resealed, token.private_data);
}

TEST(ConnectToken, EveryTamperedByteFailsToOpen) {
  const Key key = fixed_key(4);
  const ConnectToken token = sample_token(key);
  ConnectTokenPrivate secret;
  for (std::size_t i = 0; i < token.private_data.size(); i += 7) {
    SealedPrivateToken bad = token.private_data;
    bad[i] ^= 0x01;
    ASSERT_EQ(open_private_token(bad, token.protocol_id, token.expire_timestamp, token.nonce, key, secret),
              Reject::request_token_decrypt_failed)
        << "byte " << i;
  }
  // The associated data binds protocol id, expiry and nonce; the key must be the backend's.
  EXPECT_EQ(open_private_token(token.private_data, token.protocol_id + 1, token.expire_timestamp, token.nonce, key,
                               secret),
            Reject::request_token_decrypt_failed);
  EXPECT_EQ(open_private_token(token.private_data, token.protocol_id, token.expire_timestamp + 1, token.nonce, key,
                               secret),
            Reject::request_token_decrypt_failed);
  TokenNonce other_nonce = token.nonce;
  other_nonce[23] ^= 0x80;
  EXPECT_EQ(open_private_token(token.private_data, token.protocol_id, token.expire_timestamp, other_nonce, key, secret),
            Reject::request_token_decrypt_failed);
  EXPECT_EQ(open_private_token(token.private_data, token.protocol_id, token.expire_timestamp, token.nonce,
                               fixed_key(5), secret),
            Reject::request_token_decrypt_failed);
}

TEST(ConnectToken, AuthenticButMalformedPlaintextIsRefused) {
  const Key key = fixed_key(6);
  const TokenNonce nonce{};
  auto seal_plain = [&](auto write) {
    SealedPrivateToken sealed{};
    ByteWriter w(std::span<uint8_t>(sealed.data(), 1008));
    write(w);
    w.pad_to(1008);
    const auto ad = private_token_additional_data(kDefaultProtocolId, 99);
    EXPECT_TRUE(xaead_encrypt(sealed, std::span<const uint8_t>(sealed.data(), 1008), ad, nonce, key));
    return sealed;
  };
  ConnectTokenPrivate secret;
  for (uint32_t count : {0u, 33u, 0xffffffffu}) {
    const auto sealed = seal_plain([&](ByteWriter& w) {
      w.u64(1);
      w.u32(5);
      w.u32(count);
    });
    EXPECT_EQ(open_private_token(sealed, kDefaultProtocolId, 99, nonce, key, secret), Reject::request_token_malformed)
        << count;
  }
  for (uint8_t type : {uint8_t{0}, uint8_t{3}, uint8_t{255}}) {
    const auto sealed = seal_plain([&](ByteWriter& w) {
      w.u64(1);
      w.u32(5);
      w.u32(1);
      w.u8(type);
    });
    EXPECT_EQ(open_private_token(sealed, kDefaultProtocolId, 99, nonce, key, secret), Reject::request_token_malformed)
        << int{type};
  }
}

TEST(ConnectToken, ReaderRefusesWrongSizeVersionAndLists) {
  ConnectTokenBytes bytes;
  write_connect_token(sample_token(fixed_key(7)), bytes);
  ConnectToken out;
  EXPECT_EQ(read_connect_token(std::span<const uint8_t>(bytes).first(2047), out).error(), Error::truncated);
  std::vector<uint8_t> longer(bytes.begin(), bytes.end());
  longer.push_back(0);
  EXPECT_EQ(read_connect_token(longer, out).error(), Error::trailing_bytes);

  auto bad_version = bytes;
  bad_version[11] = '1';  // "NETCODE 1.01"
  EXPECT_EQ(read_connect_token(bad_version, out).error(), Error::value_out_of_range);

  auto no_servers = bytes;
  store_le<uint32_t>(no_servers.data() + 61 + 1024 + 4, 0);
  EXPECT_EQ(read_connect_token(no_servers, out).error(), Error::value_out_of_range);
  auto too_many = bytes;
  store_le<uint32_t>(too_many.data() + 61 + 1024 + 4, 33);
  EXPECT_EQ(read_connect_token(too_many, out).error(), Error::value_out_of_range);
  auto bad_type = bytes;
  bad_type[61 + 1024 + 8] = 0;
  EXPECT_EQ(read_connect_token(bad_type, out).error(), Error::value_out_of_range);
}

TEST(ConnectToken, MintingNeedsAServerAndUsesFreshKeys) {
  ConnectTokenParams params;
  EXPECT_EQ(generate_connect_token(params, fixed_key(8), kAnchor.wall).error(), Error::count_under_min);
  params.server_addresses.add(Address::ipv4(127, 0, 0, 1, 1));
  const auto a = generate_connect_token(params, fixed_key(8), kAnchor.wall);
  const auto b = generate_connect_token(params, fixed_key(8), kAnchor.wall);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_NE(a->client_to_server_key, b->client_to_server_key);
  EXPECT_NE(a->server_to_client_key, b->server_to_client_key);
  EXPECT_NE(a->client_to_server_key, a->server_to_client_key);
  EXPECT_NE(a->nonce, b->nonce);
  EXPECT_NE(sealed_token_mac(a->private_data), sealed_token_mac(b->private_data));
}

TEST(ConnectToken, ExpiredTokenRequestsAreRefusedByTheReader) {
  const Key key = fixed_key(9);
  const ConnectToken token = sample_token(key);
  ConnectionRequest request{token.protocol_id, token.expire_timestamp, token.nonce, token.private_data};
  std::array<uint8_t, kConnectionRequestBytes> packet;
  ASSERT_EQ(write_connection_request(request, packet), kConnectionRequestBytes);
  ConnectionRequest read;
  EXPECT_EQ(read_connection_request(packet, token.protocol_id, token.expire_timestamp - 1, read), Reject::ok);
  EXPECT_EQ(read_connection_request(packet, token.protocol_id, token.expire_timestamp, read),
            Reject::request_token_expired);
  EXPECT_EQ(read_connection_request(packet, token.protocol_id, token.expire_timestamp + 100, read),
            Reject::request_token_expired);
}

}  // namespace
}  // namespace tickwire::netcode

// Seed corpora for the netcode fuzz targets (tests/fixtures/fuzz/<target>/): small valid inputs
// so each fuzzer starts deep inside its reader. Checked here to still be what they claim (every
// seed reads back); regenerated with TICKWIRE_FUZZ_SEEDS=write.
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <string>

#include "netcode_test_support.h"
#include "support.h"
#include "tickwire/transport/netcode_packet.h"

namespace tickwire {
namespace {

using namespace tickwire::netcode;
using Bytes = std::vector<uint8_t>;

// The fixed keys the fuzz targets use (see fuzz/fuzz_*.cpp).
Key pattern_key(int mul, int add, bool descending = false) {
  Key k{};
  for (std::size_t i = 0; i < k.size(); ++i) {
    k[i] = descending ? static_cast<uint8_t>(add - static_cast<int>(i)) : static_cast<uint8_t>(static_cast<int>(i) * mul + add);
  }
  return k;
}

ConnectToken seed_token(const Key& key, uint64_t expire_s) {
  return test::mint_token(key, 7, {Address::ipv4(127, 0, 0, 1, 40000),
                                   Address::ipv6({0xfe80, 0, 0, 0, 0, 0, 0, 1}, 40001)},
                          test::kAnchor.wall, 5, expire_s);
}

Bytes decrypted_seed(PacketType type, uint64_t sequence, Bytes body) {
  Bytes out(9);
  out[0] = make_prefix(type, sequence_bytes_needed(sequence));
  store_le<uint64_t>(out.data() + 1, sequence);
  out.insert(out.end(), body.begin(), body.end());
  return out;
}

std::map<std::string, Bytes> build_seeds() {
  std::map<std::string, Bytes> seeds;
  // fuzz_netcode_preauth: a request whose token opens under the target's key, plus encrypted packets.
  {
    const Key key = pattern_key(5, 1);
    const ConnectToken t = seed_token(key, UINT32_MAX);
    Bytes request(kConnectionRequestBytes);
    write_connection_request(ConnectionRequest{kDefaultProtocolId, t.expire_timestamp, t.nonce, t.private_data}, request);
    seeds["fuzz_netcode_preauth/request"] = request;
    Bytes keep_alive(kMaxPacketBytes);
    keep_alive.resize(write_keep_alive_packet(KeepAliveBody{3, 64}, 1000, kDefaultProtocolId, key, keep_alive));
    seeds["fuzz_netcode_preauth/keep_alive"] = keep_alive;
    Bytes response(kMaxPacketBytes);
    response.resize(write_challenge_packet(PacketType::connection_response, ChallengeBody{}, 2, kDefaultProtocolId, key,
                                           response));
    seeds["fuzz_netcode_preauth/response"] = response;
  }
  // fuzz_connect_token: a whole public token, and private-token plaintext.
  {
    const ConnectToken t = seed_token(pattern_key(0, 200, true), 30);
    ConnectTokenBytes bytes;
    write_connect_token(t, bytes);
    seeds["fuzz_connect_token/public"] = Bytes(bytes.begin(), bytes.end());
    ConnectTokenPrivate secret;
    secret.client_id = 7;
    secret.timeout_seconds = 5;
    secret.server_addresses = t.server_addresses;
    Bytes plain(kConnectTokenPrivateBytes - kMacBytes);
    write_private_token_plain(secret, plain);
    seeds["fuzz_connect_token/private_plain"] = plain;
  }
  // fuzz_challenge_token: plaintext (client id + user data).
  {
    Bytes plain(kChallengeTokenBytes - kMacBytes, 0);
    store_le<uint64_t>(plain.data(), 0x1234);
    seeds["fuzz_challenge_token/plain"] = plain;
  }
  // fuzz_netcode_decrypted: [prefix][sequence][body] for each body shape.
  {
    seeds["fuzz_netcode_decrypted/keep_alive"] = decrypted_seed(PacketType::keep_alive, 5, Bytes{1, 0, 0, 0, 64, 0, 0, 0});
    seeds["fuzz_netcode_decrypted/payload"] = decrypted_seed(PacketType::payload, 300, Bytes(40, 0x5a));
    seeds["fuzz_netcode_decrypted/challenge"] =
        decrypted_seed(PacketType::connection_challenge, 1, Bytes(kChallengeBodyBytes, 1));
    seeds["fuzz_netcode_decrypted/disconnect"] = decrypted_seed(PacketType::disconnect, uint64_t{1} << 62, Bytes{});
  }
  return seeds;
}

TEST(FuzzSeeds, CheckedInSeedsAreValidInputs) {
  const auto dir = test::fixtures_dir() / "fuzz";
  const auto seeds = build_seeds();
  const char* mode = std::getenv("TICKWIRE_FUZZ_SEEDS");
  if (mode != nullptr && std::string(mode) == "write") {
    for (const auto& [name, bytes] : seeds) test::write_file_bytes(dir / name, bytes);
  }
  for (const auto& [name, fresh] : seeds) {
    ASSERT_TRUE(std::filesystem::exists(dir / name)) << "missing seed " << name << " (TICKWIRE_FUZZ_SEEDS=write regenerates)";
    const Bytes stored = test::read_file_bytes(dir / name);
    ASSERT_EQ(stored.size(), fresh.size()) << name;
  }
  // The stored seeds still reach deep: the request's token opens under the preauth target's key.
  const Bytes request = test::read_file_bytes(dir / "fuzz_netcode_preauth/request");
  ConnectionRequest parsed;
  ASSERT_EQ(read_connection_request(request, kDefaultProtocolId, 0, parsed), Reject::ok);
  ConnectTokenPrivate secret;
  EXPECT_EQ(open_private_token(parsed.private_data, parsed.protocol_id, parsed.expire_timestamp, parsed.nonce,
                               pattern_key(5, 1), secret),
            Reject::ok);
  const Bytes token = test::read_file_bytes(dir / "fuzz_connect_token/public");
  ConnectToken read;
  EXPECT_TRUE(read_connect_token(token, read).ok());
}

}  // namespace
}  // namespace tickwire

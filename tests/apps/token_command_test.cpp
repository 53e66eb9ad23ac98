// `tickwire token` as the README gives it, and with --world-authority: the grant rides sealed in the
// token's user data, where the server reads it at admission (only a session with world authority may
// edit the scene); without the flag the token grants nothing.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "cli_run.h"
#include "support.h"
#include "tickwire/server/admission_grants.h"
#include "tickwire/transport/connect_token.h"
#include "tickwire/transport/key_file.h"

namespace tickwire {
namespace {

struct Minted {
  bool ok = false;
  AdmissionGrants grants;
};

Minted mint(const std::vector<std::string>& extra) {
  const auto dir = std::filesystem::temp_directory_path();
  const std::string tag = std::to_string(getpid());
  const auto key = dir / ("tickwire-token-test-" + tag + ".key"), out = dir / ("tickwire-token-test-" + tag + ".token");
  std::filesystem::remove(key);
  EXPECT_TRUE(test::run_cli({"keygen", "--out", key.string()}).exited_with(0));
  std::vector<std::string> args{"token", "--key", key.string(), "--client-id", "7", "--server", "127.0.0.1:40000", "--out", out.string()};
  args.insert(args.end(), extra.begin(), extra.end());
  const test::CliRun run = test::run_cli(args);
  Minted minted;
  std::string error;
  const auto private_key = netcode::read_private_key_file(key, error);
  netcode::ConnectToken token;
  netcode::ConnectTokenPrivate secret;
  if (run.exited_with(0) && private_key && netcode::read_connect_token(test::read_file_bytes(out), token).ok() &&
      netcode::open_private_token(token.private_data, token.protocol_id, token.expire_timestamp, token.nonce, *private_key,
                                  secret) == netcode::Reject::ok) {
    minted.ok = true;
    minted.grants = read_admission_grants(secret.user_data);
  }
  std::filesystem::remove(key);
  std::filesystem::remove(out);
  return minted;
}

TEST(TokenCommand, TheReadmesTokenGrantsNothing) {
  const Minted minted = mint({});
  ASSERT_TRUE(minted.ok);
  EXPECT_FALSE(minted.grants.world_authority);
}

TEST(TokenCommand, WorldAuthorityRidesSealedInTheUserData) {
  const Minted minted = mint({"--world-authority"});
  ASSERT_TRUE(minted.ok);
  EXPECT_TRUE(minted.grants.world_authority);
  EXPECT_FALSE(test::run_cli({"token", "--client-id", "1", "--server", "127.0.0.1:1", "--world-authority", "--user-data", "00"})
                   .exited_with(0));
}

}  // namespace
}  // namespace tickwire

// `tickwire token`: mints a netcode 1.02 connect token the way a game backend would, from a key
// file (or TICKWIRE_PRIVATE_KEY), for one client id and one or more server addresses. Writes the
// 2048 bytes to --out, or prints them as hex.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "commands.h"
#include "tickwire/clock/system_clock.h"
#include "tickwire/core/hex.h"
#include "tickwire/server/admission_grants.h"
#include "tickwire/transport/connect_token.h"
#include "tickwire/transport/key_file.h"

namespace tickwire::cli {
namespace {

struct TokenArgs {
  std::string key_file;
  uint64_t client_id = 0;
  std::vector<std::string> servers;
  uint64_t expire_s = 30;
  int32_t timeout_s = 5;
  std::string user_data_hex;
  bool world_authority = false;
  std::string out;
  uint64_t protocol_id = netcode::kDefaultProtocolId;
};

bool fill_params(const TokenArgs& args, netcode::ConnectTokenParams& params) {
  params.protocol_id = args.protocol_id;
  params.client_id = args.client_id;
  params.expire_seconds = args.expire_s;
  params.timeout_seconds = args.timeout_s;
  for (const std::string& text : args.servers) {
    const auto address = Address::parse(text);
    if (!address || address->port() == 0) {
      std::fprintf(stderr, "token: '%s' is not a numeric HOST:PORT\n", text.c_str());
      return false;
    }
    if (!params.server_addresses.add(*address)) {
      std::fprintf(stderr, "token: at most %u server addresses\n", netcode::kMaxServersPerConnect);
      return false;
    }
  }
  if (!args.user_data_hex.empty()) {
    const auto bytes = from_hex(args.user_data_hex);
    if (!bytes || bytes->size() > params.user_data.size()) {
      std::fprintf(stderr, "token: --user-data must be at most %zu bytes of hex\n", params.user_data.size());
      return false;
    }
    std::copy(bytes->begin(), bytes->end(), params.user_data.begin());
  }
  if (args.world_authority) {
    if (!args.user_data_hex.empty()) {
      std::fprintf(stderr, "token: --world-authority states the user data itself; give one or the other\n");
      return false;
    }
    write_admission_grants(world_authority_grant(), params.user_data);
  }
  return true;
}

int run(const TokenArgs& args) {
  std::string error;
  const auto key = netcode::load_server_private_key(args.key_file, error);
  if (!key) {
    std::fprintf(stderr, "token: %s\n", error.c_str());
    return 1;
  }
  netcode::ConnectTokenParams params;
  if (!fill_params(args, params)) return 2;
  const auto token = netcode::generate_connect_token(params, *key, wall_now());
  if (!token.ok()) {
    std::fprintf(stderr, "token: %s\n", std::string(reason_name(token.error())).c_str());
    return 1;
  }
  netcode::ConnectTokenBytes bytes;
  netcode::write_connect_token(token.value(), bytes);
  if (args.out.empty()) {
    std::printf("%s\n", to_hex(bytes).c_str());
    return 0;
  }
  std::ofstream file(args.out, std::ios::binary | std::ios::trunc);
  file.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  file.close();
  if (!file) {
    std::fprintf(stderr, "token: cannot write %s\n", args.out.c_str());
    return 1;
  }
  // The token carries the client's session keys: owner-only, like the key file.
  std::error_code ignored;
  std::filesystem::permissions(args.out, std::filesystem::perms::owner_read | std::filesystem::perms::owner_write,
                               std::filesystem::perm_options::replace, ignored);
  std::printf("wrote %zu-byte token for client %llu (expires in %llu s) to %s\n", bytes.size(),
              static_cast<unsigned long long>(args.client_id), static_cast<unsigned long long>(args.expire_s),
              args.out.c_str());
  return 0;
}

}  // namespace

void register_token(CLI::App& app) {
  auto* cmd = app.add_subcommand("token", "mint a netcode 1.02 connect token");
  auto args = std::make_shared<TokenArgs>();
  cmd->add_option("--key", args->key_file, "private key file (default: $TICKWIRE_PRIVATE_KEY)");
  cmd->add_option("--client-id", args->client_id, "the client's unique id")->required();
  cmd->add_option("--server", args->servers, "HOST:PORT of a server the token admits to (1..32)")->required();
  cmd->add_option("--expire-s", args->expire_s, "seconds until the token expires")->capture_default_str();
  cmd->add_option("--timeout-s", args->timeout_s, "connection timeout in seconds (negative: none)")
      ->capture_default_str();
  cmd->add_option("--user-data", args->user_data_hex, "up to 256 bytes of hex passed to the server");
  cmd->add_flag("--world-authority", args->world_authority, "grant world authority: the session may edit the scene");
  cmd->add_option("--protocol-id", args->protocol_id, "the game's 64-bit protocol id")->capture_default_str();
  cmd->add_option("--out", args->out, "write the 2048-byte token here (default: hex on stdout)");
  cmd->callback([args] { set_exit_code(run(*args)); });
}

}  // namespace tickwire::cli

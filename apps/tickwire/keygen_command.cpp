// `tickwire keygen --out FILE`: creates the private key a backend and its dedicated servers share
// (32 random bytes as hex, file mode 0600). Refuses to overwrite an existing key file.
#include <cstdio>
#include <filesystem>
#include <string>

#include "commands.h"
#include "tickwire/transport/key_file.h"

namespace tickwire::cli {

void register_keygen(CLI::App& app) {
  auto* cmd = app.add_subcommand("keygen", "write a new private key for minting connect tokens");
  auto out = std::make_shared<std::string>();
  auto force = std::make_shared<bool>(false);
  cmd->add_option("--out", *out, "key file to create (mode 0600)")->required();
  cmd->add_flag("--force", *force, "overwrite an existing file");
  cmd->callback([out, force] {
    if (!*force && std::filesystem::exists(*out)) {
      std::fprintf(stderr, "keygen: %s exists (use --force to replace it)\n", out->c_str());
      set_exit_code(1);
      return;
    }
    const netcode::Key key = netcode::random_key();
    std::string error;
    if (!netcode::write_private_key_file(*out, key, error)) {
      std::fprintf(stderr, "keygen: %s\n", error.c_str());
      set_exit_code(1);
      return;
    }
    std::printf("wrote private key to %s\n", out->c_str());
  });
}

}  // namespace tickwire::cli

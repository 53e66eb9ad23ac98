// `tickwire schema`: prints this build's canonical schema text and its 16-byte hash.
#include <cstdio>

#include "commands.h"
#include "tickwire/core/hex.h"
#include "tickwire/protocol/wire_messages.h"

namespace tickwire::cli {

void register_schema(CLI::App& app) {
  auto* cmd = app.add_subcommand("schema", "print the wire schema and its hash");
  static bool hash_only = false;
  cmd->add_flag("--hash", hash_only, "print only the hash");
  cmd->callback([] {
    const auto& messages = protocol::protocol_messages();
    if (!hash_only) std::fputs(messages.schema_text().c_str(), stdout);
    std::printf("%shash %s\n", hash_only ? "" : "\n", to_hex(messages.schema_hash().bytes).c_str());
  });
}

}  // namespace tickwire::cli

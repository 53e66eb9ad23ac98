// `tickwire schema`: prints this build's canonical schema text and its 16-byte hash.
#include <cstdio>

#include "commands.h"

namespace tickwire::cli {

void register_schema(CLI::App& app) {
  auto* cmd = app.add_subcommand("schema", "print the wire schema and its hash");
  cmd->callback([] { std::printf("schema: not yet\n"); });
}

}  // namespace tickwire::cli

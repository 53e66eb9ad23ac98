// The tickwire CLI: one binary, one subcommand per job. Each command lives in its own file and
// registers itself through commands.h.
#include <CLI/CLI.hpp>

#include "commands.h"

int main(int argc, char** argv) {
  CLI::App app{"tickwire: netcode engine for server-authoritative multiplayer games"};
  app.require_subcommand(1);
  tickwire::cli::register_all(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  return tickwire::cli::exit_code();
}
